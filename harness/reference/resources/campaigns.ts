// Campaigns (spec 2.5, 3.1, 4.3). Storage: campaigns(id, org_id, name, status, doc JSON
// { schedule, settings, sequence, accounts, metrics }), campaign_tags. Leads live in leads.
// Reference choices: schedule.sendingDays numbering chosen (choices.ts; stored 0 = Sunday ... 6 =
// Saturday, converted at the edge by `weekdays`); minutes 0..1440 local;
// defaults below; `launchError` is left out when the launch succeeded or was not asked for.
// Lifecycle: start from draft|scheduled|paused|stopped|active (active: no-op success) needs leads
// and a sequence in every state (400 failed_precondition); pause from active|scheduled; resume from paused needs at
// least one mailbox in the workspace (any status).
import { ok, created, type Handler, type Ctx } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { failedPrecondition, stateConflict, validationFailed } from '../request/errors.ts';
import { V, bodyObject, isPlainObject, isTimezone, isIsoTimestamp, isUuid } from '../request/validate.ts';
import { loadOwned, tagsOf, tagFilter } from '../request/owned-rows.ts';
import { CAMPAIGN_STATUSES, isWithinSchedule, nextOpening, type CampaignDoc, type CampaignRow, type Schedule, type Settings, type Step } from '../domain/campaign.ts';
import { insertLeads } from './leads.ts';
import type { Choices } from '../switches/choices.ts';
import { shapeResult } from '../request/shape.ts';

import { MAX_LEADS_ON_CREATE } from '../domain/limits.ts';
export const MAX_SEQUENCE_STEPS = 50;


/** The chosen defaults (choices.ts campaignDefaults) in the workspace timezone. */
export const defaultSchedule = (ctx: Ctx): Schedule => {
  const { settings: _s, sendingDays, ...d } = ctx.services.choices.campaignDefaults;
  return { timezone: ctx.workspace.timezone, sendingDays: [...sendingDays], ...d, startDate: null, endDate: null };
};
export const defaultSettings = (ctx: Ctx): Settings => ({ ...ctx.services.choices.campaignDefaults.settings });

export const leadsCount = (ctx: Ctx, campaignId: string) =>
  (ctx.db.prepare('SELECT COUNT(*) AS n FROM leads WHERE campaign_id = ? AND deleted_at IS NULL').get(campaignId) as { n: number }).n;

/**
 * schedule.sendingDays on the wire, by the chosen numbering (the spec does not give it); stored
 * and computed with 0 = Sunday ... 6 = Saturday.
 */
export function weekdays(numbering: Choices['sendingDays']) {
  const shift = numbering === '0-sunday' ? 0 : 1; // 1: the week starts on Monday
  const first = numbering === '1-monday' ? 1 : 0; // the number of the week's first day
  return {
    first,
    last: first + 6,
    label: numbering === '0-sunday' ? '0 (Sunday) to 6 (Saturday)' : numbering === '1-monday' ? '1 (Monday) to 7 (Sunday)' : '0 (Monday) to 6 (Sunday)',
    /** wire -> stored */
    toStored: (d: number) => (d - first + shift) % 7,
    /** stored -> wire */
    toWire: (d: number) => ((d - shift + 7) % 7) + first,
  };
}

/** The numbering this instance reads and writes sendingDays with (its mutant: one weekday off, both ways). */
function dayNumbering(ctx: Ctx) {
  const days = weekdays(ctx.services.choices.sendingDays);
  if (!ctx.mutant('camp-sending-days-shifted')) return days;
  return { ...days, toStored: (d: number) => (days.toStored(d) + 1) % 7, toWire: (d: number) => days.toWire((d + 6) % 7) };
}

