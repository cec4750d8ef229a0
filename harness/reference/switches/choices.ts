// The reference target's switchable choices: every decision the spec leaves "not shown" (or where
// it allows several answers). DEFAULT_CHOICES is the reference's own behaviour (the kit's
// fixtures/profiles/reference.json declares it); ALT_CHOICES differs in every item; randomChoices
// draws each item from its options. Every set is a faithful implementation of the spec.
// Each choice is read at ONE place of the reference (named in the comment of its field).
// profileFor() writes the profile a vendor with these choices would write (plain JSON: the
// reference never imports fixtures/).

import { ALT_SENDING, DEFAULT_SENDING, sendingDeclarations, type SendingChoices } from './sending-options.ts';
import { MAX_LEADS_ON_CREATE } from '../domain/limits.ts';

export type ReferencedOp =
  | 'apikeys.list'
  | 'apikeys.create'
  | 'accounts.list'
  | 'accounts.get'
  | 'accounts.resume'
  | 'accounts.oauthStatus'
  | 'usage.all'
  | 'subscription.get'
  | 'leads.list'
  | 'leads.create'
  | 'campaigns.pause'
  | 'emails.reply'
  | 'emails.forward'
  | 'emails.markRead'
  | 'emails.list';

export interface OperationChoice {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  list?: boolean;
  /** logical request field -> the target's top-level body field (app.ts renames on the way in). */
  fields?: Record<string, string>;
  /** logical result -> dotted path in the answer (shape.ts writes the answer from it). */
  result?: Record<string, string>;
}

/** Analytics rules the spec leaves open (4.6 "the exact clamping rule ... not shown", 2.10 rates). */
export interface AnalyticsChoice {
  /** `period.retentionDays` (analytics/window.ts). */
  retentionDays: number;
  /**
   * Where a window reaching past retention starts (analytics/window.ts): `days-before-today`: the
   * local midnight retentionDays days before today (today plus retentionDays whole days);
   * `days-including-today`: retentionDays whole days counting today. Either way `clamped` is true
   * exactly when the asked start was earlier; a window ending before that floor is refused (400).
   */
  clamping: 'days-before-today' | 'days-including-today';
  /** Whole local days of a window without a start, ending with its end day (analytics/window.ts). */
  defaultWindowDays: number;
  /** A window without a start is refused (400): 4.6 states a default for the end only (analytics/window.ts). */
  startRequired?: boolean;
  /** Base of the open, click, reply and unsubscribe rates: delivered or sent emails (analytics/rates.ts). */
  rateBase: 'delivered' | 'sent';
  /** Which bounces make a sent email not delivered (analytics/ledger.ts). */
  undelivered: 'hard-and-soft' | 'hard-only';
  /** Lead statuses counted as positive leads (analytics/ledger.ts; conversions are lead_converted). */
  positiveStatuses: string[];
  /**
   * How long a time-series window is before it is coarsened (4.6 "long windows are coarsened
   * automatically"; how long is not given), read in resources/analytics.ts (timeseries): the
   * longest window in whole days answered by day, and by week; longer ones by week, then month.
   */
  coarsening: { day: number; week: number };
}

