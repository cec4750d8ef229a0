// Analytics (spec 2.10, 4.6): every number is counted from the `events` ledger (analytics/).
// Query names (chosen.ts maps the target's names to these): startDate, endDate,
// excludeOutOfOffice (true|false), breakdown (repeat or comma-separate: smtp, sequence, bounce),
// interval (day|week|month). Windows: analytics/window.ts.
import { ok, type Handler, type Ctx } from '../request/context.ts';
import { isoOf } from '../domain/clock.ts';
import { validationFailed } from '../request/errors.ts';
import { loadOwned } from '../request/owned-rows.ts';
import { windowOf, periodOf, type Window } from '../analytics/window.ts';
import { eventsIn, bouncedKeys, leadStatuses, type Scope } from '../analytics/ledger.ts';
import { totalsOf, pointOf, undeliveredTypes, type CountInputs } from '../analytics/counters.ts';
import { bySmtpOf, bySequenceOf } from '../analytics/breakdowns.ts';
import { bounceBreakdownOf } from '../analytics/bounces.ts';
import { bucketStarts, bucketize, intervalFor, INTERVALS, type Interval } from '../analytics/series.ts';

/** How many campaigns the overview lists in topCampaigns. */
export const TOP_CAMPAIGNS = 5;

function breakdowns(ctx: Ctx): Set<string> {
  // The mutants: only the last of a repeated parameter read; a comma-separated value not split.
  const given = ctx.query.getAll('breakdown');
  const read = ctx.mutant('anlt-breakdown-repeat-last') ? given.slice(-1) : given;
  const unsplit = ctx.mutant('anlt-breakdown-comma-unsplit');
  // The third mutant binds the values without case (`SMTP` read as smtp).
  const vals = read.flatMap((b) => (unsplit ? [b] : b.split(','))).map((b) => (ctx.mutant('anlt-breakdown-case-insensitive') ? b.trim().toLowerCase() : b.trim())).filter(Boolean);
  const bad = vals.filter((b) => !['smtp', 'sequence', 'bounce'].includes(b));
  if (bad.length && !ctx.mutant('anlt-breakdown-unknown-accepted')) throw validationFailed([`breakdown: unknown value(s) ${bad.join(', ')}; use smtp, sequence, bounce`]);
  return new Set(vals);
}

/** What counting needs; `campaignTotals`: for a campaign's own totals (the mutant applies the flag there only). */
function inputs(ctx: Ctx, scope: Scope, w: Window, campaignTotals = false): CountInputs {
  const choice = ctx.services.choices.analytics;
  const flag = w.excludeOutOfOffice && !ctx.mutant('anlt-ooo-always') && (campaignTotals || !ctx.mutant('anlt-ooo-campaign-totals-only'));
  // The second mutant computes the rates of everything but a campaign's own totals from the raw reply count.
  const oooInRate = ctx.mutant('anlt-ooo-rate-kept') || (!campaignTotals && ctx.mutant('anlt-breakdown-ooo-rate-raw'));
  return { choice, excludeOutOfOffice: flag, oooInRate, fractionRates: ctx.mutant('anlt-rates-fraction'), bounced: bouncedKeys(ctx.db, scope, undeliveredTypes(choice)), statuses: leadStatuses(ctx.db, scope) };
}

/** A query refused by a mutant: the parameter it does not know on this endpoint (400). */
function refusedParams(ctx: Ctx, names: readonly string[], refused: boolean): void {
  const given = names.filter((n) => ctx.query.has(n));
  if (refused && given.length) throw validationFailed(given.map((n) => `${n}: unknown query parameter`));
}

/** The context as a handler sees it without any window or flag in its query. */
const withoutWindow = (ctx: Ctx): Ctx => Object.assign(Object.create(ctx) as Ctx, { query: new URLSearchParams([...ctx.query].filter(([k]) => k === 'breakdown')) });

/** The context as a handler sees it without the window (`names`) or the out-of-office flag in its query. */
const withoutParams = (ctx: Ctx, names: readonly string[]): Ctx => Object.assign(Object.create(ctx) as Ctx, { query: new URLSearchParams([...ctx.query].filter(([k]) => !names.includes(k))) });

/** The context as a handler sees it in a workspace whose timezone is UTC (its days cut at UTC midnight). */
const inUtc = (ctx: Ctx): Ctx => Object.assign(Object.create(ctx) as Ctx, { workspace: { ...ctx.workspace, timezone: 'UTC' } });

/** A mailbox's sender display name (what the bySmtp mutant answers as its email). */
function senderName(ctx: Ctx, accountId: string): string {
  const row = ctx.db.prepare('SELECT doc FROM accounts WHERE id = ?').get(accountId) as { doc: string } | undefined;
  return row ? String((JSON.parse(row.doc) as { displayName?: string }).displayName ?? '') : '';
}