/** An unset startDate / endDate is omitted (2: null only where stated). */
const scheduleView = (ctx: Ctx, s: Schedule) => {
  const days = dayNumbering(ctx);
  const end = ctx.services.choices.windowEnd === 'inclusive' ? s.sendingMinutesEnd - 1 : s.sendingMinutesEnd;
  const wire = { ...s, sendingDays: s.sendingDays.map(days.toWire).sort((a, b) => a - b), sendingMinutesEnd: end };
  // The mutant writes the dates in SQL DATETIME form ("2031-01-10 09:30:15": no T, no zone).
  if (ctx.mutant('camp-schedule-dates-sql')) for (const k of ['startDate', 'endDate'] as const) if (typeof wire[k] === 'string') wire[k] = new Date(wire[k]!).toISOString().slice(0, 19).replace('T', ' ');
  // The mutant writes an unset date as null (2: null only where stated).
  return ctx.mutant('res-unset-dates-null') ? wire : Object.fromEntries(Object.entries(wire).filter(([, v]) => v !== null));
};

export function campaignView(ctx: Ctx, r: CampaignRow) {
  const doc = JSON.parse(r.doc) as CampaignDoc;
  const tags = tagsOf(ctx.db, 'campaign_tags', 'campaign_id', r.id);
  const epoch = ctx.mutant('camp-timestamps-epoch');
  return {
    id: r.id, name: r.name, status: r.status, schedule: scheduleView(ctx, doc.schedule), settings: doc.settings,
    metrics: { leadsCount: leadsCount(ctx, r.id), ...doc.metrics },
    tags: ctx.mutant('camp-tags-string') ? tags.join(',') : tags,
    createdAt: epoch ? r.created_at : isoOf(r.created_at), updatedAt: epoch ? r.updated_at : isoOf(r.updated_at),
    // The mutant answers a campaign without mailboxes with accounts null (a nullable column).
    sequence: doc.sequence.map((st) => stepView(ctx, st)), accounts: doc.accounts.length === 0 && ctx.mutant('camp-accounts-null-when-none') ? null : doc.accounts,
  };
}

/** A step as the wire shows it: its variant's id is the step's `id`, or under `versions` (choices.variantShape). */
function stepView(ctx: Ctx, st: Step) {
  if (ctx.services.choices.variantShape === 'step-id') return st;
  const { id, ...rest } = st;
  return { ...rest, versions: [{ key: id }] };
}

/** The variant id a step sent back (PATCH) names, in the chosen shape, to keep the step's id. */
function sentVariantId(ctx: Ctx, o: Record<string, any>): unknown {
  return ctx.services.choices.variantShape === 'step-id' ? o.id : Array.isArray(o.versions) ? o.versions[0]?.key : undefined;
}

export const loadCampaign = (ctx: Ctx, id: string) => loadOwned<CampaignRow>(ctx, 'campaigns', id, 'campaign');