export interface Choices {
  name: string;
  /** List query parameter names (app.ts, queryOf). The mailbox tag filter stays `tags` (spec 4.3). */
  listParams: { cursor: string; pageSize: string; status: string; tags: string };
  /** Page size when none is given (pagination.ts). */
  defaultPageSize: number;
  /** Success status of creates other than POST /v1/accounts (context.ts, created()). */
  createStatus: 200 | 201;
  /** error.code of the three 400 business-rule refusals of part 7 (app.ts, envelope). */
  businessRuleCode: string;
  /** Other state conflicts: 400 (business code) or 409 `conflict` (part 7 allows both; app.ts, envelope). */
  stateConflictStatus: 400 | 409;
  /** Query parameters a route does not know: ignored, or refused with 400 validation_failed (app.ts, queryOf). */
  unknownQueryParams: 'ignore' | 'refuse';
  /** GET /v1/leads/search query parameter (app.ts, queryOf). */
  leadsSearchParam: string;
  /** Analytics window and out-of-office parameters (app.ts, queryOf). */
  analyticsParams: { start: string; end: string; excludeOutOfOffice: string };
  /** POST .../leads/mutate request field names (app.ts, bodyOf). */
  mutateFields: { operation: string; status: string };
  /** Query parameter of the OAuth status poll (app.ts, queryOf). */
  oauthStatusStateParam: string;
  /** Referenced operations (routes: app.ts; request fields: app.ts bodyOf; results: shape.ts). */
  operations: Record<ReferencedOp, OperationChoice>;
  /** The field of an API key's name in GET list items (resources/apikeys.ts; create: operations). */
  apiKeyNameField: string;
  /** schedule.sendingDays numbering (resources/campaigns.ts, weekdays). */
  sendingDays: '0-sunday' | '1-monday' | '0-monday';
  /** GET /v1/usage/{limitType} with an unknown type: 404 not_found or 400 validation_failed (resources/workspace.ts). */
  unknownLimitType: 404 | 400;
  /** Values of optional mailbox fields omitted at create (resources/accounts.ts, create). */
  mailboxDefaults: { maxEmailsPerDay: number; sendingGapMinutes: number; campaignSlowRamp: boolean; automationLanguage: string };
  /** Warmup values when warmup is omitted (resources/accounts.ts, defaultWarmup). */
  warmupDefaults: {
    strategy: string; maxPerDay: number; replyRatePercentage: number; rampupEnabled: boolean;
    dailyRampup: number; randomizer: number; skipWeekends: boolean; trackingEnabled: boolean;
  };
  /** Inclusive bounds of numeric warmup fields (resources/accounts.ts, mergeWarmup). */
  warmupBounds: Record<'maxPerDay' | 'replyRatePercentage' | 'dailyRampup' | 'randomizer', { min: number; max: number }>;
  /** Campaign create fields that are required (resources/campaigns.ts, create). */
  campaignRequiredFields: ('name' | 'schedule' | 'settings' | 'sequence')[];
  /** Names of the fields of a batch `errors[]` element (resources/accounts.ts, create). */
  batchErrorFields: { index: string; emailAddress: string; code: string; message: string };
  /** Mailbox status after verification (resources/verify.ts). */
  verificationStatus: { succeeded: string; failed: string };
  /** Lead search rows when a fragment matches several leads of a campaign (resources/leads.ts, search). */
  leadSearchRows: 'per-campaign' | 'per-lead';
  /** Status of a lead that was never contacted (resources/leads.ts, insertLeads). */
  newLeadStatus: string;
  /** Idempotency-Key: only 2xx answers are stored and replayed, or every answer (app.ts, idempotent). */
  idempotencyStores: 'success' | 'all';
  /** API key create beyond the caller's own scopes: 403 permission_denied or 400 validation_failed (resources/apikeys.ts). */
  subsetRefusalStatus: 403 | 400;
  /**
   * A key create that asks for apikeys:manage (5: "granted only from the dashboard"; refusing is
   * not stated): refused (403), or the key made without that scope (resources/apikeys.ts).
   */
  manageScopeOnCreate: 'refuse' | 'drop';
  /**
   * Lead fields as a PATCH stores them (resources/leads.ts): as sent, or normalized the way many
   * stores do (tags sorted, a custom field typed "number" kept as a number, URLs in WHATWG form).
   */
  leadFieldStorage: 'verbatim' | 'normalized';
  /**
   * What a mailbox's smtp/imap settings say of their password (2.1 returns none; resources/accounts.ts):
   * nothing, or that one is set and when (`passwordSet: true`, `passwordUpdatedAt`), as many APIs do.
   */
  passwordFacts: 'none' | 'set-and-when';
  /** PATCH of a campaign's accounts to [] (2.5 states no bound; resources/campaigns.ts): taken (no mailbox), or refused with 400. */
  emptyAccountsPatch: 'accept' | 'refuse';
  /**
   * The mailbox list filtered by several tag ids (`tags=a,b`; 2.1 says only "filtered by tag ids",
   * the any-of rule is stated for campaigns; resources/accounts.ts, list): mailboxes with any of them, or with all.
   */
  mailboxTagMatch: 'any' | 'all';
  /**
   * A mutate delete with `filter: { tags: [] }` (resources/leads.ts, mutate): refused as an empty filter,
   * or taken as a condition no lead matches (4.4 states only that an empty filter is rejected).
   */
  emptyTagsFilter: 'refuse' | 'matches-none';
  /**
   * How the max bounds of 2.2's strings count (the spec says "max 128", "max 254 chars" and not
   * what a character is; resources/accounts.ts, rules): characters (a UTF-16 unit, so one for
   * "é"), or UTF-8 bytes (two for "é"), as many stores bound a column.
   */
  lengthUnit: 'characters' | 'bytes';
  /**
   * What GET /v1/accounts lists (its shape is not shown, 4.7; resources/accounts.ts, list): each
   * mailbox whole, or a summary of it (identity, status, tags, health, timestamps) as many list views do.
   */
  mailboxListItem: 'full' | 'summary';
  /**
   * schedule.sendingMinutesEnd (2.5 gives neither its range nor whether its minute is in the
   * window; resources/campaigns.ts): exclusive, 1..1440 (the window closes as that minute
   * begins), or inclusive, 0..1439 (the window holds that minute).
   */
  windowEnd: 'exclusive' | 'inclusive';
  /** A schedule whose endDate has already passed (2.5 is silent): taken (nothing is sent), or refused with 400 (resources/campaigns.ts). */
  pastEndDate: 'accept' | 'refuse';
  /** Status of a mailbox batch that created no element (4.2 states 201; resources/accounts.ts). */
  accountsNoneCreatedStatus: 201 | 200 | 207;
  /** Start of an active campaign, pause of a paused one: a 2xx no-op, or refused as a state conflict (resources/campaigns.ts). */
  repeatTransition: 'no-op' | 'refuse';
  /** Idempotency-Key space: the workspace's (any of its keys gets the replay) or each API key's (app.ts, idempotent). */
  idempotencyScope: 'workspace' | 'api-key';
  /** retentionDays of a soft-deleted contacted lead (resources/leads.ts). */
  leadRetentionDays: number;
  /** DELETE of a never-contacted lead: removed at once (retentionDays 0) or retained like a contacted one (resources/leads.ts). */
  uncontactedLeadDelete: 'immediate' | 'retained';
  /** How analytics count where the spec is silent (analytics/window.ts, ledger.ts, rates.ts). */
  analytics: AnalyticsChoice;
  /** Campaign schedule and settings when omitted (resources/campaigns.ts; sendingDays 0 = Sunday). */
  campaignDefaults: {
    sendingDays: number[]; sendingMinutesStart: number; sendingMinutesEnd: number; dailyLimit: number;
    settings: { trackOpens: boolean; trackClicks: boolean; sendAsTextOnly: boolean; stopOnReply: boolean };
  };
  /**
   * Where a sequence step shows its variant's id (resources/campaigns.ts, campaignView and
   * parseSequence): the step's own `id`, or `versions[0].key` (2.5 gives no variant shape).
   */
  variantShape: 'step-id' | 'versions';
  /** The sending engine's choices (sending/options.ts). */
  sending: SendingChoices;
  /**
   * How the control API serves POST /work/drain (control/control.ts; outside the spec, where a
   * vendor's control API may be plainer than the reference's): `concurrent`: each drain at once,
   * polling the mailboxes that are due, scoped to a workspace (the `scoped-drain` extension);
   * `serialized`: one drain at a time, each behind those asked before it, each pass polling every
   * mailbox, no `scoped-drain`.
   */
  drain: 'concurrent' | 'serialized';
  /**
   * A test email refused for its recipient (the blacklist) or a daily quota (4.3, part 8 say only
   * "refused"): an error answer, or a 2xx `{ sent: false }` that sends nothing (resources/test-emails.ts).
   */
  testEmailRefusal: 'error' | 'sent-false';
  /**
   * A body sent as application/x-www-form-urlencoded (4.1 tells clients to send JSON; what a server
   * does with another media type is not stated; http/app.ts, pipeline): read as JSON (so refused as
   * malformed), or parsed as form fields, as frameworks that take forms by default do.
   */
  formBodies: 'refuse' | 'parse';
}

