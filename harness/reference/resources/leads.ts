// Campaign leads (spec 2.6, 3.3, 4.4; referenced list/create). Storage: leads(... doc JSON with
// the profile fields, tags, customFields, verification, metrics, provider, sequenceProgress).
// Reference choices: search query param `email`; mutate field names `operation`, `status`;
// DELETE of a contacted lead soft-deletes it (kept 30 days on the clock, then purged; gone from
// every read at once) and answers { success: true, retentionDays: 30 }; a lead never contacted
// is removed at once ({ success: true, retentionDays: 0 }). A lead is "contacted" once an email
// went to it (last_contacted_at; the send path, or control POST /leads/{id}/events).
// Platform-managed statuses (not_contacted, email_sent, replied, ...) are refused with 400
// validation_failed; the replied-only statuses with 400 failed_precondition before a reply.
// duplicates: same email (case-insensitive) already in the campaign.
import { ok, created, type Handler, type Ctx } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { stateConflict, validationFailed, conflict, notFound } from '../request/errors.ts';
import { V, bodyObject, isEmail, isPlainObject, isUuid } from '../request/validate.ts';
import { loadOwned } from '../request/owned-rows.ts';
import { shapeResult } from '../request/shape.ts';

/** The statuses mutate set_status takes: the mutant leaves blacklisted out (kept for a blacklist feature). */
const bulkStatuses = (ctx: Ctx): readonly string[] => (ctx.mutant('lead-mutate-blacklisted-refused') ? USER_SETTABLE_STATUSES.filter((x) => x !== 'blacklisted') : USER_SETTABLE_STATUSES);

export const USER_SETTABLE_STATUSES = [
  'lead_replied_interested', 'lead_replied_meeting_request', 'lead_replied_out_of_office', 'lead_replied_wrong_person',
  'lead_replied_not_interested', 'lead_replied_unsubscribed', 'lead_replied_uncategorized', 'lead_converted', 'lead_lost', 'blacklisted',
] as const;
/** The platform-managed statuses this target sets or the spec names (plus the chosen status of a new lead). */
const PLATFORM_STATUSES: readonly string[] = ['not_contacted', 'scheduled', 'email_sent', 'replied'];
export const RETENTION_DAYS = 30;
export const MAX_LEADS_PER_CREATE = 10_000;
export const MAX_MUTATE_IDS = 1000;
const PROFILE_FIELDS = ['firstName', 'lastName', 'companyName', 'jobTitle', 'website', 'linkedinProfile', 'location'] as const;

export interface LeadRow {
  id: string; org_id: string; campaign_id: string; email: string; email_lc: string; status: string; doc: string;
  created_at: number; updated_at: number; last_contacted_at: number | null; last_replied_at: number | null; deleted_at: number | null;
}
export interface LeadInput { email: string; [k: string]: unknown }

const withoutNulls = (o: Record<string, unknown>) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== null));

export function leadView(r: LeadRow) {
  const d = JSON.parse(r.doc) as Record<string, unknown>;
  return {
    id: r.id, email: r.email,
    firstName: d.firstName ?? '', lastName: d.lastName ?? '', companyName: d.companyName ?? '', jobTitle: d.jobTitle ?? '',
    website: d.website ?? '', linkedinProfile: d.linkedinProfile ?? '', location: d.location ?? '',
    tags: d.tags ?? [], customFields: d.customFields ?? {},
    status: r.status, verification: d.verification, metrics: d.metrics, provider: d.provider,
    sequenceProgress: withoutNulls(d.sequenceProgress as Record<string, unknown>),
    createdAt: isoOf(r.created_at),
    // No value yet: omitted (2 "null is used ... where stated"; these are not stated nullable).
    ...(r.last_contacted_at !== null ? { lastContactedAt: isoOf(r.last_contacted_at) } : {}),
    ...(r.last_replied_at !== null ? { lastRepliedAt: isoOf(r.last_replied_at) } : {}),
  };
}