// ---- validation of the sections ----
function mergeSchedule(ctx: Ctx, v: V, raw: unknown, base: Schedule): Schedule {
  const o = v.object(raw, 'schedule');
  if (!o) return base;
  const s = { ...base };
  const sv = new V('schedule');
  if (o.timezone !== undefined) {
    if (!isTimezone(o.timezone)) sv.issue('timezone', 'must be an IANA timezone');
    else s.timezone = o.timezone;
  }
  if (o.sendingDays !== undefined) {
    const d = o.sendingDays;
    const days = dayNumbering(ctx);
    if (!Array.isArray(d) || d.length === 0 || d.length > 7 || d.some((x) => !Number.isInteger(x) || x < days.first || x > days.last) || new Set(d).size !== d.length)
      sv.issue('sendingDays', `must be a non-empty array of distinct integers ${days.label}`);
    else s.sendingDays = (d as number[]).map(days.toStored).sort((a, b) => a - b);
  }
  const a = sv.int(o, 'sendingMinutesStart', { min: 0, max: 1439 });
  if (a !== undefined) s.sendingMinutesStart = a;
  // Kept as the minute the window closes at; an inclusive end is the minute before (choices.ts windowEnd).
  const inclusive = ctx.services.choices.windowEnd === 'inclusive';
  const b = sv.int(o, 'sendingMinutesEnd', inclusive ? { min: 0, max: 1439 } : { min: 1, max: 1440 });
  if (b !== undefined) s.sendingMinutesEnd = inclusive ? b + 1 : b;
  const dl = sv.int(o, 'dailyLimit', { min: 1, max: 100_000 });
  if (dl !== undefined) s.dailyLimit = dl;
  for (const k of ['startDate', 'endDate'] as const) {
    if (o[k] === undefined) continue;
    if (o[k] === null) s[k] = null;
    else if (!isIsoTimestamp(o[k]) || (ctx.mutant('ts-millis-refused') && /\.\d+/.test(o[k] as string))) sv.issue(k, 'must be an ISO 8601 timestamp');
    else s[k] = new Date(o[k] as string).toISOString();
  }
  if (s.sendingMinutesStart >= s.sendingMinutesEnd) sv.issue('sendingMinutesEnd', 'must be after sendingMinutesStart');
  if (s.startDate && s.endDate && Date.parse(s.endDate) <= Date.parse(s.startDate)) sv.issue('endDate', 'must be after startDate');
  if (s.endDate && o.endDate !== undefined && Date.parse(s.endDate) <= ctx.clock.now() && ctx.services.choices.pastEndDate === 'refuse') sv.issue('endDate', 'has already passed');
  // The mutant refuses a valid schedule whose startDate is still to come.
  if (s.startDate && Date.parse(s.startDate) > ctx.clock.now() && ctx.mutant('camp-schedule-future-start-refused')) sv.issue('startDate', 'must not lie in the future');
  v.issues.push(...sv.issues);
  return s;
}

function mergeSettings(v: V, raw: unknown, base: Settings): Settings {
  const o = v.object(raw, 'settings');
  if (!o) return base;
  const sv = new V('settings');
  const s = { ...base };
  for (const k of ['trackOpens', 'trackClicks', 'sendAsTextOnly', 'stopOnReply'] as const) {
    const b = sv.bool(o, k);
    if (b !== undefined) s[k] = b;
  }
  v.issues.push(...sv.issues);
  return s;
}

function parseSequence(ctx: Ctx, v: V, raw: unknown, old: Step[]): Step[] {
  if (!Array.isArray(raw)) {
    v.issue('sequence', 'must be an array of steps');
    return old;
  }
  if (raw.length > MAX_SEQUENCE_STEPS) v.issue('sequence', `at most ${MAX_SEQUENCE_STEPS} steps`);
  const oldIds = new Set(old.map((s) => s.id));
  return raw.map((st, i) => {
    const sv = new V(`sequence[${i}]`);
    const o = sv.object(st, '') ?? {};
    const subject = sv.str(o, 'subject', { required: true, max: 998 }) ?? '';
    const body = sv.str(o, 'body', { required: true, max: 100_000 }) ?? '';
    const delayDays = sv.int(o, 'delayDays', { min: 0, max: 365 }) ?? 0;
    const delayHours = sv.int(o, 'delayHours', { min: 0, max: 23 }) ?? 0;
    v.issues.push(...sv.issues);
    const sent = sentVariantId(ctx, o);
    const id = isUuid(sent) && oldIds.has(sent) ? sent : ctx.newId();
    return { id, subject, body, delayDays, delayHours };
  });
}

function parseAccounts(ctx: Ctx, v: V, raw: unknown): string[] {
  if (!Array.isArray(raw)) {
    v.issue('accounts', 'must be an array of mailbox ids');
    return [];
  }
  const out: string[] = [];
  raw.forEach((id, i) => {
    if (!isUuid(id)) return v.issue(`accounts[${i}]`, 'must be a uuid');
    const found = ctx.db.prepare('SELECT 1 FROM accounts WHERE id = ? AND org_id = ?').get(id, ctx.workspace.id);
    if (!found) return v.issue(`accounts[${i}]`, 'no such mailbox in this workspace');
    if (!out.includes(id)) out.push(id);
  });
  return out;
}