const DEFAULT_OPERATIONS: Record<ReferencedOp, OperationChoice> = {
  'apikeys.list': { method: 'GET', path: '/v1/api-keys', list: true, result: { items: 'data' } },
  'apikeys.create': {
    method: 'POST',
    path: '/v1/api-keys',
    fields: { name: 'name', scopes: 'scopes' },
    result: { id: 'id', secret: 'key', scopes: 'scopes', name: 'name', createdAt: 'createdAt' },
  },
  'accounts.list': { method: 'GET', path: '/v1/accounts', list: true, result: { items: 'data' } },
  'accounts.get': { method: 'GET', path: '/v1/accounts/{id}' },
  'accounts.resume': { method: 'POST', path: '/v1/accounts/{id}/resume' },
  'accounts.oauthStatus': { method: 'GET', path: '/v1/accounts/oauth/{provider}/status', result: { status: 'status', accountId: 'accountId' } },
  'usage.all': { method: 'GET', path: '/v1/usage', result: { items: 'data' } },
  'subscription.get': { method: 'GET', path: '/v1/account/subscription' },
  'leads.list': { method: 'GET', path: '/v1/campaigns/{id}/leads', list: true, result: { items: 'data' } },
  'leads.create': {
    method: 'POST',
    path: '/v1/campaigns/{id}/leads',
    fields: { leads: 'leads' },
    result: { submitted: 'submitted', created: 'created', duplicates: 'duplicates', invalid: 'invalid', items: 'leads' },
  },
  'campaigns.pause': { method: 'POST', path: '/v1/campaigns/{id}/pause' },
  'emails.reply': { method: 'POST', path: '/v1/emails/{id}/reply' },
  'emails.forward': { method: 'POST', path: '/v1/emails/{id}/forward' },
  'emails.markRead': { method: 'POST', path: '/v1/emails/{id}/read' },
  'emails.list': { method: 'GET', path: '/v1/emails', list: true, result: { items: 'data' } },
};

