import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, msg } from '../../lib/expect.ts';
import { Driver, launch, leadAddresses, sendingMailbox, sentBy, workspaceZone } from '../sending/lib.ts';
import { targetNow } from '../../lib/target-clock.ts';

// Analytics requests with the profile's parameter names (4.6: "Names of the window and
// out-of-office query parameters: not shown"), and calendar arithmetic in the workspace's zone.

export const DAY = 86_400_000;

export interface Window { start?: string; end?: string; excludeOutOfOffice?: boolean }

/** The query string of a window (profile names) plus extra raw parameters (breakdown, interval). */
export function query(ctx: CheckContext, w: Window, extra: [string, string][] = []): string {
  const n = ctx.profile.names.analytics;
  const p = new URLSearchParams();
  if (w.start !== undefined) p.append(n.start, w.start);
  if (w.end !== undefined) p.append(n.end, w.end);
  if (w.excludeOutOfOffice !== undefined) p.append(n.excludeOutOfOffice, String(w.excludeOutOfOffice));
  for (const [k, v] of extra) p.append(k, v);
  const s = p.toString();
  return s ? `?${s}` : '';
}

/**
 * A window with only a start, a week before the target's today in UTC: for a request whose point is
 * not the window. 4.6 states a default for the end alone ("defaults to now"), so a target may
 * require the start; the end is left to its stated default.
 */
export async function weekStart(ctx: CheckContext): Promise<Window> {
  return { start: new Date((await targetNow(ctx)) - 7 * DAY).toISOString().slice(0, 10) };
}

export function campaignAnalytics(ctx: CheckContext, api: ApiClient, id: string, w: Window = {}, extra: [string, string][] = []): Promise<ApiResponse> {
  return api.get(`/v1/campaigns/${id}/analytics${query(ctx, w, extra)}`);
}

export function timeseries(ctx: CheckContext, api: ApiClient, id: string, w: Window = {}, interval?: string): Promise<ApiResponse> {
  return api.get(`/v1/campaigns/${id}/analytics/timeseries${query(ctx, w, interval ? [['interval', interval]] : [])}`);
}

export function overview(ctx: CheckContext, api: ApiClient, w: Window = {}): Promise<ApiResponse> {
  return api.get(`/v1/campaigns/analytics/overview${query(ctx, w)}`);
}

// ---------------------------------------------------------------------------------------------
// Calendar days in a timezone
// ---------------------------------------------------------------------------------------------

interface Parts { year: number; month: number; day: number; hour: number; minute: number; second: number }

function partsIn(ms: number, timeZone: string): Parts {
  const f = new Intl.DateTimeFormat('en-GB', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' });
  const get = (t: string) => Number(f.formatToParts(new Date(ms)).find((p) => p.type === t)?.value);
  return { year: get('year'), month: get('month'), day: get('day'), hour: get('hour'), minute: get('minute'), second: get('second') };
}

/** The local calendar date of an instant, as YYYY-MM-DD. */
export function localDate(ms: number, timeZone: string): string {
  const p = partsIn(ms, timeZone);
  return `${p.year}-${String(p.month).padStart(2, '0')}-${String(p.day).padStart(2, '0')}`;
}

/** The instant local midnight begins the date `ymd` in `timeZone`. */
export function localMidnight(ymd: string, timeZone: string): number {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  let t = wall;
  for (let i = 0; i < 3; i++) {
    const p = partsIn(t, timeZone);
    const offset = Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - t;
    t = wall - offset;
  }
  return t;
}

/** The date `n` days after `ymd` (calendar arithmetic, no zone). */
export function addDays(ymd: string, n: number): string {
  const [y, m, d] = ymd.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + n)).toISOString().slice(0, 10);
}

/** The target's time now (the control clock, or its answers' Date header): suites/lib/target-clock.ts. */
export { targetNow } from '../../lib/target-clock.ts';

// ---------------------------------------------------------------------------------------------
// Traffic
// ---------------------------------------------------------------------------------------------

export interface Traffic {
  ws: Workspace;
  zone: string;
  campaignId: string;
  /** campaign emails the sink received, per mailbox id */
  sentBy: Map<string, number>;
  sent: number;
  mailboxes: { id: string; address: string }[];
}

/** A campaign of `leads` leads over two mailboxes whose first step reached every lead (real time suffices). */
export async function trafficCampaign(ctx: CheckContext, leads = 3, ws?: Workspace): Promise<Traffic> {
  ws ??= await ctx.workspace();
  const boxes = [await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 }), await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 })];
  const addresses = leadAddresses(ctx, leads);
  // A second step a day later keeps the campaign sending (active) while the check reads it.
  const steps = [{ subject: `Analytics ${ctx.prefix}`, body: '<p>Numbers</p>' }, { subject: `Analytics again ${ctx.prefix}`, body: '<p>More</p>', delayDays: 1 }];
  const c = await launch(ctx, ws, { accounts: boxes.map((b) => b.id), leads: addresses, steps });
  const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes));
  const all = await drv.until(() => addresses.every((a) => drv.to(a).length > 0), { stepMs: 60_000, horizonMs: 20 * 60_000, wallCapMs: 120_000, what: `the first step to ${leads} leads` });
  expectThat(all, msg`setup: the started campaign's step did not reach its ${leads} leads within 20 minutes (2 mailboxes, gap 1 minute)`, c.res);
  const per = new Map<string, number>();
  for (const b of boxes) per.set(b.id, drv.arrivals((m) => m.session.authUser === b.smtpUser).length);
  return { ws, zone: await workspaceZone(ws), campaignId: c.id, sentBy: per, sent: drv.arrivals().length, mailboxes: boxes.map((b) => ({ id: b.id, address: b.address })) };
}

/** GET with a 2xx required. */
export async function ok2xx(res: Promise<ApiResponse>, what: string): Promise<ApiResponse> {
  const r = await res;
  expect2xx(r, what);
  return r;
}