// ---- handlers ----
export const create: Handler = async (ctx) => {
  const b = bodyObject(ctx.body);
  // The second mutant asks the launch scope only where it launches, after the insert: a refused launch leaves its campaign behind.
  const scopeLate = b.launch === true && ctx.mutant('camp-launch-scope-after-insert');
  if (b.launch === true && !ctx.mutant('camp-launch-without-lifecycle') && !scopeLate) ctx.requireScope('campaigns:lifecycle');
  // The third mutant's gate reads "unless launch is false": a create without `launch` asks campaigns:lifecycle too.
  if (b.launch === undefined && ctx.mutant('camp-launch-scope-unless-false')) ctx.requireScope('campaigns:lifecycle');
  // The mutant asks a scope the spec does not ask of a create that holds leads.
  if (Array.isArray(b.leads) && b.leads.length > 0 && ctx.mutant('camp-create-leads-need-leads-write')) ctx.requireScope('leads:write');
  const v = new V();
  const required = ctx.services.choices.campaignRequiredFields;
  const name = v.str(b, 'name', { required: required.includes('name') && !ctx.mutant('camp-name-optional'), nonEmpty: !ctx.mutant('camp-empty-name-accepted'), max: 255 }) ?? '';
  for (const f of ['schedule', 'settings'] as const) if (required.includes(f) && (b[f] === undefined || b[f] === null)) v.issue(f, 'is required');
  // A required sequence holds at least one step (a PATCH may still empty it).
  if (required.includes('sequence') && !(Array.isArray(b.sequence) && b.sequence.length > 0)) v.issue('sequence', 'is required (at least one step)');
  const givenSchedule = b.schedule === undefined ? defaultSchedule(ctx) : mergeSchedule(ctx, v, b.schedule, defaultSchedule(ctx));
  // The mutant defaults the settings of a create without them partly: the tracking flags alone.
  const partialDefaults = b.settings === undefined && ctx.mutant('camp-default-settings-partial');
  const d = defaultSettings(ctx);
  const givenSettings = partialDefaults ? ({ trackOpens: d.trackOpens, trackClicks: d.trackClicks } as unknown as Settings)
    : b.settings === undefined ? d : mergeSettings(v, b.settings, defaultSettings(ctx));
  // The mutants validate the create's schedule (its settings) but keep the defaults (only PATCH sets them).
  const schedule = ctx.mutant('camp-create-schedule-ignored') ? defaultSchedule(ctx) : givenSchedule;
  const settings = ctx.mutant('camp-create-settings-ignored') ? defaultSettings(ctx) : givenSettings;
  const sequence = b.sequence === undefined ? [] : parseSequence(ctx, v, b.sequence, []);
  // The mutant validates the create's accounts but keeps none of them.
  const parsedAccounts = b.accounts === undefined ? [] : parseAccounts(ctx, v, b.accounts);
  const accounts = ctx.mutant('camp-create-accounts-dropped') ? [] : parsedAccounts;
  const launch = v.bool(b, 'launch') ?? false;
  let leadEmails: string[] = [];
  if (b.leads !== undefined && b.leads !== null) {
    if (!Array.isArray(b.leads)) v.issue('leads', 'must be an array of email address strings');
    else if (b.leads.length > MAX_LEADS_ON_CREATE + (ctx.mutant('camp-create-leads-one-over') ? 1 : 0)) v.issue('leads', `at most ${MAX_LEADS_ON_CREATE} leads`);
    else {
      // The mutant takes { email } objects too (the referenced leads.create's shape).
      const objects = ctx.mutant('camp-create-leads-objects-taken');
      b.leads.forEach((e, i) => (typeof e === 'string' ? leadEmails.push(e) : objects && isPlainObject(e) && typeof e.email === 'string' ? leadEmails.push(e.email) : v.issue(`leads[${i}]`, 'must be a string')));
    }
  }
  v.done();
  const now = ctx.clock.stamp();
  const id = ctx.newId();
  const doc: CampaignDoc = { schedule, settings, sequence, accounts, stepsAtCreate: sequence.length, metrics: { sent: 0, opens: 0, clicks: 0, replies: 0 } };
  let leadsSummary: { submitted: number; created: number; duplicates: number; invalid?: number } = { submitted: leadEmails.length, created: 0, duplicates: 0, invalid: 0 };
  let launched = false;
  let launchError: string | null = null;
  let refused: unknown;
  ctx.db.transaction(() => {
    ctx.db.prepare('INSERT INTO campaigns (id, org_id, name, status, doc, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)')
      .run(id, ctx.workspace.id, name!, 'draft', JSON.stringify(doc), now, now);
    // The mutant drops the leads given in the create ("add them by leads.create"): counted as submitted, none created.
    const res = insertLeads(ctx, id, ctx.mutant('camp-create-leads-dropped') ? [] : leadEmails.map((email) => ({ email })));
    leadsSummary = ctx.mutant('camp-leads-duplicates-as-created')
      ? { submitted: leadEmails.length, created: res.created.length + res.duplicates, duplicates: 0, invalid: res.invalid }
      : ctx.mutant('camp-create-leads-no-invalid')
        ? { submitted: leadEmails.length, created: res.created.length, duplicates: res.duplicates }
        : { submitted: leadEmails.length, created: res.created.length, duplicates: res.duplicates, invalid: res.invalid };
    // The mutant never attempts the launch asked for: the campaign stays a draft, launched false, no launchError.
    if (launch && scopeLate) {
      try {
        ctx.requireScope('campaigns:lifecycle');
      } catch (e) {
        refused = e;
      }
    }
    if (launch && !refused && !ctx.mutant('camp-launch-never-attempted')) {
      const why = startRefusal(ctx, id, doc);
      if (why && ctx.mutant('camp-launch-failure-400')) throw failedPrecondition(`The campaign cannot launch: ${why}`);
      if (why) launchError = why;
      else {
        ctx.db.prepare("UPDATE campaigns SET status = 'active' WHERE id = ?").run(id);
        launched = true;
      }
    }
  })();
  if (refused) throw refused;
  // No failure to report: launchError is left out (part 2 uses null only where stated; 4.3 types it a string).
  const noError = launchError === null && !ctx.mutant('camp-launch-error-null');
  // The mutants answer by paths of their own: a launch that happened without the leads counts; a create without leads with leads null.
  const launchedBare = launched && (ctx.mutant('camp-create-launched-answer-no-leads') || ctx.mutant('camp-launch-ok-no-leads'));
  const leadsShown = launchedBare ? {} : b.leads === undefined && ctx.mutant('camp-create-no-leads-null') ? { leads: null } : { leads: leadsSummary };
  const shown = loadCampaign(ctx, id);
  // The mutant answers the campaign as inserted (a draft) while a column default stores it scheduled.
  if (!launched && ctx.mutant('camp-created-stored-scheduled')) ctx.db.prepare("UPDATE campaigns SET status = 'scheduled' WHERE id = ?").run(id);
  return created({ campaign: campaignView(ctx, shown), launched, ...leadsShown, ...(noError ? {} : { launchError }) });
};