/** The lead's mailbox provider from its address's domain (no MX lookups: consumer domains only). */
function mailProviderOf(email: string): string {
  const domain = email.split('@').pop()!.toLowerCase();
  if (['gmail.com', 'googlemail.com'].includes(domain)) return 'google';
  if (['outlook.com', 'hotmail.com', 'live.com', 'msn.com'].includes(domain) || /^(outlook|hotmail|live)\.[a-z.]+$/.test(domain)) return 'microsoft';
  if (/^(yahoo|ymail)\.[a-z.]+$/.test(domain)) return 'yahoo';
  return 'other';
}

/** The custom field objects given as arrays, turned into index-keyed objects (the mutant's reading). */
function arraysAsObjects(b: Record<string, unknown>): Record<string, unknown> {
  const out = { ...b };
  for (const f of ['customFields', 'customFieldLabels', 'customFieldTypes']) if (Array.isArray(out[f])) out[f] = { ...(out[f] as unknown[]) };
  return out;
}

/** Validates the optional profile fields of one lead; returns the issues (empty when fine). */
function leadFieldIssues(o: Record<string, unknown>, prefix: string): string[] {
  const v = new V(prefix);
  for (const f of PROFILE_FIELDS) v.str(o, f, { max: 1000 });
  if (o.tags !== undefined && (!Array.isArray(o.tags) || o.tags.some((t) => typeof t !== 'string'))) v.issue('tags', 'must be an array of strings');
  for (const f of ['customFields', 'customFieldLabels', 'customFieldTypes']) if (o[f] !== undefined && !isPlainObject(o[f])) v.issue(f, 'must be an object');
  return v.issues;
}

/**
 * Inserts leads into a campaign: invalid ones (bad email or fields) and duplicates (already in
 * the campaign, or repeated in this batch) are counted and skipped.
 */