export const DEFAULT_CHOICES: Choices = {
  name: 'default',
  listParams: { cursor: 'cursor', pageSize: 'limit', status: 'status', tags: 'tags' },
  defaultPageSize: 50,
  createStatus: 201,
  businessRuleCode: 'failed_precondition',
  stateConflictStatus: 400,
  unknownQueryParams: 'ignore',
  leadsSearchParam: 'email',
  analyticsParams: { start: 'startDate', end: 'endDate', excludeOutOfOffice: 'excludeOutOfOffice' },
  mutateFields: { operation: 'operation', status: 'status' },
  oauthStatusStateParam: 'state',
  operations: DEFAULT_OPERATIONS,
  apiKeyNameField: 'name',
  sendingDays: '0-sunday',
  unknownLimitType: 404,
  mailboxDefaults: { maxEmailsPerDay: 50, sendingGapMinutes: 10, campaignSlowRamp: false, automationLanguage: 'en' },
  warmupDefaults: {
    strategy: 'standard', maxPerDay: 20, replyRatePercentage: 30, rampupEnabled: true,
    dailyRampup: 2, randomizer: 20, skipWeekends: false, trackingEnabled: false,
  },
  warmupBounds: {
    maxPerDay: { min: 1, max: 200 },
    replyRatePercentage: { min: 0, max: 100 },
    dailyRampup: { min: 1, max: 100 },
    randomizer: { min: 0, max: 100 },
  },
  campaignRequiredFields: ['name'],
  batchErrorFields: { index: 'index', emailAddress: 'emailAddress', code: 'code', message: 'message' },
  verificationStatus: { succeeded: 'active', failed: 'failed' },
  leadSearchRows: 'per-campaign',
  newLeadStatus: 'not_contacted',
  idempotencyStores: 'success',
  subsetRefusalStatus: 403,
  manageScopeOnCreate: 'refuse',
  leadFieldStorage: 'verbatim',
  passwordFacts: 'none',
  emptyAccountsPatch: 'accept',
  mailboxTagMatch: 'any',
  emptyTagsFilter: 'refuse',
  lengthUnit: 'characters',
  mailboxListItem: 'full',
  windowEnd: 'exclusive',
  pastEndDate: 'accept',
  accountsNoneCreatedStatus: 201,
  repeatTransition: 'no-op',
  idempotencyScope: 'workspace',
  leadRetentionDays: 30,
  uncontactedLeadDelete: 'immediate',
  analytics: {
    retentionDays: 365, clamping: 'days-before-today', defaultWindowDays: 30, rateBase: 'delivered', undelivered: 'hard-and-soft',
    positiveStatuses: ['lead_replied_interested', 'lead_replied_meeting_request', 'lead_converted'],
    coarsening: { day: 92, week: 728 },
  },
  campaignDefaults: {
    sendingDays: [1, 2, 3, 4, 5], sendingMinutesStart: 540, sendingMinutesEnd: 1020, dailyLimit: 100,
    settings: { trackOpens: true, trackClicks: true, sendAsTextOnly: false, stopOnReply: true },
  },
  variantShape: 'step-id',
  sending: DEFAULT_SENDING,
  drain: 'concurrent',
  testEmailRefusal: 'error',
  formBodies: 'refuse',
};