export const list: Handler = async (ctx) => {
  const where = ['org_id = ?'];
  const params: unknown[] = [ctx.workspace.id];
  // The mutant reads the status filter under another name (`state`): the declared one is ignored.
  const status = ctx.query.get(ctx.mutant('camp-list-status-param-renamed') ? 'state' : 'status');
  if (status !== null) {
    if (!(CAMPAIGN_STATUSES as readonly string[]).includes(status)) throw validationFailed([`status: must be one of ${CAMPAIGN_STATUSES.join(', ')}`]);
    // The second mutant drops the filter on a page asked by cursor (its keyset query knows the position only).
    if (!ctx.mutant('camp-status-filter-ignored') && !(ctx.mutant('camp-list-status-filter-dropped-on-cursor') && ctx.query.get('cursor') !== null)) {
      // The mutant keeps a paused campaign as active with a pause flag (the serializer shows paused) and filters the stored column.
      where.push(ctx.mutant('camp-list-paused-filtered-as-active') ? "(CASE status WHEN 'paused' THEN 'active' ELSE status END) = ?" : 'status = ?');
      params.push(status);
    }
  }
  const tags = tagFilter(ctx.query);
  // The second mutant drops the tag filter on a page asked by cursor.
  if (tags && !ctx.mutant('camp-tags-filter-ignored') && !(ctx.mutant('camp-list-tag-filter-dropped-on-cursor') && ctx.query.get('cursor') !== null)) {
    where.push(`EXISTS (SELECT 1 FROM campaign_tags ct WHERE ct.campaign_id = campaigns.id AND ct.tag_id IN (${tags.map(() => '?').join(',')}))`);
    params.push(...tags);
  }
  const page = ctx.page<CampaignRow>({
    list: 'campaigns', from: 'campaigns', where: where.join(' AND '), params,
    // The mutants list an active campaign under the sending engine's word for it, or a campaign's tags as their ids (a list query that joins the link table only).
    map: (r) => {
      const tags = tagsOf(ctx.db, 'campaign_tags', 'campaign_id', r.id);
      const status = r.status === 'active' && ctx.mutant('camp-list-active-item-running') ? 'running' : r.status;
      return { id: r.id, name: r.name, status, leadsCount: leadsCount(ctx, r.id), tags: ctx.mutant('camp-listitem-tags-ids') ? tags.map((t) => t.id) : tags, createdAt: isoOf(r.created_at) };
    },
  });
  // The mutant answers a filtered list by its own query path: { data } without meta.
  if ((status !== null || tags) && ctx.mutant('camp-list-filtered-no-meta')) return ok({ data: page.data });
  return ok(page);
};