export function insertLeads(ctx: Ctx, campaignId: string, inputs: LeadInput[]): { created: LeadRow[]; duplicates: number; invalid: number } {
  const seen = new Set(
    (ctx.db.prepare('SELECT email_lc FROM leads WHERE campaign_id = ? AND deleted_at IS NULL').all(campaignId) as { email_lc: string }[]).map((r) => r.email_lc),
  );
  const totalSteps = (JSON.parse((ctx.db.prepare('SELECT doc FROM campaigns WHERE id = ?').get(campaignId) as { doc: string }).doc).sequence as unknown[]).length;
  const ins = ctx.db.prepare(
    'INSERT INTO leads (id, org_id, campaign_id, email, email_lc, status, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const newStatus = ctx.mutant('lead-new-status-other') ? 'new_lead' : ctx.services.choices.newLeadStatus;
  const out: LeadRow[] = [];
  let duplicates = 0;
  let invalid = 0;
  for (const l of inputs) {
    const email = typeof l.email === 'string' ? l.email.trim() : '';
    if (!isEmail(email) || leadFieldIssues(l, 'lead').length > 0) {
      invalid++;
      continue;
    }
    const lc = email.toLowerCase();
    if (seen.has(lc)) {
      duplicates++;
      continue;
    }
    seen.add(lc);
    const now = ctx.clock.stamp();
    const doc: Record<string, unknown> = {
      tags: l.tags ?? [], customFields: l.customFields ?? {},
      verification: { status: 'unverified', subStatus: 'not_checked' },
      metrics: { sent: 0, opened: 0, clicked: 0, replied: 0 },
      provider: mailProviderOf(email),
      // Nothing planned yet: null, which the lead view omits (the mutant writes an empty string).
      sequenceProgress: { totalSteps, sentCount: 0, plannedCount: totalSteps, failedCount: 0, nextPlannedAt: ctx.mutant('lead-nextplannedat-empty') ? '' : null },
    };
    for (const f of PROFILE_FIELDS) if (typeof l[f] === 'string') doc[f] = l[f];
    const id = ctx.newId();
    ins.run(id, ctx.workspace.id, campaignId, email, lc, newStatus, JSON.stringify(doc), now, now);
    out.push({ id, org_id: ctx.workspace.id, campaign_id: campaignId, email, email_lc: lc, status: newStatus, doc: JSON.stringify(doc), created_at: now, updated_at: now, last_contacted_at: null, last_replied_at: null, deleted_at: null });
  }
  return { created: out, duplicates, invalid };
}

const campaignOf = (ctx: Ctx, id: string) => loadOwned<{ id: string; name: string }>(ctx, 'campaigns', id, 'campaign');
// The mutant checks the campaign in the path as the caller's, then finds the lead by its id alone (any campaign, any workspace).
const loadLead = (ctx: Ctx, cid: string, leadId: string) =>
  ctx.mutant('tenant-lead-by-id-alone') ? leadById(ctx, cid, leadId) : loadOwned<LeadRow>(ctx, 'leads', leadId, 'lead', 'AND campaign_id = ? AND deleted_at IS NULL', [cid]);

function leadById(ctx: Ctx, cid: string, leadId: string): LeadRow {
  campaignOf(ctx, cid);
  const row = ctx.db.prepare('SELECT * FROM leads WHERE id = ? AND deleted_at IS NULL').get(leadId) as LeadRow | undefined;
  if (!row) throw notFound(`No lead with id ${leadId} in this campaign.`);
  return row;
}

export const list: Handler = async (ctx) => {
  const c = campaignOf(ctx, ctx.params.id!);
  return ok(ctx.page<LeadRow>({ list: `leads:${c.id}`, from: 'leads', where: 'campaign_id = ? AND deleted_at IS NULL', params: [c.id], map: leadView }));
};

export const create: Handler = async (ctx) => {
  const c = campaignOf(ctx, ctx.params.id!);
  const b = bodyObject(ctx.body);
  if (!Array.isArray(b.leads) || b.leads.length === 0) throw validationFailed(['leads: must be a non-empty array of leads']);
  if (b.leads.length > MAX_LEADS_PER_CREATE) throw validationFailed([`leads: at most ${MAX_LEADS_PER_CREATE} per call`]);
  const inputs = b.leads.map((l) => (isPlainObject(l) ? (l as LeadInput) : typeof l === 'string' ? { email: l } : { email: '' }));
  const res = ctx.db.transaction(() => insertLeads(ctx, c.id, inputs))();
  return created(shapeResult(ctx.services.choices, 'leads.create', { submitted: inputs.length, created: res.created.length, duplicates: res.duplicates, invalid: res.invalid, items: res.created.map(leadView) }));
};

/** Applies a status change by the rules of 3.3; returns an error message or null. */
function statusRefusal(ctx: Ctx, r: LeadRow, status: string): string | null {
  if (status.startsWith('lead_replied_') || status === 'lead_converted') {
    // The second mutant ties the condition to "contacted" instead of "replied"; the third also
    // opens the replied statuses to a lead the user set lead_lost.
    const replied = (ctx.mutant('lead-replied-status-after-contact') ? r.last_contacted_at !== null : r.last_replied_at !== null) || (r.status === 'lead_lost' && ctx.mutant('lead-replied-status-after-lost'));
    if (!replied && !ctx.mutant('lead-replied-status-before-reply')) return `The lead has not replied yet; ${status} cannot be set.`;
  }
  if ((status === 'lead_lost' || status === 'blacklisted') && r.last_replied_at === null && ctx.mutant('lead-lost-needs-reply'))
    return `The lead has not replied yet; ${status} cannot be set.`;
  // The mutants make a lead terminal: after a reply only the replied statuses, a blacklisted lead frozen.
  if (status === 'lead_lost' && r.last_replied_at !== null && ctx.mutant('lead-lost-refused-after-reply')) return `The lead has replied; ${status} cannot be set.`;
  if (status === 'blacklisted' && r.last_replied_at !== null && ctx.mutant('lead-blacklisted-refused-after-reply')) return `The lead has replied; ${status} cannot be set.`;
  if (r.status === 'blacklisted' && status !== 'blacklisted' && ctx.mutant('lead-blacklisted-frozen')) return `The lead is blacklisted; ${status} cannot be set.`;
  return null;
}

export const patch: Handler = async (ctx) => {
  const r = loadLead(ctx, ctx.params.cid!, ctx.params.leadId!);
  const given = bodyObject(ctx.body);
  // The mutant takes arrays where objects are required (typeof x === 'object'), as index-keyed objects.
  const b = ctx.mutant('lead-patch-custom-array-taken') ? arraysAsObjects(given) : given;
  const issues = leadFieldIssues(b, '').map((s) => s.replace(/^\./, ''));
  const v = new V();
  const email = v.str(b, 'email');
  if (email !== undefined && !isEmail(email.trim())) v.issue('email', 'must be an email address');
  const status = b.status === undefined ? undefined : ctx.mutant('lead-platform-status-accepted') ? v.str(b, 'status') : v.oneOf(b, 'status', USER_SETTABLE_STATUSES);
  v.issues.push(...issues);
  if (ctx.mutant('lead-patch-labels-refused')) for (const f of ['customFieldLabels', 'customFieldTypes']) if (b[f] !== undefined) v.issue(f, 'is not a lead field');
  v.done();
  if (status !== undefined) {
    // The mutant's PATCH takes the lead_replied_* statuses after a reply but not lead_converted (set by conversion tracking only).
    const why = status === 'lead_converted' && ctx.mutant('lead-patch-converted-refused') ? 'lead_converted is set by conversion tracking.' : statusRefusal(ctx, r, status);
    if (why) throw stateConflict(why);
  }
  let newEmail = r.email;
  if (email !== undefined && email.trim().toLowerCase() !== r.email_lc) {
    // The mutants let a contacted lead's email change, or refuse every change (an email fixed at creation).
    if ((r.last_contacted_at !== null || ctx.mutant('lead-email-never-changes')) && !ctx.mutant('lead-email-change-after-contact')) throw stateConflict('The email of a lead cannot be changed.');
    const dup = ctx.db.prepare('SELECT 1 FROM leads WHERE campaign_id = ? AND email_lc = ? AND deleted_at IS NULL AND id <> ?').get(r.campaign_id, email.trim().toLowerCase(), r.id);
    if (dup) throw conflict('Another lead of the campaign has this email.');
    // The third mutant answers 200 but keeps the address (the lead keyed by it): the email given is ignored.
    if (!ctx.mutant('lead-patch-email-ignored')) newEmail = email.trim();
  }
  const doc = JSON.parse(r.doc) as Record<string, unknown>;
  // The mutant replaces the lead: what the body does not name is cleared.
  if (ctx.mutant('lead-patch-replaces')) {
    for (const f of PROFILE_FIELDS) if (!(f in b)) delete doc[f];
    if (!('tags' in b)) doc.tags = [];
  }
  for (const f of PROFILE_FIELDS) if (typeof b[f] === 'string' && !(f === 'location' && ctx.mutant('lead-patch-location-dropped'))) doc[f] = b[f];
  if (Array.isArray(b.tags)) doc.tags = b.tags;
  for (const f of ['customFields', 'customFieldLabels', 'customFieldTypes']) {
    if (isPlainObject(b[f])) doc[f] = { ...((doc[f] as object) ?? {}), ...(b[f] as object) };
  }
  if (ctx.services.choices.leadFieldStorage === 'normalized') normalize(doc);
  // The mutant leaves the email (the dedupe key) out of the UPDATE; the answer still shows the one asked for.
  const kept = ctx.mutant('lead-email-change-answer-only') ? r.email : newEmail;
  ctx.db.prepare('UPDATE leads SET email = ?, email_lc = ?, status = ?, doc = ?, updated_at = ? WHERE id = ?')
    .run(kept, kept.toLowerCase(), status ?? r.status, JSON.stringify(doc), ctx.clock.now(), r.id);
  // The mutant answers a PATCH carrying a status by its own state-machine path: { id, status } alone.
  if (status !== undefined && ctx.mutant('lead-patch-status-bare')) return ok({ id: r.id, status });
  return ok(leadView({ ...(ctx.db.prepare('SELECT * FROM leads WHERE id = ?').get(r.id) as LeadRow), email: newEmail }));
};

/**
 * Lead fields as a store that normalizes keeps them (choices.ts leadFieldStorage): tags sorted
 * and unique, URLs in their WHATWG form, a custom field typed "number" kept as a number, custom
 * fields in name order. The same values, written another way.
 */
function normalize(doc: Record<string, unknown>): void {
  if (Array.isArray(doc.tags)) doc.tags = [...new Set(doc.tags as string[])].sort();
  for (const f of ['website', 'linkedinProfile']) {
    const v = doc[f];
    if (typeof v === 'string' && URL.canParse(v)) doc[f] = new URL(v).href;
  }
  const fields = (doc.customFields ?? {}) as Record<string, unknown>;
  const types = (doc.customFieldTypes ?? {}) as Record<string, unknown>;
  for (const [k, t] of Object.entries(types)) {
    const v = fields[k];
    if (t === 'number' && typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) fields[k] = Number(v);
  }
  doc.customFields = Object.fromEntries(Object.entries(fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

export const remove: Handler = async (ctx) => {
  const r = loadLead(ctx, ctx.params.cid!, ctx.params.leadId!);
  let retentionDays = ctx.services.choices.leadRetentionDays;
  if (r.last_contacted_at === null && ctx.services.choices.uncontactedLeadDelete === 'immediate') {
    ctx.db.prepare('DELETE FROM leads WHERE id = ?').run(r.id);
    retentionDays = 0;
  } else ctx.db.prepare('UPDATE leads SET deleted_at = ? WHERE id = ?').run(ctx.clock.now(), r.id);
  if (ctx.mutant('lead-delete-no-retention')) return ok({ success: true });
  return ok({ success: true, retentionDays });
};

const MUTATE_OPS = ['set_status', 'add_tags', 'remove_tags', 'delete'] as const;

/** One switch per operation (mutants lead-mutate-*-no-effect): counted as affected, nothing changes. */
const NO_EFFECT: Readonly<Record<(typeof MUTATE_OPS)[number], (ctx: Ctx) => boolean>> = {
  set_status: (ctx) => ctx.mutant('lead-mutate-set-status-no-effect'),
  add_tags: (ctx) => ctx.mutant('lead-mutate-add-tags-no-effect'),
  remove_tags: (ctx) => ctx.mutant('lead-mutate-remove-tags-no-effect'),
  delete: (ctx) => ctx.mutant('lead-mutate-delete-no-effect'),
};

export const mutate: Handler = async (ctx) => {
  const c = campaignOf(ctx, ctx.params.cid!);
  const b = bodyObject(ctx.body);
  // The mutant takes an operation it does not know as one that affects nothing.
  if (ctx.mutant('lead-mutate-unknown-operation-accepted') && typeof b.operation === 'string' && !(MUTATE_OPS as readonly string[]).includes(b.operation))
    return ok({ operation: b.operation, affected: 0, failed: 0, errors: [] });
  // The mutant binds the operation as .NET's JsonStringEnumConverter does: names in any case, integers as indexes.
  if (ctx.mutant('lead-mutate-operation-enum-loose')) b.operation = typeof b.operation === 'number' ? MUTATE_OPS[b.operation] ?? b.operation : typeof b.operation === 'string' ? MUTATE_OPS.find((o) => o === String(b.operation).toLowerCase()) ?? b.operation : b.operation;
  const v = new V();
  // The mutant binds the operation case-insensitively.
  const opGiven = typeof b.operation === 'string' && ctx.mutant('lead-mutate-operation-case-insensitive') ? { ...b, operation: b.operation.toLowerCase() } : b;
  const op = v.oneOf(opGiven, 'operation', MUTATE_OPS, true);
  let ids: string[] | undefined;
  if (b.ids !== undefined) {
    if (!Array.isArray(b.ids) || b.ids.some((x) => !isUuid(x))) v.issue('ids', 'must be an array of lead uuids');
    else if (b.ids.length > MAX_MUTATE_IDS + (ctx.mutant('lead-mutate-ids-1001') ? 1 : 0)) v.issue('ids', `at most ${MAX_MUTATE_IDS} ids`);
    else if (b.ids.length === 0) v.issue('ids', 'must not be empty');
    else ids = [...new Set(b.ids as string[])];
  }
  const all = v.bool(b, 'all');
  let filter: { search?: string; tags?: string[] } | undefined;
  if (b.filter !== undefined) {
    const f = v.object(b.filter, 'filter');
    if (f) {
      const fv = new V('filter');
      const search = fv.str(f, 'search');
      let tags: string[] | undefined;
      if (f.tags !== undefined) {
        if (ctx.mutant('lead-mutate-filter-tags-refused')) fv.issue('tags', 'unknown filter field');
        else if (!Array.isArray(f.tags) || f.tags.some((t) => typeof t !== 'string')) fv.issue('tags', 'must be an array of strings');
        else tags = f.tags as string[];
      }
      v.issues.push(...fv.issues);
      // A blank search is no condition; the mutant counts the key's presence as one (and '' then matches every lead).
      const searched = search !== undefined && (search.trim() !== '' || ctx.mutant('lead-mutate-empty-search-matches-all'));
      // An empty tags list is no condition, or (choices.emptyTagsFilter) one no lead matches.
      const tagged = tags !== undefined && (tags.length > 0 || ctx.services.choices.emptyTagsFilter === 'matches-none');
      if (!searched && !tagged && !ctx.mutant('lead-mutate-empty-filter-deletes-all')) v.issue('filter', 'must hold at least one condition');
      filter = { search: searched ? search!.trim() : undefined, tags: tagged ? tags : undefined };
    }
  }
  let status: string | undefined;
  let tags: string[] | undefined;
  // The mutant takes a status that is no lead status at all (neither user-settable nor platform-managed).
  const unknown = typeof b.status === 'string' && ![...USER_SETTABLE_STATUSES, ...PLATFORM_STATUSES, ctx.services.choices.newLeadStatus].includes(b.status);
  const platform = typeof b.status === 'string' && (PLATFORM_STATUSES as readonly string[]).includes(b.status);
  if (op === 'set_status' && platform && ctx.mutant('lead-mutate-platform-status-accepted')) status = b.status as string;
  else if (op === 'set_status') status = unknown && ctx.mutant('lead-mutate-unknown-status-accepted') ? (b.status as string) : v.oneOf(b, 'status', bulkStatuses(ctx), !ctx.mutant('lead-mutate-status-optional'));
  if (op === 'add_tags' || op === 'remove_tags') {
    if (!Array.isArray(b.tags) || b.tags.length === 0 || b.tags.some((t) => typeof t !== 'string')) v.issue('tags', 'must be a non-empty array of strings');
    else tags = b.tags as string[];
  }
  // filter and all belong to delete (4.4); each mutant ignores one of them with another operation.
  const notDelete = op !== undefined && op !== 'delete';
  // The second pair lets the filter through for the tag operations, or all for set_status.
  const tagOp = op === 'add_tags' || op === 'remove_tags';
  const filterTaken = ctx.mutant('lead-mutate-filter-any-operation') || (tagOp && ctx.mutant('lead-mutate-filter-tags-accepted'));
  const allTaken = ctx.mutant('lead-mutate-all-any-operation') || (op === 'set_status' && ctx.mutant('lead-mutate-all-set-status-accepted'));
  if (notDelete && b.filter !== undefined && !filterTaken) v.issue('filter', 'only allowed with operation delete');
  else if (notDelete && b.all !== undefined && !allTaken) v.issue('all', 'only allowed with operation delete');
  if (op === 'delete') {
    const n = [ids !== undefined, b.filter !== undefined, all === true].filter(Boolean).length;
    if (n === 0) v.issue('ids', 'give ids, a filter or all: true');
    if (n > 1 && !ctx.mutant('lead-mutate-all-with-ids')) v.issue('all', 'ids, filter and all are mutually exclusive');
  // The mutant's set_status takes a missing ids as every lead of the campaign (a bulk status change).
  } else if (op && ids === undefined && b.ids === undefined && !(op === 'set_status' && ctx.mutant('lead-mutate-set-status-ids-optional'))) v.issue('ids', 'is required');
  v.done();
  // Only a status made optional (a mutant) gets here without one: nothing to set.
  if (op === 'set_status' && status === undefined) return ok({ operation: op, affected: 0, failed: 0, errors: [] });

  let targets: LeadRow[];
  const errors: string[] = [];
  let failed = 0;
  if (ids) {
    targets = ids.map((id) => ctx.db.prepare('SELECT * FROM leads WHERE id = ? AND campaign_id = ? AND deleted_at IS NULL').get(id, c.id) as LeadRow | undefined).filter((x): x is LeadRow => !!x);
    const missing = ids.length - targets.length;
    // The second mutant's delete skips the ids it did not find without a word.
    if (missing > 0 && !ctx.mutant('lead-mutate-missing-not-reported') && !(op === 'delete' && ctx.mutant('lead-mutate-delete-missing-not-reported'))) {
      failed += missing;
      errors.push(`${missing} lead(s) not found in the campaign`);
    }
  } else {
    targets = ctx.db.prepare('SELECT * FROM leads WHERE campaign_id = ? AND deleted_at IS NULL').all(c.id) as LeadRow[];
    // The mutant reads all: true like an empty filter, which never deletes all.
    if (all === true && ctx.mutant('lead-mutate-all-ignored')) targets = [];
    // The mutant accepts a filter and matches nothing with it.
    if (filter && ctx.mutant('lead-mutate-filter-deletes-nothing')) targets = [];
    if (filter) {
      targets = targets.filter((r) => {
        const d = JSON.parse(r.doc) as Record<string, unknown>;
        const hay = [r.email, ...PROFILE_FIELDS.map((f) => String(d[f] ?? ''))].join(' ').toLowerCase();
        const okSearch = filter!.search === undefined || hay.includes(filter!.search.toLowerCase());
        const okTags = !filter!.tags || (d.tags as string[]).some((t) => filter!.tags!.includes(t));
        return okSearch && okTags;
      });
    }
  }
  let affected = 0;
  const now = ctx.clock.now();
  ctx.db.transaction(() => {
    for (const r of targets) {
      const doc = JSON.parse(r.doc) as { tags: string[] };
      if (NO_EFFECT[op!](ctx)) {
        affected++;
        continue;
      }
      if (op === 'delete') {
        if (r.last_contacted_at === null) ctx.db.prepare('DELETE FROM leads WHERE id = ?').run(r.id);
        else ctx.db.prepare('UPDATE leads SET deleted_at = ? WHERE id = ?').run(now, r.id);
      }
      else if (op === 'set_status') {
        // The mutant keeps 3.3's status rules on the PATCH path only: set_status skips them.
        // The second mutant refuses the replied statuses in bulk whatever the lead (only PATCH sees replies).
        const bulkRefused = ctx.mutant('lead-mutate-replied-statuses-refused') && (status!.startsWith('lead_replied_') || status === 'lead_converted');
        // The third guards the replied condition by the lead_replied_ prefix alone: lead_converted goes through.
        const unguarded = ctx.mutant('lead-mutate-status-rules-skipped') || (status === 'lead_converted' && ctx.mutant('lead-mutate-converted-unguarded'));
        const why = unguarded ? null : bulkRefused ? 'not settable in bulk' : statusRefusal(ctx, r, status!);
        if (why) {
          failed++;
          continue;
        }
        ctx.db.prepare('UPDATE leads SET status = ?, updated_at = ? WHERE id = ?').run(status, now, r.id);
      } else {
        // The mutant removes only the first tag it is given (one array_remove).
        const removed = ctx.mutant('lead-mutate-remove-tags-first-only') ? tags!.slice(0, 1) : tags!;
        doc.tags = op === 'add_tags' ? [...new Set([...doc.tags, ...tags!])] : doc.tags.filter((t) => !removed.includes(t));
        ctx.db.prepare('UPDATE leads SET doc = ?, updated_at = ? WHERE id = ?').run(JSON.stringify(doc), now, r.id);
      }
      affected++;
    }
  })();
  const refused = targets.length - affected;
  if (refused > 0) errors.push(`${refused} lead(s) have not replied; ${status} not set`);
  // The mutants: one word for every operation; a delete of all leads named by another path.
  const echoed = ctx.mutant('lead-mutate-operation-not-echoed') ? 'mutate' : all === true && ctx.mutant('lead-mutate-delete-echo-other') ? 'delete_all' : op;
  // The mutant answers a delete by a path of its own (a row count): no failed, no errors.
  if (op === 'delete' && ctx.mutant('lead-mutate-delete-bare')) return ok({ operation: echoed, affected });
  return ok({ operation: echoed, affected, failed, errors });
};

export const search: Handler = async (ctx) => {
  const q = ctx.query.get('email');
  if (q === null || q.trim() === '') throw validationFailed(['email: give an email address or a fragment of one']);
  const cs = ctx.mutant('lead-search-case-sensitive');
  // The second mutant lowers the query only: addresses are matched as stored.
  const column = cs || ctx.mutant('lead-search-query-lowered-only') ? 'l.email' : 'l.email_lc';
  // The mutants: the query ignored (every lead matches), or matched as a whole address only.
  const match = ctx.mutant('lead-search-query-ignored') ? '1' : ctx.mutant('lead-search-exact-only') ? `${column} = ?` : `instr(${column}, ?) > 0`;
  // The second mutant drops the workspace only on the fragment path (a query that is not a whole address).
  const everyWorkspace = ctx.mutant('tenant-lead-search-leak') || (!q.includes('@') && ctx.mutant('tenant-lead-search-fragment-leak'));
  const rows = ctx.db
    .prepare(
      `SELECT l.id, l.email, l.campaign_id, c.name AS campaign_name, l.doc FROM leads l JOIN campaigns c ON c.id = l.campaign_id
       WHERE ${everyWorkspace ? '? IS NOT NULL' : 'l.org_id = ?'} AND l.deleted_at IS NULL AND ${match === '1' ? '? IS NOT NULL' : match} ORDER BY l.created_at DESC, l.id DESC`,
    )
    .iterate(ctx.workspace.id, cs ? q.trim() : q.trim().toLowerCase()) as IterableIterator<{ id: string; email: string; campaign_id: string; campaign_name: string; doc: string }>;
  // Up to 10 matches, one row per campaign (its newest matching lead).
  const max = ctx.mutant('lead-search-more-than-10') ? 50 : 10;
  // per-lead (a chosen reading) or the mutant: every matching lead is a row
  const perLead = ctx.services.choices.leadSearchRows === 'per-lead' || ctx.mutant('lead-search-row-per-lead');
  const seen = new Set<string>();
  const data: unknown[] = [];
  for (const r of rows) {
    if (data.length >= max) break;
    if (seen.has(r.campaign_id) && !perLead) continue;
    seen.add(r.campaign_id);
    const d = JSON.parse(r.doc) as Record<string, unknown>;
    const hit = { id: r.id, email: r.email, campaignId: r.campaign_id, campaignName: r.campaign_name, firstName: d.firstName ?? '', lastName: d.lastName ?? '' };
    // The mutants leave out campaignName, or answer the names as one `name` (firstName and lastName left out).
    const named = ctx.mutant('lead-search-hit-one-name') ? { ...hit, firstName: undefined, lastName: undefined, name: `${hit.firstName} ${hit.lastName}`.trim() } : hit;
    data.push(ctx.mutant('lead-search-hit-no-campaign-name') ? { ...named, campaignName: undefined } : named);
  }
  return ok({ data });
};

/** Purges soft-deleted leads whose retention window has passed (a drainer; see index.ts). */
export function purgeDeletedLeads(db: import('../store/db.ts').DB, now: number, retentionDays = RETENTION_DAYS): number {
  return db.prepare('DELETE FROM leads WHERE deleted_at IS NOT NULL AND deleted_at <= ?').run(now - retentionDays * 86_400_000).changes;
}
