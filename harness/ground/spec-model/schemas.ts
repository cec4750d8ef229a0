import { z } from 'zod';

// zod schemas of every resource, input and response of parts 2, 4 and 7 of the spec
// (the Outreach Email Service API v1 spec), written from the spec text.
//
// House rules of this file:
// - Response objects never reject extra fields (z.looseObject): the spec does not forbid them.
//   Every stated field's type, enum and nullability is enforced.
// - Input schemas (bodies a check sends) use z.object: they describe a valid request.
// - Where the spec says "not shown" (element shapes, bounds, defaults, value sets) the schema is
//   permissive (z.unknown() / z.string()) and a comment says so; it never invents a constraint.
// - Where the spec states "or null" the field is required and nullable. A field whose value can
//   legitimately be absent but whose nullability the spec does not state (e.g. a lead's
//   `lastContactedAt` before any contact) is `absent()`: omitted or null, typed when present.
//   The strict reading of 2 ("`null` is used for an absent optional value where stated": no
//   null elsewhere) is a SHOULD (clause RES-NULL-ONLY-WHERE-STATED), checked with
//   `unstatedNulls()` below, so a null there warns instead of failing a MUST.

// ---------------------------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------------------------

/**
 * Whether a field that may be absent (but whose nullability the spec does not state) may be
 * `null` in the MUST-level schemas. True: both readings of 2 pass the MUST schemas; the strict
 * one (omit, never null) is held at SHOULD level by `unstatedNulls()`.
 */
export const ABSENT_MAY_BE_NULL: boolean = true;

/** A field that may be omitted (and, if ABSENT_MAY_BE_NULL, be null); typed when present. */
export function absent<T extends z.ZodType>(schema: T) {
  return ABSENT_MAY_BE_NULL ? schema.nullable().optional() : schema.optional();
}

/** Any UUID (8-4-4-4-12 hex digits, any version or variant, either case). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuid = z.string().regex(UUID_RE, { message: 'must be a UUID string' });

/**
 * ISO 8601 date-time: YYYY-MM-DDThh:mm:ss, optional fraction (milliseconds or more digits),
 * and `Z` or a numeric offset ±hh:mm. A real calendar date is required (no Feb 30).
 */
export const ISO_TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

