import type { CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { expectThat, is2xx } from '../../lib/expect.ts';
import { campaignWithLeads, control } from '../resources/lib.ts';
import { Driver, launch, leadAddresses, leadNow, sendingMailbox, sentBy } from './lib.ts';
import { mailSinks } from '../../lib/sinks.ts';

// Leads with a history (3.3: a contacted lead's email is fixed, a replied lead may take the
// lead_replied_* statuses). The fast path records the history through the control API's
// lead-events extension. Without it the history happens for real: a mailbox at the kit's sinks
// sends each lead a step (contacted), and the sink answers it in that mailbox's inbox, where the
// target finds it by polling IMAP (replied; part 6).

export type LeadHistory = 'contacted' | 'replied';
export interface LeadsWithHistory { cid: string; leads: { id: string; email: string }[]; how: 'lead-events' | 'mail' }

const MINUTE = 60_000;
/** Budget of the way by mail, per lead: its mailbox (create, settle) and, for a reply, the reads until it shows. */
export const MAIL_HISTORY_REQUESTS = 4 + 3 + 18;

/** Records a lead event through the control API's lead-events extension. */
async function leadEvent(ctx: CheckContext, leadId: string, type: LeadHistory): Promise<void> {
  const r = await control(ctx).request('POST', `/leads/${leadId}/events`, { type }, { allowError: true });
  if (!is2xx(r)) fail(msg`setup: the control API's lead-events extension could not record a ${type} event (${r.status}): ${r.text.slice(0, 120)}`, r);
}

/** Whether the control API offers its lead-events extension (GET /capabilities). */
export async function hasLeadEvents(ctx: CheckContext): Promise<boolean> {
  return ctx.control ? (await ctx.control.extensions()).includes('lead-events') : false;
}

/** A campaign of `n` leads, each contacted (or replied), by the control extension or for real. */
export async function leadsWith(ctx: CheckContext, ws: Workspace, n: number, history: LeadHistory): Promise<LeadsWithHistory> {
  if (await hasLeadEvents(ctx)) {
    const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, n);
    for (const l of leads) await leadEvent(ctx, l.id, history);
    return { cid, leads, how: 'lead-events' };
  }
  const imap = history === 'replied';
  if (!mailSinks(ctx) || !ctx.profile.features.sinks || (imap && !ctx.profile.features.imap))
    skip(`needs the control API's lead-events extension, or mail sinks the target can reach (features.sinks${imap ? ' and features.imap' : ''}) to ${imap ? 'have a lead reply' : 'contact a lead'} for real`);
  return byMail(ctx, ws, n, imap);
}

/** Each lead gets its own mailbox (no sending gap between them), a first step, and with `reply` an answer. */
async function byMail(ctx: CheckContext, ws: Workspace, n: number, reply: boolean): Promise<LeadsWithHistory> {
  const boxes = [];
  for (let i = 0; i < n; i++) boxes.push(await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 }, reply));
  const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes));
  // A second step a month later keeps the campaign active: its leads stay in a running sequence.
  const steps = [
    { subject: `Hello ${ctx.prefix}`, body: '<p>Hello</p>' },
    { subject: `Later ${ctx.prefix}`, body: '<p>Later</p>', delayDays: 30 },
  ];
  const c = await launch(ctx, ws, { accounts: boxes.map((b) => b.id), leads: leadAddresses(ctx, n, 'hist'), steps });
  const sent = await drv.until(() => c.leads.every((l) => drv.to(l.email).length > 0), { stepMs: MINUTE, horizonMs: 30 * MINUTE, wallCapMs: 150_000, what: 'the first step reaching every lead' });
  expectThat(sent, msg`setup: the started campaign's first step did not reach its ${n} lead(s) within 30 minutes`, c.res);
  if (reply) {
    for (const l of c.leads) await boxes[0]!.sink.inject.reply(drv.to(l.email)[0]!.m, { body: `Tell me more. ${ctx.prefix}` });
    const replied = new Set<string>();
    let readAt = 0;
    const noticed = await drv.until(
      async () => {
        if (!drv.simulated && Date.now() - readAt < 10_000) return false; // real time: a read every 10 s at most
        readAt = Date.now();
        for (const l of c.leads.filter((x) => !replied.has(x.id))) if (typeof (await leadNow(ctx, ws.api, c.id, l.id))?.lastRepliedAt === 'string') replied.add(l.id);
        return replied.size === c.leads.length;
      },
      { stepMs: 5 * MINUTE, horizonMs: 2 * 60 * MINUTE, wallCapMs: 180_000, inbox: true, what: 'the replies being noticed (lastRepliedAt)' },
    );
    expectThat(noticed, msg`setup: ${c.leads.length - replied.size} of ${n} reply(ies) the sink put in the inbox were not noticed within 2 hours (lastRepliedAt)`);
  }
  return { cid: c.id, leads: c.leads, how: 'mail' };
}
