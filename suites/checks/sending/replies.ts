import type { ApiClient } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, msg } from '../../lib/expect.ts';
import { allLeads, mutateBody } from '../resources/lib.ts';
import { fail } from '../../../harness/ground/check.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, awayFromMidnight, launchedAtOnce, leadAddresses, leadNow, sendingMailbox, sentBy, type SendingMailbox } from './lib.ts';

// Leads answer over IMAP: the kit's sink puts a reply threaded on the email the lead received
// into the sending mailbox's inbox, and the target finds it by polling (part 6: no events).
// Then the API must show it (2.6 lastRepliedAt, 3.3 replied statuses, 2.5 stopOnReply).

const FEATURES = ['control', 'sinks', 'imap', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

const stepOf = (subject: string | null) => /Step(\d+)/.exec(subject ?? '')?.[1];

/** Injects a reply from `lead` to the first email it received, then moves time until the target shows lastRepliedAt. */
async function replyAndWait(ctx: CheckContext, drv: Driver, box: SendingMailbox, api: ApiClient, campaignId: string, lead: { id: string; email: string }): Promise<any> {
  const [first] = drv.to(lead.email);
  expectThat(first, msg`nothing reached ${lead.email} to reply to`);
  await box.sink.inject.reply(first.m, { body: `Thanks, tell me more. ${ctx.prefix}` });
  let seen: any;
  let polls = 0;
  await drv.until(
    async () => {
      if (++polls % 2 !== 1) return false;
      seen = await leadNow(ctx, api, campaignId, lead.id);
      return typeof seen?.lastRepliedAt === 'string';
    },
    { stepMs: 5 * MINUTE, horizonMs: 2 * HOUR, inbox: true, what: 'the reply being noticed' },
  );
  return seen;
}

/** A mailbox with IMAP at the sinks, time away from midnight, and a started campaign of `leads` leads and 2 steps (1 hour apart). */
async function repliedScenario(ctx: CheckContext, stopOnReply: boolean, leads: number) {
  const ws = await ctx.workspace();
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 }, true);
  const drv = new Driver(ctx, box.sink, sentBy(box));
  // The schedule is open all day in UTC: its minutes are kept clear of UTC's midnight (a few emails stay far below any daily cap).
  await awayFromMidnight(ctx, drv, ['UTC'], 60, 5 * 60);
  const addresses = leadAddresses(ctx, leads, stopOnReply ? 'stop' : 'go');
  const steps = [
    { subject: `Step0 ${ctx.prefix}`, body: '<p>First step</p>' },
    { subject: `Step1 ${ctx.prefix}`, body: '<p>Second step</p>', delayDays: 0, delayHours: 2 },
  ];
  // Created and launched in one request; its leads listed once, for their ids.
  const launched = await launchedAtOnce(ctx, ws, { accounts: [box.id], leads: addresses, steps, settings: { stopOnReply } });
  const listed = (await allLeads(ctx, ws.api, launched.id)).map((l: any) => ({ id: l.id as string, email: String(l.email).toLowerCase() }));
  const c = { ...launched, leads: addresses.map((a) => listed.find((l) => l.email === a) ?? fail(msg`setup: the campaign created with lead ${a} does not list it`, launched.res)) };
  const ok = await drv.until(() => addresses.every((a) => drv.to(a).length >= 1), { stepMs: MINUTE, horizonMs: 30 * MINUTE, what: 'the first step to every lead' });
  expectThat(ok, msg`the first step did not reach all ${leads} leads within 30 minutes (gap 1 minute)`, c.res);
  return { ws, box, drv, c };
}