export const campaign: Handler = async (ctx) => {
  const c = loadOwned<{ id: string; doc: string }>(ctx, 'campaigns', ctx.params.id!, 'campaign');
  refusedParams(ctx, ['excludeOutOfOffice'], ctx.mutant('anlt-campaign-ooo-refused'));
  // The second mutant reads the window's start only (a query built with `>= start`).
  const w = windowOf(ctx.mutant('anlt-campaign-window-ignored') ? withoutWindow(ctx) : ctx.mutant('anlt-campaign-window-end-ignored') ? withoutParams(ctx, ['endDate']) : ctx);
  const want = ctx.mutant('anlt-breakdown-always') ? new Set(['smtp', 'sequence', 'bounce']) : breakdowns(ctx);
  const scope: Scope = { orgId: ctx.workspace.id, campaignId: c.id };
  const events = eventsIn(ctx.db, scope, w.startMs, w.endMs);
  const x = inputs(ctx, scope, w);
  const out: Record<string, unknown> = { campaignId: c.id, period: periodOf(w), totals: totalsOf(events, inputs(ctx, scope, w, true)) };
  if (want.has('smtp')) out.bySmtp = bySmtpOf(ctx.db, ctx.workspace.id, events, x);
  // The mutant names each bySmtp row by the mailbox's sender display name, not its address.
  if (Array.isArray(out.bySmtp) && ctx.mutant('anlt-bysmtp-email-display-name')) out.bySmtp = out.bySmtp.map((r: { accountId: string }) => ({ ...r, email: senderName(ctx, r.accountId) }));
  // The mutant: the per-step breakdown's rates as fractions of 1 (another query, another serializer).
  const seqX = ctx.mutant('anlt-bysequence-rates-fraction') ? { ...x, fractionRates: true } : x;
  if (want.has('sequence') && !ctx.mutant('anlt-breakdown-sequence-ignored')) out.bySequence = bySequenceOf((JSON.parse(c.doc) as { sequence?: { id: string }[] }).sequence ?? [], events, seqX);
  if (want.has('bounce')) {
    const b = bounceBreakdownOf(events);
    // The mutant builds the counts from grouped rows: once there is a bounce, a count without rows is left out.
    out.bounceBreakdown = ctx.mutant('anlt-bounce-zero-counts-dropped') && b.total > 0 ? Object.fromEntries(Object.entries(b).filter(([, v]) => v !== 0)) : b;
  }
  return ok(out);
};

/** The period the time series and the overview answer: under its mutant, end null when no end was asked (a period built per endpoint). */
function rollupPeriod(ctx: Ctx, w: Window): Record<string, unknown> {
  const p = periodOf(w);
  return ctx.query.get('endDate') === null && ctx.mutant('anlt-rollup-open-end-null') ? { ...p, end: null } : p;
}

/** The context as a handler sees it with the other clamping rule than the one chosen (one day off). */
const otherClamping = (ctx: Ctx): Ctx => {
  const a = ctx.services.choices.analytics;
  const analytics = { ...a, clamping: a.clamping === 'days-before-today' ? 'days-including-today' as const : 'days-before-today' as const };
  return Object.assign(Object.create(ctx) as Ctx, { services: { ...ctx.services, choices: { ...ctx.services.choices, analytics } } });
};

export const timeseries: Handler = async (ctx) => {
  const c = loadOwned<{ id: string }>(ctx, 'campaigns', ctx.params.id!, 'campaign');
  refusedParams(ctx, ['excludeOutOfOffice'], ctx.mutant('anlt-ts-ooo-refused'));
  // The mutant's time series clamps by the other rule than campaign analytics does.
  const w = windowOf(ctx.mutant('anlt-ts-clamp-other-rule') ? otherClamping(ctx) : ctx.mutant('anlt-ts-window-ignored') ? withoutParams(ctx, ['startDate', 'endDate']) : ctx);
  const given = ctx.query.get('interval');
  // The mutant matches the enum without case: `DAY` or `Week` is read as day or week.
  const raw = given !== null && ctx.mutant('anlt-interval-case-insensitive') ? given.toLowerCase() : given;
  if (raw === 'month' && ctx.mutant('anlt-interval-month-refused')) throw validationFailed(['interval: must be one of day, week']);
  if (raw !== null && !INTERVALS.includes(raw as Interval) && !ctx.mutant('anlt-interval-unknown-accepted')) throw validationFailed(['interval: must be one of day, week, month']);
  const asked = (raw as Interval | null) ?? 'day';
  const coarse = intervalFor(asked, w.startMs, w.endMs, w.tz, ctx.services.choices.analytics.coarsening);
  const interval = ctx.mutant('anlt-coarsen-down') && raw !== null ? 'day'
    : ctx.mutant('anlt-never-coarsen') ? asked
    // The mutant coarsens a window asked by day straight to month, without the week between.
    : ctx.mutant('anlt-coarsen-skips-week') && asked === 'day' && coarse === 'week' ? 'month'
    : coarse;
  const scope: Scope = { orgId: ctx.workspace.id, campaignId: c.id };
  const x = inputs(ctx, scope, w);
  // The buckets follow the interval the answer states (the mutants state it but keep the asked one;
  // the sparse one also leaves empty buckets out, a series of the buckets with traffic only).
  // The other mutant cuts the day buckets at UTC midnight, though the window is the workspace's days.
  const sparse = ctx.mutant('anlt-coarsen-label-only-sparse');
  const starts = bucketStarts(w.startMs, w.endMs, ctx.mutant('anlt-coarsen-label-only') || sparse ? asked : interval, ctx.mutant('anlt-ts-buckets-utc') ? 'UTC' : w.tz);
  const buckets = bucketize(eventsIn(ctx.db, scope, w.startMs, w.endMs), starts);
  const data = starts.map((t, i) => pointOf(isoOf(t)!, buckets[i]!, x)).filter((_, i) => !sparse || buckets[i]!.length > 0);
  // The mutant builds its points from the sends, opens and replies only: bounces stay 0 however many there were.
  if (ctx.mutant('anlt-ts-bounces-zero')) for (const p of data as { bounces?: number }[]) p.bounces = 0;
  // The mutant coarsens the points but states the interval asked (the query's value echoed).
  return ok({ campaignId: c.id, period: rollupPeriod(ctx, w), interval: ctx.mutant('anlt-ts-interval-echoes-asked') ? asked : interval, data });
};