// Paths the spec names (GET /v1/accounts, /v1/accounts/{id}, resume, /v1/usage,
// /v1/account/subscription, the OAuth status poll) stay; the others move.
const ALT_OPERATIONS: Record<ReferencedOp, OperationChoice> = {
  ...DEFAULT_OPERATIONS,
  'apikeys.list': { method: 'GET', path: '/v1/keys', list: true, result: { items: 'data' } },
  'apikeys.create': {
    method: 'POST',
    path: '/v1/keys',
    fields: { name: 'label', scopes: 'permissions' },
    result: { id: 'apiKey.id', secret: 'apiKey.secret', scopes: 'apiKey.scopes', name: 'apiKey.label', createdAt: 'apiKey.createdAt' },
  },
  'usage.all': { method: 'GET', path: '/v1/usage', result: { items: 'usage' } },
  'leads.list': { method: 'GET', path: '/v1/campaigns/{id}/contacts', list: true, result: { items: 'data' } },
  'leads.create': {
    method: 'POST',
    path: '/v1/campaigns/{id}/contacts',
    fields: { leads: 'contacts' },
    result: { submitted: 'summary.submitted', created: 'summary.created', duplicates: 'summary.duplicates', invalid: 'summary.invalid', items: 'contacts' },
  },
  // The poll names the connected mailbox by its address, not its id (4.2 gives no shape): no accountId declared.
  'accounts.oauthStatus': { method: 'GET', path: '/v1/accounts/oauth/{provider}/status', result: { status: 'flow.state' } },
  'accounts.get': { method: 'GET', path: '/v1/accounts/{id}', result: { item: 'account' } },
  'accounts.resume': { method: 'POST', path: '/v1/accounts/{id}/resume', result: { item: 'account' } },
  'campaigns.pause': { method: 'POST', path: '/v1/campaigns/{id}/hold', result: { id: 'campaign.id', status: 'campaign.status', success: 'success' } },
  'subscription.get': { method: 'GET', path: '/v1/account/subscription', result: { plan: 'subscription.plan', apiAccess: 'subscription.apiAccess', limits: 'subscription.limits' } },
  'emails.reply': { method: 'POST', path: '/v1/emails/{id}/replies', fields: { body: 'text', accountId: 'fromAccountId' } },
  'emails.forward': { method: 'POST', path: '/v1/emails/{id}/forwards', fields: { to: 'recipient', body: 'note' } },
  'emails.markRead': { method: 'PATCH', path: '/v1/emails/{id}/read-state', fields: { isUnread: 'unread' } },
  'emails.list': { method: 'GET', path: '/v1/inbox', list: true, fields: { campaignId: 'campaign', leadId: 'lead' }, result: { items: 'data' } },
};