export const REPLY_CHECKS: Check[] = [
  {
    id: 'REPLY/stop-on-reply',
    title: 'SHOULD send no further step to a lead who replied when stopOnReply is true, and go on sending to the others; the lead shows lastRepliedAt',
    clauses: ['CAMP-SETTINGS-STOPONREPLY-BEHAVIOUR', 'LEAD-LASTREPLIEDAT-SET'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 60,
    async run(ctx) {
      const { ws, box, drv, c } = await repliedScenario(ctx, true, 2);
      const [replier, other] = c.leads as [{ id: string; email: string }, { id: string; email: string }];
      const seen = await replyAndWait(ctx, drv, box, ws.api, c.id, replier);
      expectThat(typeof seen?.lastRepliedAt === 'string', msg`within 2 hours of the lead's reply its lastRepliedAt is ${JSON.stringify(seen?.lastRepliedAt)}: the reply was not noticed`);
      expectThat((seen.metrics?.replied ?? 0) >= 1, msg`a lead that replied should count it in metrics.replied, got ${JSON.stringify(seen.metrics)}`);
      await drv.until(() => drv.to(other.email).length >= 2, { stepMs: 5 * MINUTE, horizonMs: 3 * HOUR, what: 'the second step to the lead that did not reply' });
      await drv.until(() => false, { stepMs: 15 * MINUTE, horizonMs: HOUR, what: 'a quiet hour' });
      const toReplier = drv.to(replier.email).filter((a) => stepOf(a.m.subject) === '1');
      const toOther = drv.to(other.email).filter((a) => stepOf(a.m.subject) === '1');
      expectThat(toOther.length === 1, msg`the lead that did not reply should receive step 2 once, got it ${toOther.length} times`);
      expectThat(toReplier.length === 0, msg`with stopOnReply the lead that replied should receive no further step, it received step 2`);
    },
  },
  {
    id: 'REPLY/no-stop-without-setting',
    title: 'SHOULD go on sending the sequence to a lead who replied when stopOnReply is false',
    clauses: ['CAMP-SETTINGS-STOPONREPLY-BEHAVIOUR'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 50,
    async run(ctx) {
      const { ws, box, drv, c } = await repliedScenario(ctx, false, 1);
      const [replier] = c.leads as [{ id: string; email: string }];
      const seen = await replyAndWait(ctx, drv, box, ws.api, c.id, replier);
      expectThat(typeof seen?.lastRepliedAt === 'string', msg`within 2 hours of the lead's reply its lastRepliedAt is ${JSON.stringify(seen?.lastRepliedAt)}: the reply was not noticed`);
      await drv.until(() => drv.to(replier.email).length >= 2, { stepMs: 5 * MINUTE, horizonMs: 3 * HOUR, what: 'the second step' });
      const step2 = drv.to(replier.email).filter((a) => stepOf(a.m.subject) === '1');
      expectThat(step2.length === 1, msg`with stopOnReply false a lead that replied should still receive step 2 once, got it ${step2.length} times`);
    },
  },
  {
    id: 'REPLY/status-settable',
    title: 'MUST accept a lead_replied_* status and lead_converted, by PATCH and by mutate set_status, for a lead once its real reply has reached the mailbox, and lead_lost and blacklisted after it',
    clauses: ['STATE-LEAD-REPLIED-AFTER-REPLY', 'STATE-LEAD-USER-SETTABLE', 'STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-BLACKLISTED-ANYTIME', 'LEAD-MUTATE-SET-STATUS-EFFECT', 'STATE-LEAD-RULES-BOTH-PATHS'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 42,
    async run(ctx) {
      const { ws, box, drv, c } = await repliedScenario(ctx, true, 1);
      const [replier] = c.leads as [{ id: string; email: string }];
      const seen = await replyAndWait(ctx, drv, box, ws.api, c.id, replier);
      expectThat(typeof seen?.lastRepliedAt === 'string' || (seen?.metrics?.replied ?? 0) >= 1, msg`within 2 hours the target shows no sign of the lead's reply (lastRepliedAt ${JSON.stringify(seen?.lastRepliedAt)}, metrics ${JSON.stringify(seen?.metrics)})`);
      const r = await ws.api.patch(`/v1/campaigns/${c.id}/leads/${replier.id}`, { status: 'lead_replied_interested' });
      expect2xx(r, 'PATCH status lead_replied_interested for a lead that has replied');
      const after = await leadNow(ctx, ws.api, c.id, replier.id);
      expectThat(after.status === 'lead_replied_interested', msg`the lead that replied should now have status lead_replied_interested, it has ${JSON.stringify(after.status)}`, r);
      // Both kinds of 3.3's replied statuses by PATCH: lead_converted too (a list by the lead_replied_ prefix misses it).
      const conv = await ws.api.patch(`/v1/campaigns/${c.id}/leads/${replier.id}`, { status: 'lead_converted' });
      expect2xx(conv, 'PATCH status lead_converted for a lead that has replied');
      expectThat(conv.body?.status === 'lead_converted', msg`PATCH status lead_converted for the lead that replied must set it, the answer says ${JSON.stringify(conv.body?.status)}`, conv);
      // The other way of setting them (3.3 holds for both): mutate set_status, each kind read back.
      for (const s of ['lead_replied_meeting_request', 'lead_converted']) {
        const m = await ws.api.post(`/v1/campaigns/${c.id}/leads/mutate`, mutateBody(ctx.profile, 'set_status', { ids: [replier.id] }, s));
        expect2xx(m, `mutate set_status ${s} for a lead that has replied`);
        const set = await leadNow(ctx, ws.api, c.id, replier.id);
        expectThat(set.status === s, msg`mutate set_status ${s} for the lead that replied must set it, the lead has ${JSON.stringify(set.status)} (mutate answered ${JSON.stringify(m.body)?.slice(0, 200)})`, m);
      }
      // lead_lost any time (3.3): also after a reply, from a replied status.
      const lost = await ws.api.patch(`/v1/campaigns/${c.id}/leads/${replier.id}`, { status: 'lead_lost' });
      expect2xx(lost, 'PATCH status lead_lost for a lead that has replied (lead_lost: any time)');
      expectThat(lost.body?.status === 'lead_lost', msg`lead_lost may be set any time: after the reply the PATCH answers status ${JSON.stringify(lost.body?.status)}`, lost);
      // blacklisted any time too (3.3): after the reply as well.
      const black = await ws.api.patch(`/v1/campaigns/${c.id}/leads/${replier.id}`, { status: 'blacklisted' });
      expect2xx(black, 'PATCH status blacklisted for a lead that has replied (blacklisted: any time)');
      expectThat(black.body?.status === 'blacklisted', msg`blacklisted may be set any time: after the reply the PATCH answers status ${JSON.stringify(black.body?.status)}`, black);
    },
  },
];