export function isIsoTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = ISO_TIMESTAMP_RE.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  if (mo! < 1 || mo! > 12 || h! > 23 || mi! > 59 || s! > 59) return false;
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  if (day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d!) return false;
  if (m[8] !== 'Z' && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

export const isoTimestamp = z.string().refine(isIsoTimestamp, { message: 'must be an ISO 8601 timestamp' });

/** IANA time zone name ("Europe/Paris", "UTC"), known to the runtime's ICU data. */
export function isIanaTimezone(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  // Names only: an offset such as "+02:00" is not an IANA zone name.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
export const ianaTimezone = z.string().refine(isIanaTimezone, { message: 'must be an IANA time zone name' });

/** "#rgb", "#rrggbb" (and the alpha forms "#rgba", "#rrggbbaa"). */
export const HEX_COLOR_RE = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
export const hexColor = z.string().regex(HEX_COLOR_RE, { message: 'must be a hex color' });

/** RFC 5322 msg-id: "<" id-left "@" id-right ">". */
export const MESSAGE_ID_RE = /^<[^<>\s@]+@[^<>\s@]+>$/;
export const messageId = z.string().regex(MESSAGE_ID_RE, { message: 'must be an RFC 5322 Message-ID (<left@right>)' });

const int = () => z.number().int();
const count = () => z.number().int().min(0);

// ---------------------------------------------------------------------------------------------
// 2.1 Mailbox
// ---------------------------------------------------------------------------------------------

export const MAILBOX_PROVIDERS = ['custom', 'google', 'microsoft'] as const;
export const OAUTH_PROVIDERS = ['google', 'microsoft'] as const;
export const MAILBOX_STATUSES = ['active', 'inactive', 'checking', 'revoked', 'failed'] as const;
export const AUTOMATION_LANGUAGES = [
  'en', 'ar', 'bn', 'zh', 'cs', 'da', 'nl', 'fi', 'fr', 'de', 'el', 'he', 'hi', 'hu', 'id',
  'it', 'ja', 'ko', 'ms', 'no', 'pl', 'pt', 'ro', 'ru', 'es', 'sv', 'th', 'tr', 'uk', 'vi',
] as const;

export const tag = z.looseObject({ id: uuid, name: z.string(), color: hexColor });

export const statusMessage = z.looseObject({
  code: z.string(),
  command: z.string(),
  responseCode: z.number(),
  response: z.string(),
  message: z.string(),
  occurredAt: isoTimestamp,
});

/** Keys that must never appear in a mailbox as returned ("passwords are never returned"). */
export const PASSWORD_KEY_RE = /password/i;

function findPasswordKeys(value: unknown, path: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (PASSWORD_KEY_RE.test(k)) found.push([...path, k].join('.'));
    found.push(...findPasswordKeys(v, [...path, k]));
  }
  return found;
}

const port = () => z.number().int().min(1).max(65535);

export const smtpSettings = z.looseObject({ host: z.string(), port: port(), username: z.string() });
export const imapSettings = z.looseObject({ host: z.string(), port: port(), username: z.string() });

// 2.3 Warmup
export const WARMUP_WRITABLE_FIELDS = [
  'enabled', 'strategy', 'maxPerDay', 'replyRatePercentage', 'rampupEnabled', 'dailyRampup',
  'randomizer', 'skipWeekends', 'timezone', 'trackingEnabled',
] as const;
export const WARMUP_READONLY_FIELDS = ['phase', 'startedAt', 'poolAccess'] as const;

const warmupWritableShape = {
  enabled: z.boolean(),
  // value seen: "standard"; the allowed set is not shown, so any string.
  strategy: z.string(),
  // Bounds and defaults of the numeric warmup fields: not shown (2.3). Numbers only.
  maxPerDay: z.number(),
  replyRatePercentage: z.number(),
  rampupEnabled: z.boolean(),
  dailyRampup: z.number(),
  randomizer: z.number(),
  skipWeekends: z.boolean(),
  timezone: ianaTimezone,
  trackingEnabled: z.boolean(),
};

/** The warmup object a client sends (create or PATCH): every writable field optional. */
export const warmupInput = z.object(warmupWritableShape).partial();

/**
 * The warmup object in a mailbox. Every writable field is reported (2.3 lists them; only their
 * defaults are not shown, not whether they exist). The read-only `phase`, `startedAt` and
 * `poolAccess` may be absent (warmup off, not started). `phase` (seen `warming_up`) and
 * `poolAccess` (seen `free`) are strings: their value sets are not shown.
 */
export const warmup = z.looseObject({
  ...warmupWritableShape,
  phase: absent(z.string()),
  startedAt: absent(isoTimestamp),
  poolAccess: absent(z.string()),
});

// 2.4 Verification (values seen only; complete sets not shown, so strings)
export const mailboxVerification = z.looseObject({
  overallStatus: z.string(),
  smtp: z.string(),
  imap: z.string(),
  dns: z.looseObject({ mx: z.string(), spf: z.string(), dkim: z.string(), dmarc: z.string() }),
});

/** GET /v1/accounts/{id}/verification. `error`'s type is not shown: any value. */
export const verificationResult = z.looseObject({
  overallStatus: z.string(),
  smtp: z.looseObject({ status: z.string(), error: z.unknown() }),
  imap: z.looseObject({ status: z.string(), error: z.unknown() }),
  // "dns (object)": its members are not listed for this endpoint.
  dns: z.looseObject({}),
  // typed timestamp; a mailbox never verified yet has none
  lastVerifiedAt: absent(isoTimestamp),
});

export const mailbox = z
  .looseObject({
    id: uuid,
    emailAddress: z.string(),
    firstName: z.string(),
    lastName: z.string(),
    displayName: z.string(),
    provider: z.enum(MAILBOX_PROVIDERS),
    status: z.enum(MAILBOX_STATUSES),
    maxEmailsPerDay: z.number(),
    sendingGapMinutes: z.number(),
    campaignSlowRamp: z.boolean(),
    // optional inputs without a stated default for "unset": typed when present
    replyToAddress: absent(z.string()),
    signature: absent(z.string()),
    bcc: absent(z.string()),
    automationLanguage: z.enum(AUTOMATION_LANGUAGES),
    warmup,
    tracking: absent(z.looseObject({ domainId: absent(uuid) })),
    statusMessage: statusMessage.nullable(),
    tags: z.array(tag),
    healthScore: z.number().min(0).max(100),
    smtp: smtpSettings,
    imap: imapSettings.nullable(),
    verification: mailboxVerification,
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
  })
  .superRefine((m, ctx) => {
    for (const p of findPasswordKeys(m)) {
      ctx.addIssue({ code: 'custom', message: `passwords are never returned (found "${p}")`, path: p.split('.') });
    }
  });

// ---------------------------------------------------------------------------------------------
// 2.2 Mailbox create input, with its bounds as data
// ---------------------------------------------------------------------------------------------

export type FieldBound =
  | { type: 'string'; required: boolean; maxLength?: number; minLength?: number; format?: 'email' | 'html'; note?: string }
  | { type: 'number'; required: boolean; min?: number; max?: number; integer?: boolean; note?: string }
  | { type: 'boolean'; required: boolean; note?: string }
  | { type: 'enum'; required: boolean; values: readonly string[]; note?: string }
  | { type: 'object'; required: boolean; note?: string };

/**
 * 2.2 (and part 8 "Field lengths") per field. Checks generate min, max, min-1 and max+1 cases
 * from this table. `integer` is a reading (ports and counts are whole numbers; SHOULD level);
 * `format: 'email'` marks a field that holds an address (a reading; the spec gives max length).
 */
export const ACCOUNT_INPUT_BOUNDS = {
  emailAddress: { type: 'string', required: true, maxLength: 254, format: 'email' },
  firstName: { type: 'string', required: true, maxLength: 128 },
  lastName: { type: 'string', required: true, maxLength: 128 },
  displayName: { type: 'string', required: false, maxLength: 128, note: 'defaults to first name plus last name' },
  smtpHost: { type: 'string', required: true, maxLength: 255 },
  smtpPort: { type: 'number', required: true, min: 1, max: 65535, integer: true },
  smtpUsername: { type: 'string', required: true, maxLength: 255 },
  smtpPassword: { type: 'string', required: true, maxLength: 1024, note: 'stored encrypted, never returned' },
  imapHost: { type: 'string', required: true, maxLength: 255 },
  imapPort: { type: 'number', required: true, min: 1, max: 65535, integer: true },
  imapUsername: { type: 'string', required: true, maxLength: 255 },
  imapPassword: { type: 'string', required: true, maxLength: 1024, note: 'stored encrypted, never returned' },
  imapAllowInvalidCert: { type: 'boolean', required: false, note: 'accept a self-signed IMAP certificate' },
  maxEmailsPerDay: { type: 'number', required: false, min: 1, max: 200, integer: true },
  sendingGapMinutes: { type: 'number', required: false, min: 1, max: 300, integer: true },
  campaignSlowRamp: { type: 'boolean', required: false },
  signature: { type: 'string', required: false, format: 'html', note: 'HTML, sanitized on save' },
  bcc: { type: 'string', required: false, maxLength: 254, format: 'email' },
  replyToAddress: { type: 'string', required: false, maxLength: 254, format: 'email', note: 'omit to reply to the mailbox itself' },
  automationLanguage: { type: 'enum', required: false, values: AUTOMATION_LANGUAGES },
  tracking: { type: 'object', required: false, note: '`domainId` (uuid)' },
  warmup: { type: 'object', required: false, note: 'omitted means defaults are accepted and warmup is ON' },
} as const satisfies Record<string, FieldBound>;

export type AccountInputField = keyof typeof ACCOUNT_INPUT_BOUNDS;

/** Mailboxes per POST /v1/accounts call (4.2, part 8). */
export const ACCOUNTS_PER_CREATE = { min: 1, max: 50 } as const;

/** A zod schema for one row of a bounds table (used for generated cases and the input schema). */
export function fieldSchema(b: FieldBound): z.ZodType {
  switch (b.type) {
    case 'string':
      return boundedString(b);
    case 'number':
      return boundedNumber(b);
    case 'boolean':
      return z.boolean();
    case 'enum':
      return z.enum(b.values as unknown as [string, ...string[]]);
    case 'object':
      return z.looseObject({});
  }
}

function boundedString(b: { maxLength?: number; minLength?: number; format?: 'email' | 'html' }): z.ZodString {
  let s: z.ZodString = b.format === 'email' ? (z.email() as unknown as z.ZodString) : z.string();
  if (b.minLength !== undefined) s = s.min(b.minLength);
  if (b.maxLength !== undefined) s = s.max(b.maxLength);
  return s;
}

function boundedNumber(b: { min?: number; max?: number; integer?: boolean }): z.ZodNumber {
  let n = z.number();
  if (b.integer) n = n.int();
  if (b.min !== undefined) n = n.min(b.min);
  if (b.max !== undefined) n = n.max(b.max);
  return n;
}

export const trackingInput = z.object({ domainId: uuid });

const IB = ACCOUNT_INPUT_BOUNDS;

/** One element of `accounts` in POST /v1/accounts (2.2); bounds from ACCOUNT_INPUT_BOUNDS. */
export const accountCreateInput = z.object({
  emailAddress: boundedString(IB.emailAddress),
  firstName: boundedString(IB.firstName),
  lastName: boundedString(IB.lastName),
  displayName: boundedString(IB.displayName).optional(),
  smtpHost: boundedString(IB.smtpHost),
  smtpPort: boundedNumber(IB.smtpPort),
  smtpUsername: boundedString(IB.smtpUsername),
  smtpPassword: boundedString(IB.smtpPassword),
  imapHost: boundedString(IB.imapHost),
  imapPort: boundedNumber(IB.imapPort),
  imapUsername: boundedString(IB.imapUsername),
  imapPassword: boundedString(IB.imapPassword),
  imapAllowInvalidCert: z.boolean().optional(),
  maxEmailsPerDay: boundedNumber(IB.maxEmailsPerDay).optional(),
  sendingGapMinutes: boundedNumber(IB.sendingGapMinutes).optional(),
  campaignSlowRamp: z.boolean().optional(),
  // "HTML, sanitized on save": any string is accepted; sanitizing is behaviour.
  signature: z.string().optional(),
  bcc: boundedString(IB.bcc).optional(),
  replyToAddress: boundedString(IB.replyToAddress).optional(),
  automationLanguage: z.enum(AUTOMATION_LANGUAGES).optional(),
  tracking: trackingInput.optional(),
  // omitted means defaults are accepted and warmup is ON
  warmup: warmupInput.optional(),
});

/** POST /v1/accounts body. */
export const accountsCreateBody = z.object({
  accounts: z.array(accountCreateInput).min(ACCOUNTS_PER_CREATE.min).max(ACCOUNTS_PER_CREATE.max),
});

/** Fields PATCH /v1/accounts/{id} accepts (4.2). `emailAddress` is not among them. */
export const ACCOUNT_PATCH_FIELDS = [
  'firstName', 'lastName', 'displayName', 'maxEmailsPerDay', 'sendingGapMinutes', 'campaignSlowRamp',
  'signature', 'bcc', 'replyToAddress', 'automationLanguage', 'tracking', 'warmup', 'smtpHost', 'smtpPort',
  'smtpUsername', 'smtpPassword', 'imapHost', 'imapPort', 'imapUsername', 'imapPassword', 'imapAllowInvalidCert',
] as const satisfies readonly AccountInputField[];

/** Fields whose presence in a PATCH rotates credentials and re-runs verification. */
export const ACCOUNT_CREDENTIAL_FIELDS = ACCOUNT_PATCH_FIELDS.filter((f) => f.startsWith('smtp') || f.startsWith('imap'));

/** PATCH /v1/accounts/{id} body: a partial mailbox input without `emailAddress`. */
export const accountPatchBody = accountCreateInput.omit({ emailAddress: true }).partial();

/** 201 answer of POST /v1/accounts. The shape of each `errors` element is not shown. */
export const accountsCreateResponse = z.looseObject({
  summary: z.looseObject({ submitted: count(), created: count(), failed: count() }),
  accounts: z.array(mailbox),
  errors: z.array(z.unknown()),
});

/** DELETE /v1/accounts/{id} and DELETE /v1/emails/{id}. */
export const deletedResponse = z.looseObject({ id: uuid, deleted: z.literal(true) });

/** POST /v1/accounts/oauth/{provider}/init. */
export const oauthInitResponse = z.looseObject({
  // "open the URL in a browser": an absolute http(s) URL
  authorizationUrl: z.url({ protocol: /^https?$/ }),
  state: z.string().min(1),
  expiresInSeconds: z.number().positive(),
});

// ---------------------------------------------------------------------------------------------
// 2.5 Campaign
// ---------------------------------------------------------------------------------------------

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'active', 'paused', 'stopped', 'completed', 'failed'] as const;