export const ALT_CHOICES: Choices = {
  name: 'alt',
  listParams: { cursor: 'page_token', pageSize: 'per_page', status: 'state', tags: 'tag_ids' },
  defaultPageSize: 20,
  createStatus: 200,
  businessRuleCode: 'business_rule_violation',
  stateConflictStatus: 409,
  unknownQueryParams: 'refuse',
  leadsSearchParam: 'q',
  analyticsParams: { start: 'from', end: 'to', excludeOutOfOffice: 'exclude_ooo' },
  mutateFields: { operation: 'action', status: 'newStatus' },
  oauthStatusStateParam: 'handle',
  operations: ALT_OPERATIONS,
  apiKeyNameField: 'label',
  sendingDays: '1-monday',
  unknownLimitType: 400,
  mailboxDefaults: { maxEmailsPerDay: 30, sendingGapMinutes: 15, campaignSlowRamp: true, automationLanguage: 'de' },
  warmupDefaults: {
    strategy: 'gradual', maxPerDay: 10, replyRatePercentage: 40, rampupEnabled: false,
    dailyRampup: 5, randomizer: 0, skipWeekends: true, trackingEnabled: true,
  },
  warmupBounds: {
    maxPerDay: { min: 5, max: 80 },
    replyRatePercentage: { min: 10, max: 90 },
    dailyRampup: { min: 2, max: 20 },
    randomizer: { min: 0, max: 50 },
  },
  campaignRequiredFields: ['name', 'settings'],
  batchErrorFields: { index: 'position', emailAddress: 'email', code: 'reason', message: 'detail' },
  verificationStatus: { succeeded: 'active', failed: 'inactive' },
  leadSearchRows: 'per-lead',
  newLeadStatus: 'new',
  idempotencyStores: 'all',
  subsetRefusalStatus: 400,
  manageScopeOnCreate: 'drop',
  leadFieldStorage: 'normalized',
  passwordFacts: 'set-and-when',
  emptyAccountsPatch: 'refuse',
  mailboxTagMatch: 'all',
  emptyTagsFilter: 'matches-none',
  lengthUnit: 'bytes',
  mailboxListItem: 'summary',
  windowEnd: 'inclusive',
  pastEndDate: 'refuse',
  accountsNoneCreatedStatus: 200,
  repeatTransition: 'refuse',
  idempotencyScope: 'api-key',
  leadRetentionDays: 14,
  uncontactedLeadDelete: 'retained',
  analytics: {
    retentionDays: 90, clamping: 'days-including-today', defaultWindowDays: 7, rateBase: 'sent', undelivered: 'hard-only',
    positiveStatuses: ['lead_replied_interested', 'lead_converted'],
    coarsening: { day: 31, week: 63 },
  },
  campaignDefaults: {
    sendingDays: [0, 1, 2, 3, 4, 5, 6], sendingMinutesStart: 480, sendingMinutesEnd: 1080, dailyLimit: 50,
    settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: true, stopOnReply: false },
  },
  variantShape: 'versions',
  sending: ALT_SENDING,
  drain: 'serialized',
  testEmailRefusal: 'sent-false',
  formBodies: 'parse',
};

/** Options of each item beyond DEFAULT and ALT (random sets draw from DEFAULT, ALT and these). */
const EXTRA_OPTIONS: { [K in keyof Choices]?: Choices[K][] } = {
  defaultPageSize: [10, 25, 100],
  businessRuleCode: ['precondition_failed', 'invalid_state'],
  listParams: [{ cursor: 'after', pageSize: 'pageSize', status: 'filter_status', tags: 'tagIds' }],
  leadsSearchParam: ['query', 'search'],
  analyticsParams: [{ start: 'since', end: 'until', excludeOutOfOffice: 'noOoo' }],
  mutateFields: [{ operation: 'op', status: 'leadStatus' }],
  oauthStatusStateParam: ['oauthState'],
  sendingDays: ['0-monday'],
  // 2.5 leaves the required create fields open: a target may require the schedule, or a sequence of at least one step.
  campaignRequiredFields: [['name', 'schedule'], ['name', 'sequence']],
  newLeadStatus: ['pending'],
  accountsNoneCreatedStatus: [207],
  analytics: [
    {
      retentionDays: 730, clamping: 'days-before-today', defaultWindowDays: 14, rateBase: 'delivered', undelivered: 'hard-only',
      positiveStatuses: ['lead_replied_interested', 'lead_replied_meeting_request'],
      coarsening: { day: 60, week: 400 },
    },
    // 4.6 states a default for the window's end only: a target may refuse a window without a start.
    { ...structuredClone(DEFAULT_CHOICES.analytics), startRequired: true },
  ],
};