export const patch: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  const b = bodyObject(ctx.body);
  const doc = JSON.parse(row.doc) as CampaignDoc;
  if (ctx.mutant('camp-patch-replaces-all')) {
    // Every section not supplied falls back to its default (a full replace).
    doc.schedule = defaultSchedule(ctx);
    doc.settings = defaultSettings(ctx);
    doc.sequence = [];
    doc.accounts = [];
  }
  const v = new V();
  const name = v.str(b, 'name', { nonEmpty: true, max: 255 });
  if (b.name === null) v.issue('name', 'must not be empty');
  // The mutant's PATCH validator (its own) takes only the millisecond form of the schedule dates.
  if (ctx.mutant('ts-patch-whole-seconds-refused') && isPlainObject(b.schedule)) for (const k of ['startDate', 'endDate']) if (typeof b.schedule[k] === 'string' && !/\.\d+/.test(b.schedule[k])) v.issue(`schedule.${k}`, 'must be an ISO 8601 timestamp with milliseconds');
  if (b.schedule !== undefined) doc.schedule = mergeSchedule(ctx, v, b.schedule, doc.schedule);
  if (b.settings !== undefined) doc.settings = mergeSettings(v, b.settings, doc.settings);
  // The mutant reads an empty sequence as "not supplied".
  const emptyIgnored = Array.isArray(b.sequence) && b.sequence.length === 0 && ctx.mutant('camp-patch-empty-sequence-ignored');
  if (b.sequence !== undefined && !emptyIgnored) {
    const steps = parseSequence(ctx, v, b.sequence, doc.sequence);
    doc.sequence = ctx.mutant('camp-patch-sequence-appends') ? [...doc.sequence, ...steps] : steps;
  }
  if (b.accounts !== undefined) {
    const ids = parseAccounts(ctx, v, b.accounts);
    if (Array.isArray(b.accounts) && b.accounts.length === 0 && ctx.services.choices.emptyAccountsPatch === 'refuse') v.issue('accounts', 'a campaign keeps at least one mailbox');
    doc.accounts = ctx.mutant('camp-patch-accounts-merged') ? [...new Set([...doc.accounts, ...ids])] : ids;
  }
  v.done();
  ctx.db.prepare('UPDATE campaigns SET name = ?, doc = ?, updated_at = ? WHERE id = ?').run(name ?? row.name, JSON.stringify(doc), ctx.clock.now(), row.id);
  const flat = campaignView(ctx, loadCampaign(ctx, row.id));
  // The mutant answers the updatedAt a PATCH rewrote as the database gives it (SQL DATETIME form).
  if (ctx.mutant('camp-patch-updatedat-sql')) flat.updatedAt = String(flat.updatedAt).replace('T', ' ').replace(/\.\d+Z$|Z$/, '');
  // The mutant's PATCH serializer gives the mailboxes as {id} objects.
  const view = ctx.mutant('camp-patch-accounts-objects') ? { ...flat, accounts: (flat.accounts ?? []).map((id) => ({ id })) } : flat;
  return ok(ctx.mutant('camp-patch-wrapped') ? { campaign: view } : view);
};