const scheduleShape = {
  timezone: ianaTimezone,
  // Numbering of days (0 = Sunday or 1 = Monday...) is not shown: the profile declares it.
  sendingDays: z.array(int()),
  sendingMinutesStart: int(),
  sendingMinutesEnd: int(),
  dailyLimit: int(),
  startDate: isoTimestamp,
  endDate: isoTimestamp,
};

/** The schedule in a campaign. startDate/endDate may be unset (a campaign with no end). */
export const schedule = z.looseObject({
  ...scheduleShape,
  startDate: absent(isoTimestamp),
  endDate: absent(isoTimestamp),
});

export const settings = z.looseObject({
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  sendAsTextOnly: z.boolean(),
  stopOnReply: z.boolean(),
});

export const campaignMetrics = z.looseObject({
  leadsCount: count(),
  sent: count(),
  opens: count(),
  clicks: count(),
  replies: count(),
});

/**
 * One sequence step. Steps carry variants (the test email names a "sequence step variant"), but
 * the variant shape is not shown, so extra fields pass.
 */
export const sequenceStep = z.looseObject({
  subject: z.string(),
  body: z.string(),
  delayDays: int(),
  delayHours: int(),
});

export const campaign = z.looseObject({
  id: uuid,
  name: z.string().min(1),
  status: z.enum(CAMPAIGN_STATUSES),
  schedule,
  settings,
  metrics: campaignMetrics,
  tags: z.array(tag),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  sequence: z.array(sequenceStep),
  accounts: z.array(uuid),
});

export const campaignListItem = z.looseObject({
  id: uuid,
  name: z.string().min(1),
  status: z.enum(CAMPAIGN_STATUSES),
  leadsCount: count(),
  tags: z.array(tag),
  createdAt: isoTimestamp,
});