export const overview: Handler = async (ctx) => {
  refusedParams(ctx, ['startDate', 'endDate'], ctx.mutant('anlt-ov-window-refused'));
  // The mutants: the window asked ignored (the default window), the flag ignored, the days cut at UTC midnight.
  const ignored = [...(ctx.mutant('anlt-ov-window-ignored') ? ['startDate', 'endDate'] : []), ...(ctx.mutant('anlt-ov-ooo-ignored') ? ['excludeOutOfOffice'] : [])];
  const w = windowOf(ctx.mutant('anlt-ov-days-in-utc') ? inUtc(withoutParams(ctx, ignored)) : withoutParams(ctx, ignored));
  const org = ctx.workspace.id;
  const scope: Scope = { orgId: org };
  const orgs = ctx.mutant('anlt-overview-all-workspaces') ? (ctx.db.prepare('SELECT id FROM workspaces').all() as { id: string }[]).map((r) => r.id) : [org];
  const events = orgs.flatMap((o) => eventsIn(ctx.db, { orgId: o }, w.startMs, w.endMs));
  const x = inputs(ctx, scope, w);
  // The mutant counts drafts and paused campaigns as sending too.
  const activeWhere = ctx.mutant('anlt-overview-active-counts-unsent') ? "status IN ('draft', 'scheduled', 'active', 'paused')" : "status = 'active'";
  const active = ctx.db.prepare(`SELECT COUNT(*) AS n FROM campaigns WHERE org_id = ? AND ${activeWhere}`).get(org) as { n: number };
  const sending = ctx.db.prepare("SELECT COUNT(*) AS n FROM accounts WHERE org_id = ? AND status = 'active'").get(org) as { n: number };
  const byCampaign = new Map<string, typeof events>();
  // The mutant ranks the campaigns by what they sent in all time, whatever the window asked.
  const ranked = ctx.mutant('anlt-ov-topcampaigns-all-time') ? eventsIn(ctx.db, scope, 0, ctx.clock.now()) : events;
  for (const e of ranked) {
    const list = byCampaign.get(e.campaignId);
    if (list) list.push(e);
    else byCampaign.set(e.campaignId, [e]);
  }
  const name = ctx.db.prepare('SELECT name FROM campaigns WHERE id = ? AND org_id = ?');
  const topCampaigns = [...byCampaign]
    .map(([campaignId, es]) => {
      const t = totalsOf(es, x);
      return { campaignId, name: (name.get(campaignId, org) as { name: string } | undefined)?.name ?? '', sent: t.sent, openRate: t.rates.open };
    })
    .filter((t) => t.sent > 0)
    .sort((a, b) => b.sent - a.sent || b.openRate - a.openRate || a.campaignId.localeCompare(b.campaignId))
    // The mutants: the list never filled; a row's name lost (the lookup missed), or its sent left 0.
    .slice(0, ctx.mutant('anlt-ov-topcampaigns-empty') ? 0 : TOP_CAMPAIGNS)
    .map((t) => (ctx.mutant('anlt-ov-topcampaigns-name-lost') ? { ...t, name: '' } : ctx.mutant('anlt-ov-topcampaigns-sent-zero') ? { ...t, sent: 0 } : t));
  // The mutant: the roll-up's totals.rates as fractions of 1 (the workspace query's own serializer).
  const totals = totalsOf(events, ctx.mutant('anlt-ov-rates-fraction') ? { ...x, fractionRates: true } : x);
  return ok({ period: rollupPeriod(ctx, w), totals, activeCampaigns: active.n, sendingAccounts: sending.n, topCampaigns });
};