/** Why a campaign cannot start now, or null. */
function startRefusal(ctx: Ctx, id: string, doc: CampaignDoc): string | null {
  // The mutant counts soft-deleted leads too (a count without the deleted_at filter).
  const leads = ctx.mutant('camp-start-counts-deleted-leads') ? (ctx.db.prepare('SELECT COUNT(*) AS n FROM leads WHERE campaign_id = ?').get(id) as { n: number }).n : leadsCount(ctx, id);
  if (leads === 0 && !ctx.mutant('camp-start-without-leads')) return 'The campaign has no leads.';
  // The second mutant reads the step count kept from create: a sequence emptied by PATCH still counts.
  const steps = ctx.mutant('camp-start-steps-from-create') ? Math.max(doc.sequence.length, doc.stepsAtCreate ?? 0) : doc.sequence.length;
  if (steps === 0 && !ctx.mutant('camp-start-without-sequence')) return 'The campaign has no sequence.';
  return null;
}

const setStatus = (ctx: Ctx, id: string, status: string) =>
  ctx.db.prepare('UPDATE campaigns SET status = ?, updated_at = ? WHERE id = ?').run(status, ctx.clock.now(), id);

export const start: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  if (!['draft', 'scheduled', 'paused', 'stopped', 'active'].includes(row.status)) throw stateConflict(`A ${row.status} campaign cannot be started.`);
  // "400 when nothing to send" holds in every state, an active campaign included (3.1, 4.3, 7).
  const doc = JSON.parse(row.doc) as CampaignDoc;
  const why = startRefusal(ctx, row.id, doc);
  if (why) throw failedPrecondition(why);
  if (row.status === 'active') {
    if (ctx.services.choices.repeatTransition === 'refuse') throw stateConflict('The campaign is already active.');
    return ok({ id: row.id, status: row.status, success: true });
  }
  // The mutant schedules a paused campaign it starts: a move its declared table does not hold.
  const next = row.status === 'paused' && ctx.mutant('camp-start-paused-schedules') ? 'scheduled' : 'active';
  setStatus(ctx, row.id, next);
  // The mutant answers from the schedule, not the campaign: a startDate still to come reports scheduled (it is active).
  const start = doc.schedule?.startDate ? Date.parse(doc.schedule.startDate) : NaN;
  const reported = ctx.mutant('camp-start-status-from-schedule') && start > ctx.clock.now() ? 'scheduled' : next;
  return ok({ id: row.id, status: reported, success: true });
};