/** GET /v1/campaigns/{id}/status. nextScheduleOpensAt: null when in-window or not active. */
export const campaignStatusView = z
  .looseObject({
    id: uuid,
    status: z.enum(CAMPAIGN_STATUSES),
    isWithinSchedule: z.boolean(),
    metrics: campaignMetrics,
    nextScheduleOpensAt: isoTimestamp.nullable(),
  })
  .superRefine((v, ctx) => {
    if ((v.isWithinSchedule || v.status !== 'active') && v.nextScheduleOpensAt !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['nextScheduleOpensAt'],
        message: 'nextScheduleOpensAt must be null when the campaign is within its schedule or not active',
      });
    }
  });

// Campaign inputs. Required fields and bounds of the create fields are not shown (2.5): every
// field is optional here and only its type is enforced.
export const scheduleInput = z.object(scheduleShape).partial();
export const settingsInput = settings.partial();
export const sequenceStepInput = z.object({
  subject: z.string(),
  body: z.string(),
  delayDays: int(),
  delayHours: int(),
}).partial();

/** POST /v1/campaigns body. `leads`: email address strings; `launch` needs campaigns:lifecycle too. */
export const campaignCreateBody = z.object({
  name: z.string().min(1).optional(),
  schedule: scheduleInput.optional(),
  settings: settingsInput.optional(),
  sequence: z.array(sequenceStepInput).optional(),
  accounts: z.array(uuid).optional(),
  leads: z.array(z.string()).optional(),
  launch: z.boolean().optional(),
});

/** PATCH /v1/campaigns/{id}: only supplied sections change; accounts and sequence replace. */
export const campaignPatchBody = z.object({
  name: z.string().min(1),
  schedule: scheduleInput,
  settings: settingsInput,
  sequence: z.array(sequenceStepInput),
  accounts: z.array(uuid),
}).partial();

/**
 * POST /v1/campaigns answer. `launchError` is typed string and "says why it could not launch";
 * when no launch failed (launched, or no launch asked) there is no reason, so null or omission
 * is accepted. `campaignCreateResponseFor()` adds the rules that depend on the request.
 */
export const campaignCreateResponse = z.looseObject({
  campaign,
  launched: z.boolean(),
  leads: z.looseObject({ submitted: count(), created: count(), duplicates: count(), invalid: count() }),
  launchError: z.string().nullable().optional(),
});

/**
 * The create answer for a request with or without `launch: true`: without it, `launched` is
 * false; with it and `launched` false, `launchError` is a non-empty string (the reason).
 */
export function campaignCreateResponseFor(req: { launch: boolean }) {
  return campaignCreateResponse.superRefine((v, ctx) => {
    if (!req.launch && v.launched) {
      ctx.addIssue({ code: 'custom', path: ['launched'], message: 'launched must be false when no launch was asked' });
    }
    if (req.launch && !v.launched && !(typeof v.launchError === 'string' && v.launchError.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['launchError'], message: 'launchError must say why the campaign could not launch' });
    }
  });
}

/** POST /v1/campaigns/{id}/start and /resume (and the referenced pause). */
export const campaignLifecycleResponse = z.looseObject({
  id: uuid,
  status: z.enum(CAMPAIGN_STATUSES),
  success: z.boolean(),
});

export const TEST_EMAIL_PERSONALIZATION = ['dummy', 'lead'] as const;

/** POST /v1/campaigns/{id}/test-email body: leadId required for `lead`, omitted for `dummy`. */
export const testEmailBody = z
  .object({
    variantId: uuid,
    accountId: uuid,
    recipient: z.email(),
    personalization: z.enum(TEST_EMAIL_PERSONALIZATION),
    leadId: uuid.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.personalization === 'lead' && v.leadId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'leadId is required when personalization is "lead"' });
    }
    if (v.personalization !== 'lead' && v.leadId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'leadId must be omitted unless personalization is "lead"' });
    }
  });

export const testEmailResponse = z.looseObject({ sent: z.boolean(), messageId: z.string() });

/** Test emails per day per workspace (part 8). */
export const TEST_EMAILS_PER_DAY = 12;

// ---------------------------------------------------------------------------------------------
// 2.6 Lead
// ---------------------------------------------------------------------------------------------

export const LEAD_REPLIED_STATUSES = [
  'lead_replied_interested', 'lead_replied_meeting_request', 'lead_replied_out_of_office',
  'lead_replied_wrong_person', 'lead_replied_not_interested', 'lead_replied_unsubscribed',
  'lead_replied_uncategorized',
] as const;
/** Settable only once the lead has replied (3.3). */
export const LEAD_AFTER_REPLY_STATUSES = [...LEAD_REPLIED_STATUSES, 'lead_converted'] as const;
/** Settable at any time (3.3). */
export const LEAD_ANYTIME_STATUSES = ['lead_lost', 'blacklisted'] as const;
export const LEAD_USER_SETTABLE_STATUSES = [...LEAD_AFTER_REPLY_STATUSES, ...LEAD_ANYTIME_STATUSES] as const;
/** Platform-managed statuses named by the spec (the full set is not shown); setting them is rejected. */
export const LEAD_PLATFORM_STATUSES_NAMED = ['email_sent', 'scheduled', 'not_contacted'] as const;

export const lead = z.looseObject({
  id: uuid,
  email: z.string(),
  firstName: absent(z.string()),
  lastName: absent(z.string()),
  companyName: absent(z.string()),
  jobTitle: absent(z.string()),
  website: absent(z.string()),
  linkedinProfile: absent(z.string()),
  location: absent(z.string()),
  tags: z.array(z.string()),
  customFields: z.record(z.string(), z.unknown()),
  // Value set beyond part 3 not shown (seen: not_contacted).
  status: z.string(),
  // Value sets not shown (seen: valid, email_ok).
  verification: absent(z.looseObject({ status: z.string(), subStatus: z.string() })),
  metrics: z.looseObject({ sent: count(), opened: count(), clicked: count(), replied: count() }),
  provider: absent(z.string()),
  sequenceProgress: z.looseObject({
    totalSteps: count(),
    sentCount: count(),
    plannedCount: count(),
    failedCount: count(),
    nextPlannedAt: absent(isoTimestamp),
  }),
  createdAt: isoTimestamp,
  lastContactedAt: absent(isoTimestamp),
  lastRepliedAt: absent(isoTimestamp),
});

export const LEAD_PATCH_FIELDS = [
  'email', 'firstName', 'lastName', 'companyName', 'jobTitle', 'website', 'linkedinProfile', 'location',
  'tags', 'customFields', 'customFieldLabels', 'customFieldTypes', 'status',
] as const;

