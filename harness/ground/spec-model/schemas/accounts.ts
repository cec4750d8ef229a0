import { z } from 'zod';
import { absent, uuid, isoTimestamp, ianaTimezone, hexColor, count } from './primitives.ts';

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

/** Keys that name a password: one holding text is a password returned ("passwords are never returned"). */
export const PASSWORD_KEY_RE = /password/i;

/**
 * A value that may be a password: text other than a mask. A flag or a date under such a key
 * (`passwordSet: true`, `passwordUpdatedAt`) says something about the
 * password without returning it; a mask of asterisks or bullets returns nothing of it either.
 */
const mayBePassword = (k: string, v: unknown) => typeof v === 'string' && v !== '' && !/^[*•●]+$/.test(v) && !/(At|Date|Time)$/.test(k);

function findPasswordKeys(value: unknown, path: string[] = []): string[] {
  if (value === null || typeof value !== 'object') return [];
  const found: string[] = [];
  for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
    if (PASSWORD_KEY_RE.test(k) && mayBePassword(k, v)) found.push([...path, k].join('.'));
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

export type Mailbox = z.infer<typeof mailbox>;
export type AccountCreateInput = z.infer<typeof accountCreateInput>;