export const pause: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  const answer = (status: string) => ok(shapeResult(ctx.services.choices, 'campaigns.pause', { id: row.id, status, success: true }));
  if (row.status === 'paused') {
    if (ctx.services.choices.repeatTransition === 'refuse') throw stateConflict('The campaign is already paused.');
    return answer(row.status);
  }
  if (!['active', 'scheduled'].includes(row.status)) throw stateConflict(`A ${row.status} campaign cannot be paused.`);
  setStatus(ctx, row.id, 'paused');
  return answer('paused');
};

export const resume: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  if (row.status !== 'paused') throw stateConflict(`Only a paused campaign can be resumed (this one is ${row.status}).`);
  // Any mailbox of the workspace will do: one that cannot send now does not block (3.1).
  const sql = ctx.mutant('camp-resume-needs-connected-mailbox')
    ? "SELECT 1 FROM accounts WHERE org_id = ? AND status != 'revoked' LIMIT 1"
    : ctx.mutant('camp-resume-blocked-by-unsendable-mailbox')
    ? "SELECT 1 FROM accounts WHERE org_id = ? AND status = 'active' LIMIT 1"
    : 'SELECT 1 FROM accounts WHERE org_id = ? LIMIT 1';
  const any = ctx.db.prepare(sql).get(ctx.workspace.id);
  // The mutant's rule is the campaign's own list, kept stale: a mailbox it listed, deleted since, still counts.
  const doc = JSON.parse(row.doc) as CampaignDoc;
  const listed = ctx.mutant('camp-resume-stale-campaign-accounts') && doc.accounts.length + (doc.formerAccounts?.length ?? 0) > 0;
  if (!any && !listed && !ctx.mutant('camp-resume-without-mailbox')) throw failedPrecondition('The workspace has no mailbox.');
  // The sequence goes on from the history of sent emails; this mutant forgets it.
  if (ctx.mutant('send-resume-restarts')) ctx.db.prepare("UPDATE emails SET kind = 'campaign-before-pause' WHERE campaign_id = ? AND kind = 'campaign'").run(row.id);
  setStatus(ctx, row.id, 'active');
  return ok(ctx.mutant('camp-resume-answer-no-success') ? { id: row.id, status: 'active' } : { id: row.id, status: 'active', success: true });
};

export const status: Handler = async (ctx) => {
  const row = loadCampaign(ctx, ctx.params.id!);
  const doc = JSON.parse(row.doc) as CampaignDoc;
  const now = ctx.clock.now();
  // The mutant reads "within the window" as "the campaign is active".
  const within = ctx.mutant('camp-within-schedule-is-active') ? row.status === 'active' : isWithinSchedule(doc.schedule, now, ctx.mutant('camp-within-schedule-utc'));
  // The second mutant guards the next opening by "not a draft" instead of "active" (a paused campaign reports one).
  const sending = row.status === 'active' || (row.status !== 'draft' && ctx.mutant('camp-next-opens-unless-draft'));
  const next = sending && !within ? nextOpening(doc.schedule, now) : ctx.mutant('camp-next-opens-always-set') ? nextOpening(doc.schedule, now + 86_400_000) : null;
  const counts = { leadsCount: leadsCount(ctx, row.id), ...doc.metrics };
  // The mutant answers a started campaign's counts under the lead's names (2.6), as a live engine view would.
  const metrics: Record<string, unknown> = ctx.mutant('camp-status-started-metrics-lead-names') && row.status !== 'draft'
    ? { leadsCount: counts.leadsCount, sent: counts.sent, opened: counts.opens, clicked: counts.clicks, replied: counts.replies }
    : counts;
  // The mutant answers the counts as strings.
  const shown = ctx.mutant('camp-metrics-strings') ? Object.fromEntries(Object.entries(metrics).map(([k, n]) => [k, String(n)])) : metrics;
  return ok({ id: row.id, status: row.status, isWithinSchedule: within, metrics: shown, nextScheduleOpensAt: isoOf(next) });
};