/** PATCH /v1/campaigns/{cid}/leads/{leadId} body (rules of 3.3 are behaviour, not shape). */
export const leadPatchBody = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  jobTitle: z.string(),
  website: z.string(),
  linkedinProfile: z.string(),
  location: z.string(),
  tags: z.array(z.string()),
  customFields: z.record(z.string(), z.unknown()),
  customFieldLabels: z.record(z.string(), z.unknown()),
  customFieldTypes: z.record(z.string(), z.unknown()),
  status: z.string(),
}).partial();

export const leadDeleteResponse = z.looseObject({ success: z.literal(true), retentionDays: int().min(0) });

// Mutate (4.4). The request field names of the operation and the status are not shown: the
// profile declares them, and `mutateBody(names)` builds the body schema with them.
export const MUTATE_OPERATIONS = ['set_status', 'add_tags', 'remove_tags', 'delete'] as const;
export type MutateOperation = (typeof MUTATE_OPERATIONS)[number];
export const MUTATE_MAX_IDS = 1000;

export const mutateIds = z.array(uuid).min(1).max(MUTATE_MAX_IDS);
export const mutateTags = z.array(z.string());
export const mutateAll = z.boolean();

/** True when a mutate filter holds at least one condition (a non-empty search or tags). */
export function filterHasCondition(f: { search?: unknown; tags?: unknown }): boolean {
  return (typeof f.search === 'string' && f.search.trim().length > 0) || (Array.isArray(f.tags) && f.tags.length > 0);
}
export const mutateFilter = z
  .object({ search: z.string().optional(), tags: z.array(z.string()).optional() })
  .refine(filterHasCondition, { message: 'filter must hold at least one condition; an empty filter is rejected' });

/** Builds the mutate body schema with the profile's names for the operation and status fields. */
export function mutateBody(names: { operation: string; status: string }) {
  return z
    .object({
      [names.operation]: z.enum(MUTATE_OPERATIONS),
      ids: mutateIds.optional(),
      filter: mutateFilter.optional(),
      all: mutateAll.optional(),
      [names.status]: z.enum(LEAD_USER_SETTABLE_STATUSES).optional(),
      tags: mutateTags.optional(),
    })
    .superRefine((raw, ctx) => {
      const b = raw as Record<string, unknown>;
      const op = b[names.operation] as MutateOperation;
      const has = (k: string) => b[k] !== undefined;
      if (op !== 'delete' && (has('filter') || has('all'))) {
        ctx.addIssue({ code: 'custom', message: '`filter` and `all` are only for delete' });
      }
      if (b.all === true && (has('ids') || has('filter'))) {
        ctx.addIssue({ code: 'custom', message: '`all` is mutually exclusive with `ids` and `filter`' });
      }
      const filterBasedDelete = op === 'delete' && (has('filter') || b.all === true);
      if (!has('ids') && !filterBasedDelete) {
        ctx.addIssue({ code: 'custom', path: ['ids'], message: '`ids` is required except for a filter-based delete' });
      }
      if (op === 'set_status' && !has(names.status)) {
        ctx.addIssue({ code: 'custom', path: [names.status], message: 'a status is required for set_status' });
      }
      if ((op === 'add_tags' || op === 'remove_tags') && !has('tags')) {
        ctx.addIssue({ code: 'custom', path: ['tags'], message: '`tags` is required for add_tags and remove_tags' });
      }
    });
}

export const leadMutateResponse = z.looseObject({
  operation: z.enum(MUTATE_OPERATIONS),
  affected: count(),
  failed: count(),
  errors: z.array(z.string()),
});

export const leadSearchHit = z.looseObject({
  id: uuid,
  email: z.string(),
  campaignId: uuid,
  campaignName: z.string(),
  firstName: absent(z.string()),
  lastName: absent(z.string()),
});

export const LEAD_SEARCH_MAX_HITS = 10;