/** Mulberry32: small, deterministic per seed. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function randomChoices(seed: number): Choices {
  const next = rng(seed);
  const out: Record<string, unknown> = { name: `random:${seed}` };
  for (const k of Object.keys(DEFAULT_CHOICES) as (keyof Choices)[]) {
    if (k === 'name') continue;
    if (k === 'operations') {
      // per operation: the default's or the alt's
      const ops: Record<string, OperationChoice> = {};
      for (const id of Object.keys(DEFAULT_OPERATIONS) as ReferencedOp[]) ops[id] = next() < 0.5 ? DEFAULT_OPERATIONS[id] : ALT_OPERATIONS[id];
      out.operations = ops;
      continue;
    }
    const options = [DEFAULT_CHOICES[k], ALT_CHOICES[k], ...((EXTRA_OPTIONS[k] as unknown[] | undefined) ?? [])];
    out[k] = structuredClone(options[Math.floor(next() * options.length)]);
  }
  return out as unknown as Choices;
}

/**
 * The reference's own choices with a plain control API (drains one at a time, each polling every
 * mailbox, no scoped-drain), and nothing else changed: what a slow control API costs, measured
 * beside the default set (npm run bench:staging).
 */
export const SERIALIZED_DRAIN_CHOICES: Choices = { ...DEFAULT_CHOICES, name: 'serialized-drain', drain: 'serialized' };

/** 'default' | 'alt' | 'serialized-drain' | 'random:SEED' (SEED a non-negative integer). */
export function parseChoices(spec: string): Choices {
  const s = spec.trim();
  if (s === 'default') return DEFAULT_CHOICES;
  if (s === 'alt') return ALT_CHOICES;
  if (s === 'serialized-drain') return SERIALIZED_DRAIN_CHOICES;
  const m = /^random:(\d{1,10})$/.exec(s);
  if (m) return randomChoices(Number(m[1]));
  throw new Error(`unknown choice set ${JSON.stringify(spec)}: give default, alt, serialized-drain or random:SEED (SEED a whole number)`);
}

/** Accepted warmup strategies: the value seen in the spec and the chosen default. */
export const warmupStrategies = (c: Choices): string[] => [...new Set(['standard', c.warmupDefaults.strategy])];

/**
 * The campaign transitions the reference makes (resources/campaigns.ts start, pause, resume;
 * sending/engine.ts completes a campaign whose leads all got their sequence). The same under
 * every choice set: a repeated start or pause is a no-op or refused, never a move.
 */
const CAMPAIGN_TRANSITIONS = {
  draft: ['active'],
  scheduled: ['active', 'paused'],
  active: ['paused', 'completed'],
  paused: ['active'],
  stopped: ['active'],
};

/**
 * The platform-managed lead moves (sending/engine.ts after a send, sending/inbox.ts after a reply):
 * a new lead to the status after a send or a reply, a contacted one to the status after a reply.
 */
function leadTransitions(c: Choices): Record<string, string[]> {
  const { leadStatusAfterSend: sent, leadStatusAfterReply: replied } = c.sending;
  return { [c.newLeadStatus]: [sent, replied], [sent]: [replied] };
}