/** GET /v1/leads/search: up to 10 hits, one row per campaign containing the email. */
export const leadSearchResponse = z
  .looseObject({ data: z.array(leadSearchHit).max(LEAD_SEARCH_MAX_HITS) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.data.forEach((h, i) => {
      const key = `${h.campaignId}\u0000${h.email.toLowerCase()}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['data', i], message: 'one row per campaign: duplicate (campaign, email) row' });
      seen.add(key);
    });
  });

// ---------------------------------------------------------------------------------------------
// 2.7 Email
// ---------------------------------------------------------------------------------------------

export const EMAIL_TYPES = ['sent', 'received'] as const;

const emailShape = {
  id: uuid,
  // opaque: pass back as is, never parse
  threadId: z.string().nullable(),
  messageId,
  mailbox: z.looseObject({ id: uuid, email: z.string() }),
  from: z.looseObject({ email: z.string(), name: absent(z.string()) }),
  to: z.array(z.string()),
  cc: z.array(z.string()),
  bcc: z.array(z.string()),
  subject: z.string(),
  snippet: z.string(),
  // null when the email is in no conversation
  isUnread: z.boolean().nullable(),
  type: z.enum(EMAIL_TYPES),
  // campaignId and leadId carry no stated type beyond the id convention; an inbox email that
  // belongs to no campaign has none, so they may be absent.
  campaignId: absent(uuid),
  leadId: absent(uuid),
  hasAttachments: z.boolean(),
  receivedAt: absent(isoTimestamp),
  sentAt: absent(isoTimestamp),
};

/** An email as listed (no body). */
export const emailSummary = z.looseObject(emailShape);

/** GET /v1/emails/{id}: the email with its body; a null part was never stored. */
export const email = z.looseObject({
  ...emailShape,
  body: z.looseObject({ html: z.string().nullable(), text: z.string().nullable() }),
});

// ---------------------------------------------------------------------------------------------
// 2.8 Lead search (Lead Finder)
// ---------------------------------------------------------------------------------------------

export const LEAD_SEARCH_STATUSES = [
  'draft', 'queued', 'discovering', 'processing', 'crawling', 'enriching', 'verifying', 'completed', 'stopped', 'failed',
] as const;
export const LEAD_SEARCH_TERMINAL_STATUSES = ['completed', 'stopped', 'failed'] as const;
export const LEAD_SEARCH_MODES = ['companies', 'people'] as const;

function isTerminalSearch(status: string): boolean {
  return (LEAD_SEARCH_TERMINAL_STATUSES as readonly string[]).includes(status);
}

function checkCompletedAt(v: { status: string; completedAt: string | null }, ctx: z.RefinementCtx) {
  if (isTerminalSearch(v.status) && v.completedAt === null) {
    ctx.addIssue({ code: 'custom', path: ['completedAt'], message: 'completedAt is set when a terminal state is reached' });
  }
  if (!isTerminalSearch(v.status) && v.completedAt !== null) {
    ctx.addIssue({ code: 'custom', path: ['completedAt'], message: 'completedAt is null while the search is not finished' });
  }
}

export const leadSearch = z
  .looseObject({
    id: uuid,
    query: z.string(),
    status: z.enum(LEAD_SEARCH_STATUSES),
    searchMode: z.enum(LEAD_SEARCH_MODES),
    maxResults: int(),
    discoveryFinished: z.boolean(),
    progress: z.looseObject({ companiesFound: count(), companiesProcessed: count(), emailsFound: count() }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    errorMessage: z.string().nullable(),
    completedAt: isoTimestamp.nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'failed' && v.errorMessage === null) {
      ctx.addIssue({ code: 'custom', path: ['errorMessage'], message: 'errorMessage is set when status is failed' });
    }
    if (v.status !== 'failed' && v.errorMessage !== null) {
      ctx.addIssue({ code: 'custom', path: ['errorMessage'], message: 'errorMessage is null unless status is failed' });
    }
    checkCompletedAt(v, ctx);
  });

export const leadSearchListItem = z
  .looseObject({
    id: uuid,
    query: z.string(),
    status: z.enum(LEAD_SEARCH_STATUSES),
    searchMode: z.enum(LEAD_SEARCH_MODES),
    maxResults: int(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  })
  .superRefine(checkCompletedAt);

// ---------------------------------------------------------------------------------------------
// 2.9 Workspace and usage
// ---------------------------------------------------------------------------------------------

export const LIMIT_TYPES = [
  'monthly_emails', 'active_contacts', 'ai_credits', 'email_validation', 'monthly_imports', 'lead_finder_credits',
] as const;

export const workspace = z.looseObject({ organizationId: uuid, name: z.string(), timezone: ianaTimezone });

/** Tolerance (percentage points) for usagePercentage = used / limit x 100 (allows rounding). */
export const USAGE_PERCENT_TOLERANCE = 0.5;

export const usage = z
  .looseObject({
    used: z.number(),
    limit: z.number().nullable(),
    remaining: z.number().nullable(),
    isUnlimited: z.boolean(),
    usagePercentage: z.number(),
    limitType: z.enum(LIMIT_TYPES),
  })
  .superRefine((u, ctx) => {
    if (u.isUnlimited) {
      if (u.limit !== null) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'limit is null when unlimited' });
      if (u.remaining !== null) ctx.addIssue({ code: 'custom', path: ['remaining'], message: 'remaining is null when unlimited' });
      if (u.usagePercentage !== 0) ctx.addIssue({ code: 'custom', path: ['usagePercentage'], message: 'usagePercentage is 0 when unlimited' });
      return;
    }
    if (u.limit === null) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'limit is a number unless unlimited' });
    if (u.remaining === null) ctx.addIssue({ code: 'custom', path: ['remaining'], message: 'remaining is a number unless unlimited' });
    if (u.limit !== null && u.limit > 0) {
      const expected = (u.used / u.limit) * 100;
      if (Math.abs(expected - u.usagePercentage) > USAGE_PERCENT_TOLERANCE) {
        ctx.addIssue({ code: 'custom', path: ['usagePercentage'], message: `usagePercentage must be used / limit x 100 (${expected})` });
      }
    }
  });

/** DELETE /v1/api-keys/{id}. */
export const successResponse = z.looseObject({ success: z.literal(true) });

// ---------------------------------------------------------------------------------------------
// 2.10 Analytics
// ---------------------------------------------------------------------------------------------

export const ANALYTICS_BREAKDOWNS = ['smtp', 'sequence', 'bounce'] as const;
export const ANALYTICS_INTERVALS = ['day', 'week', 'month'] as const;

export const period = z.looseObject({
  start: isoTimestamp,
  end: isoTimestamp,
  clamped: z.boolean(),
  retentionDays: int().min(0),
});

export const openClickCount = z.looseObject({ total: z.number(), uniqueLeads: z.number() });

export const totals = z.looseObject({
  sent: z.number(),
  failed: z.number(),
  delivered: z.number(),
  leadsContacted: z.number(),
  opens: openClickCount,
  clicks: openClickCount,
  replies: z.number(),
  bounces: z.number(),
  unsubscribed: z.number(),
  positiveLeads: z.number(),
  conversions: z.number(),
  conversionValue: z.number(),
  rates: z.looseObject({
    open: z.number(),
    click: z.number(),
    reply: z.number(),
    bounce: z.number(),
    delivery: z.number(),
    unsubscribe: z.number(),
    conversion: z.number(),
  }),
});

/**
 * Totals of one mailbox or one sequence step. The spec lists `opens` and `clicks` without a
 * shape here (in `totals` they are `{ total, uniqueLeads }`): either a number or that object.
 */
export const breakdownTotals = z.looseObject({
  sent: z.number(),
  delivered: z.number(),
  opens: z.union([z.number(), openClickCount]),
  clicks: z.union([z.number(), openClickCount]),
  replies: z.number(),
  bounces: z.number(),
  positiveLeads: z.number(),
  conversions: z.number(),
  conversionValue: z.number(),
  rates: z.looseObject({
    open: z.number(),
    click: z.number(),
    reply: z.number(),
    bounce: z.number(),
    delivery: z.number(),
    positive: z.number(),
    conversion: z.number(),
  }),
});

export const bySmtpItem = z.looseObject({ accountId: uuid, email: z.string(), totals: breakdownTotals });
export const bySequenceItem = z.looseObject({ step: int(), variant: z.string(), totals: breakdownTotals });

export const bounceBreakdown = z.looseObject({
  total: z.number(),
  hard: z.number(),
  soft: z.number(),
  senderBounces: z.number(),
  recipientBounces: z.number(),
  unknownBounces: z.number(),
  byCategory: z.array(
    z.looseObject({ category: z.string(), label: z.string(), type: z.string(), count: z.number(), percentage: z.number() }),
  ),
});

export const timeseriesPoint = z.looseObject({
  timestamp: isoTimestamp,
  sent: z.number(),
  delivered: z.number(),
  opens: openClickCount,
  clicks: openClickCount,
  replies: z.number(),
  bounces: z.number(),
  unsubscribed: z.number(),
});

/** GET /v1/campaigns/{id}/analytics. Each breakdown is present only when requested. */
export const campaignAnalytics = z.looseObject({
  campaignId: uuid,
  period,
  totals,
  bySmtp: z.array(bySmtpItem).optional(),
  bySequence: z.array(bySequenceItem).optional(),
  bounceBreakdown: bounceBreakdown.optional(),
});

/** Which breakdown keys an analytics answer must (and must not) carry for a request. */
export const BREAKDOWN_KEYS = { smtp: 'bySmtp', sequence: 'bySequence', bounce: 'bounceBreakdown' } as const;

/** campaignAnalytics plus "present only when requested" for the requested breakdowns. */
export function campaignAnalyticsFor(requested: readonly (typeof ANALYTICS_BREAKDOWNS)[number][]) {
  return campaignAnalytics.superRefine((v, ctx) => {
    for (const [b, key] of Object.entries(BREAKDOWN_KEYS) as [(typeof ANALYTICS_BREAKDOWNS)[number], string][]) {
      const present = (v as Record<string, unknown>)[key] !== undefined;
      if (requested.includes(b) && !present) ctx.addIssue({ code: 'custom', path: [key], message: `${key} was requested but is missing` });
      if (!requested.includes(b) && present) ctx.addIssue({ code: 'custom', path: [key], message: `${key} is present but was not requested` });
    }
  });
}

/** GET /v1/campaigns/{id}/analytics/timeseries. */
export const campaignTimeseries = z.looseObject({
  campaignId: uuid,
  period,
  interval: z.enum(ANALYTICS_INTERVALS),
  data: z.array(timeseriesPoint),
});

/** GET /v1/campaigns/analytics/overview. */
export const analyticsOverview = z.looseObject({
  period,
  totals,
  activeCampaigns: z.number(),
  sendingAccounts: z.number(),
  topCampaigns: z.array(z.looseObject({ campaignId: uuid, name: z.string(), sent: z.number(), openRate: z.number() })),
});

// ---------------------------------------------------------------------------------------------
// 4.1 Lists
// ---------------------------------------------------------------------------------------------

export const PAGE_SIZE = { min: 1, max: 100, example: 50 } as const;

/**
 * `{ data: [...], meta: { hasMore, nextCursor } }`. nextCursor is typed string (4.1) and leads to
 * the next page; the spec says nothing of it when there is no next page, so on a last page
 * (hasMore false) it may be a string, null or absent. When hasMore is true it must be a
 * non-empty string.
 */
export function listOf<T extends z.ZodType>(item: T) {
  return z.looseObject({
    data: z.array(item),
    meta: z
      .looseObject({ hasMore: z.boolean(), nextCursor: z.string().nullable().optional() })
      .superRefine((m, ctx) => {
        if (m.hasMore && !(typeof m.nextCursor === 'string' && m.nextCursor.length > 0)) {
          ctx.addIssue({ code: 'custom', path: ['nextCursor'], message: 'nextCursor must be a non-empty string when hasMore is true' });
        }
      }),
  });
}

// ---------------------------------------------------------------------------------------------
// Part 7 Errors
// ---------------------------------------------------------------------------------------------

export const ERROR_TYPES = [
  'invalid_request_error', 'authentication_error', 'authorization_error', 'rate_limit_error', 'api_error',
] as const;

export interface ErrorTableRow {
  status: number;
  type: (typeof ERROR_TYPES)[number];
  code: string;
  when: string;
}

export const ERROR_TABLE: readonly ErrorTableRow[] = [
  { status: 400, type: 'invalid_request_error', code: 'validation_failed', when: 'body or parameters invalid' },
  { status: 401, type: 'authentication_error', code: 'unauthenticated', when: 'key missing, invalid or revoked' },
  { status: 403, type: 'authorization_error', code: 'permission_denied', when: 'scope missing, or plan lacks API access' },
  { status: 404, type: 'invalid_request_error', code: 'not_found', when: 'resource absent from the workspace' },
  {
    status: 409,
    type: 'invalid_request_error',
    code: 'conflict',
    when: 'conflicts with current state, same Idempotency-Key still processing, or operation partially applied',
  },
  { status: 413, type: 'invalid_request_error', code: 'body_too_large', when: 'email body too large to return inline (GET email)' },
  { status: 422, type: 'invalid_request_error', code: 'idempotency_key_reused', when: 'Idempotency-Key reused with a different body' },
  { status: 429, type: 'rate_limit_error', code: 'rate_limited', when: 'rate limit exceeded; `Retry-After` header in seconds' },
  { status: 503, type: 'api_error', code: 'upstream_unavailable', when: 'a dependency is temporarily unavailable (test email, GET email)' },
];

export function errorRow(status: number): ErrorTableRow | undefined {
  return ERROR_TABLE.find((r) => r.status === status);
}

/**
 * `{ error: { type, code, message, status, requestId, details?, retryAfter? } }`. `code` is a
 * string here: business-rule refusals answer 400 with a code that is not shown (the profile
 * declares it). Use `errorEnvelopeFor(status)` to hold an answer to the table row of its status.
 */
export const errorEnvelope = z.looseObject({
  error: z.looseObject({
    type: z.enum(ERROR_TYPES),
    code: z.string().min(1),
    message: z.string(),
    status: int().min(400).max(599),
    requestId: uuid,
    details: z.array(z.string()).optional(),
    retryAfter: z.number().min(0).optional(),
  }),
});

/**
 * The envelope for an answer with this HTTP status: `status` repeats it; type and code follow
 * the table (for 400, `extra400Codes` lists the profile's business-rule code); 429 carries
 * `retryAfter`.
 */
export function errorEnvelopeFor(httpStatus: number, opts: { extra400Codes?: readonly string[] } = {}) {
  return errorEnvelope.superRefine((v, ctx) => {
    const e = v.error;
    if (e.status !== httpStatus) ctx.addIssue({ code: 'custom', path: ['error', 'status'], message: `status must repeat the HTTP status ${httpStatus}` });
    const row = errorRow(httpStatus);
    if (!row) return;
    if (e.type !== row.type) ctx.addIssue({ code: 'custom', path: ['error', 'type'], message: `type must be ${row.type} for ${httpStatus}` });
    const codes = httpStatus === 400 ? [row.code, ...(opts.extra400Codes ?? [])] : [row.code];
    if (!codes.includes(e.code)) ctx.addIssue({ code: 'custom', path: ['error', 'code'], message: `code must be one of ${codes.join(', ')} for ${httpStatus}` });
    if (httpStatus === 429 && e.retryAfter === undefined) ctx.addIssue({ code: 'custom', path: ['error', 'retryAfter'], message: 'retryAfter accompanies 429' });
  });
}

// ---------------------------------------------------------------------------------------------
// Nulls the spec states (for the SHOULD reading RES-NULL-ONLY-WHERE-STATED)
// ---------------------------------------------------------------------------------------------

/**
 * Paths (dotted; `[]` for any array element) where the spec states `null` for each resource.
 * `meta.nextCursor` and `launchError` are this kit's readings (no next page; no failure);
 * `smtp.error`/`imap.error` of the verification answer have no stated type at all.
 */
export const STATED_NULLABLE: Readonly<Record<string, readonly string[]>> = {
  Mailbox: ['statusMessage', 'imap'],
  AccountsCreateResponse: ['accounts[].statusMessage', 'accounts[].imap'],
  CampaignStatusView: ['nextScheduleOpensAt'],
  CampaignCreateResponse: ['launchError'],
  Email: ['threadId', 'isUnread', 'body.html', 'body.text'],
  EmailSummary: ['threadId', 'isUnread'],
  LeadSearch: ['errorMessage', 'completedAt'],
  LeadSearchListItem: ['completedAt'],
  Usage: ['limit', 'remaining'],
  VerificationResult: ['smtp.error', 'imap.error'],
  List: ['meta.nextCursor'],
};

/** Every path in `value` that holds null (array elements as `[]`). */
export function nullPaths(value: unknown, prefix = ''): string[] {
  if (value === null) return prefix ? [prefix] : [];
  if (typeof value !== 'object') return [];
  const out = new Set<string>();
  if (Array.isArray(value)) {
    for (const v of value) for (const p of nullPaths(v, `${prefix}[]`)) out.add(p);
  } else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      for (const p of nullPaths(v, prefix ? `${prefix}.${k}` : k)) out.add(p);
    }
  }
  return [...out];
}

/** Parts of an answer whose shape is "not shown" (4.2: each element of the batch `errors`): nothing to hold there. */
export const NOT_SHOWN_PARTS: Readonly<Record<string, readonly string[]>> = {
  AccountsCreateResponse: ['errors[]'],
};

/** Null paths of a resource that the spec does not state as nullable (SHOULD: none). */
export function unstatedNulls(resource: keyof typeof STATED_NULLABLE | string, value: unknown): string[] {
  const stated = new Set(STATED_NULLABLE[resource] ?? []);
  const unshown = NOT_SHOWN_PARTS[resource] ?? [];
  return nullPaths(value).filter((p) => !stated.has(p) && !unshown.some((u) => p === u || p.startsWith(`${u}.`)));
}

// ---------------------------------------------------------------------------------------------
// By name (the endpoint catalog names its response schema; list endpoints name the item)
// ---------------------------------------------------------------------------------------------

export const SCHEMAS = {
  Mailbox: mailbox,
  Tag: tag,
  StatusMessage: statusMessage,
  Warmup: warmup,
  WarmupInput: warmupInput,
  MailboxVerification: mailboxVerification,
  VerificationResult: verificationResult,
  AccountCreateInput: accountCreateInput,
  AccountsCreateBody: accountsCreateBody,
  AccountPatchBody: accountPatchBody,
  AccountsCreateResponse: accountsCreateResponse,
  DeletedResponse: deletedResponse,
  OAuthInitResponse: oauthInitResponse,
  Campaign: campaign,
  CampaignListItem: campaignListItem,
  CampaignStatusView: campaignStatusView,
  Schedule: schedule,
  Settings: settings,
  CampaignMetrics: campaignMetrics,
  SequenceStep: sequenceStep,
  CampaignCreateBody: campaignCreateBody,
  CampaignPatchBody: campaignPatchBody,
  CampaignCreateResponse: campaignCreateResponse,
  CampaignLifecycleResponse: campaignLifecycleResponse,
  TestEmailBody: testEmailBody,
  TestEmailResponse: testEmailResponse,
  Lead: lead,
  LeadPatchBody: leadPatchBody,
  LeadDeleteResponse: leadDeleteResponse,
  LeadMutateResponse: leadMutateResponse,
  LeadSearchHit: leadSearchHit,
  LeadSearchResponse: leadSearchResponse,
  Email: email,
  EmailSummary: emailSummary,
  LeadSearch: leadSearch,
  LeadSearchListItem: leadSearchListItem,
  Workspace: workspace,
  Usage: usage,
  SuccessResponse: successResponse,
  Period: period,
  Totals: totals,
  BreakdownTotals: breakdownTotals,
  BySmtpItem: bySmtpItem,
  BySequenceItem: bySequenceItem,
  BounceBreakdown: bounceBreakdown,
  TimeseriesPoint: timeseriesPoint,
  CampaignAnalytics: campaignAnalytics,
  CampaignTimeseries: campaignTimeseries,
  AnalyticsOverview: analyticsOverview,
  ErrorEnvelope: errorEnvelope,
} as const satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof SCHEMAS;

export function schemaByName(name: string): z.ZodType {
  const s = (SCHEMAS as Record<string, z.ZodType>)[name];
  if (!s) throw new Error(`unknown schema "${name}"; known: ${Object.keys(SCHEMAS).join(', ')}`);
  return s;
}

export type Mailbox = z.infer<typeof mailbox>;
export type AccountCreateInput = z.infer<typeof accountCreateInput>;
export type Campaign = z.infer<typeof campaign>;
export type CampaignListItem = z.infer<typeof campaignListItem>;
export type CampaignStatusView = z.infer<typeof campaignStatusView>;
export type Lead = z.infer<typeof lead>;
export type LeadSearchHit = z.infer<typeof leadSearchHit>;
export type Email = z.infer<typeof email>;
export type LeadSearch = z.infer<typeof leadSearch>;
export type Workspace = z.infer<typeof workspace>;
export type Usage = z.infer<typeof usage>;
export type ErrorEnvelope = z.infer<typeof errorEnvelope>;