function declarationsOf(c: Choices): Record<string, unknown> {
  const f = c.batchErrorFields;
  return {
    mailboxDefaults: { ...c.mailboxDefaults },
    // warmup is ON when omitted: the spec states it (2.2)
    warmupDefaults: { enabled: true, ...c.warmupDefaults },
    warmupValues: { strategy: warmupStrategies(c), phase: ['warming_up', 'disabled'], poolAccess: ['free'] },
    warmupBounds: structuredClone(c.warmupBounds),
    campaignRequiredFields: [...c.campaignRequiredFields],
    batchErrorFields: [f.index, f.emailAddress, f.code, f.message],
    lengthUnit: c.lengthUnit,
    verificationStatus: { ...c.verificationStatus },
    leadSearchRows: c.leadSearchRows,
    newLeadStatus: c.newLeadStatus,
    leadSearchAfterDiscovery: [...LEAD_SEARCH_AFTER_DISCOVERY],
    successStatus: { '*': 200, 'campaigns.create': c.createStatus, 'apikeys.create': c.createStatus, 'leads.create': c.createStatus },
    campaignCreateMaxLeads: MAX_LEADS_ON_CREATE,
    variantIdPath: c.variantShape === 'step-id' ? 'sequence.{step}.id' : 'sequence.{step}.versions.0.key',
    ...sendingDeclarations(c.sending),
    analytics: analyticsDeclaration(c.analytics),
    transitions: { campaign: structuredClone(CAMPAIGN_TRANSITIONS), lead: leadTransitions(c) },
  };
}

/** The lead-search phases that come after discovery (2.8 order): discoveryFinished is true there (control/control.ts, declared as leadSearchAfterDiscovery). */
export const LEAD_SEARCH_AFTER_DISCOVERY = ['processing', 'crawling', 'enriching', 'verifying'] as const;

/** What the kit must know of the analytics choices (names.analytics carries the query names). */
export function analyticsDeclaration(a: AnalyticsChoice): Record<string, unknown> {
  return {
    retentionDays: a.retentionDays,
    clamping: a.clamping,
    defaultWindowDays: a.defaultWindowDays,
    rateBase: a.rateBase,
    undelivered: a.undelivered,
    positiveStatuses: [...a.positiveStatuses],
    coarsening: { ...a.coarsening },
    // resources/analytics.ts ranks the overview's topCampaigns by sent (then open rate).
    topCampaignsBy: 'sent',
  };
}

/** The logical result names a profile documents per operation (harness/ground/profile-schema.ts). */
const PROFILE_RESULTS: Partial<Record<ReferencedOp, string[]>> = {
  'apikeys.create': ['id', 'secret', 'scopes'],
  'leads.create': ['created', 'items'],
  'campaigns.pause': ['status'],
  'accounts.oauthStatus': ['status', 'accountId'],
  'accounts.get': ['item'],
  'accounts.resume': ['item'],
  'subscription.get': ['plan', 'limits'],
};

function profileOperation(id: ReferencedOp, op: OperationChoice): Record<string, unknown> {
  const out: Record<string, unknown> = { method: op.method, path: op.path };
  if (op.list) out.list = true;
  if (op.fields) out.fields = { ...op.fields };
  if (op.result) {
    const keep = PROFILE_RESULTS[id];
    out.result = Object.fromEntries(Object.entries(op.result).filter(([k]) => !keep || keep.includes(k)));
  }
  return out;
}

/** The profile a vendor with these choices would write (matches harness/ground/profile-schema.ts). */
export function profileFor(c: Choices, target: { baseUrl: string; control?: { baseUrl: string; token: string } }): Record<string, unknown> {
  const profile: Record<string, unknown> = {
    name: `outreach-conformance reference target (choices: ${c.name})`,
    embedded: false,
    baseUrl: target.baseUrl,
    rateLimit: { requests: 120, windowSeconds: 60 },
    names: {
      list: { ...c.listParams },
      leadsSearchParam: c.leadsSearchParam,
      analytics: { ...c.analyticsParams },
      mutate: { ...c.mutateFields },
      businessRuleErrorCode: c.businessRuleCode,
      sendingDays: c.sendingDays,
      oauthStatusStateParam: c.oauthStatusStateParam,
    },
    operations: Object.fromEntries((Object.keys(c.operations) as ReferencedOp[]).map((id) => [id, profileOperation(id, c.operations[id])])),
    declarations: declarationsOf(c),
    features: { sinks: true, imap: true, oauth: true, testEmail: true },
    sinks: { host: '127.0.0.1' },
  };
  if (target.control) {
    profile.control = { baseUrl: target.control.baseUrl, token: target.control.token };
    profile.poolSize = 40;
  }
  return profile;
}
