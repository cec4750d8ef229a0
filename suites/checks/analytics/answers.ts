import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { expectSchema, expectThat, msg } from '../../lib/expect.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, launch, leadAddresses, sendingMailbox, sentBy, workspaceZone } from '../sending/lib.ts';
import { addDays, campaignAnalytics, localDate, ok2xx, overview, targetNow, timeseries } from './lib.ts';
import { campaignAnalyticsFor } from '../../../harness/ground/spec-model/schemas/index.ts';

// What leads answer, in the numbers (4.6 out-of-office flag, 2.10 bounceBreakdown): the sink puts
// a reply, an out-of-office auto-reply and a bounce into the mailbox's IMAP inbox; once the target
// has polled them, analytics must count each as the spec says.

const FEATURES = ['control', 'sinks', 'imap', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;

/**
 * Four leads emailed; the first replies, the second is out of office, the third bounces; returns
 * once the reply shows. `overviewBefore`: the workspace overview with the out-of-office flag from
 * the day before the sends, read before the answers arrive (the overview counts the whole workspace).
 */
async function answered(ctx: CheckContext, overviewBefore = false) {
  const ws = await ctx.workspace();
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1 }, true);
  const addresses = leadAddresses(ctx, 4);
  const c = await launch(ctx, ws, { accounts: [box.id], leads: addresses, steps: [{ subject: `Answers ${ctx.prefix}`, body: '<p>Answers</p>' }] });
  const drv = new Driver(ctx, box.sink, sentBy(box));
  const sent = await drv.until(() => addresses.every((a) => drv.to(a).length > 0), { stepMs: MINUTE, horizonMs: 20 * MINUTE, what: 'the step to 4 leads' });
  expectThat(sent, msg`setup: the step did not reach its 4 leads within 20 minutes (gap 1 minute)`, c.res);
  const [r, o, b] = addresses.map((a) => drv.to(a)[0]!.m);
  const zone = await workspaceZone(ws);
  // From the day before the sends to the target's today at each read: the wait may cross midnight.
  const start = addDays(localDate(await targetNow(ctx), zone), -1);
  const before = overviewBefore ? await ok2xx(overview(ctx, ws.api, { start, excludeOutOfOffice: true }), 'the overview with the out-of-office flag before the answers') : undefined;
  await box.sink.inject.reply(r!, { body: `Interested. ${ctx.prefix}` });
  await box.sink.inject.outOfOffice(o!);
  await box.sink.inject.bounce(b!);
  let w = { start, end: localDate(await targetNow(ctx), zone) };
  let last: ApiResponse | undefined;
  let polls = 0;
  // Until the real reply and the bounce are counted (an auto-reply may or may not count by default).
  await drv.until(
    async () => {
      if (++polls % 2 !== 1) return false;
      w = { start, end: localDate(await targetNow(ctx), zone) };
      last = await campaignAnalytics(ctx, ws.api, c.id, { ...w, excludeOutOfOffice: true }, [['breakdown', 'bounce']]);
      return (last.body?.totals?.replies ?? 0) >= 1 && (last.body?.totals?.bounces ?? 0) >= 1;
    },
    { stepMs: 5 * MINUTE, horizonMs: 2 * 60 * MINUTE, inbox: true, what: 'the answers being counted' },
  );
  return { ws, c, w, last, start, before };
}

/** What the reply rate may be taken over: the declared base (declarations.analytics.rateBase), or delivered or sent. */
function replyRateBases(ctx: CheckContext, totals: { sent: number; delivered: number }): number[] {
  const base = ctx.profile.declarations.analytics?.rateBase;
  if (base === 'delivered') return [totals.delivered];
  if (base === 'sent') return [totals.sent];
  return [totals.delivered, totals.sent];
}

/** A reply rate that is the totals' own replies over one of their bases (percent, 2.10; within rounding). */
function replyRateOf(ctx: CheckContext, t: { sent: number; delivered: number; replies: number; rates?: { reply?: number } }): boolean {
  const rate = t.rates?.reply;
  return replyRateBases(ctx, t).some((b) => (b > 0 ? typeof rate === 'number' && Math.abs(rate - (100 * t.replies) / b) <= 0.5 : t.replies === 0));
}

export const ANSWER_CHECKS: Check[] = [
  {
    id: 'ANLT/out-of-office',
    title: 'MUST leave out-of-office auto-replies out of replies and the reply rate when the flag is set (campaign totals, per mailbox and per step, the time series and the overview), and count a hard bounce in bounceBreakdown, every count of it present',
    // ANLT-OV-QUERY: the overview's out-of-office flag is shown to take effect here (its window in ANLT/overview-answer).
    // ANLT-PARAMS-PROFILE: the flag, sent by the profile's name, takes effect (the auto-reply leaves replies).
    // ANLT-BOUNCE-FIELDS: every count of bounceBreakdown is typed after a real bounce (the schema), where
    // counts of 0 sit beside counts of 1; ANLT/campaign-answer reads it only without bounces.
    // ANLT-TS-BOUNCES-UNSUBS: the time series over the window holds the hard bounce.
    clauses: ['ANLT-OOO-REPLIES', 'ANLT-OOO-RATE', 'ANLT-BOUNCE-BYCATEGORY', 'ANLT-BOUNCE-FIELDS', 'ANLT-OV-QUERY', 'ANLT-PARAMS-PROFILE', 'ANLT-TS-BOUNCES-UNSUBS'],
    level: 'MUST',
    features: [...FEATURES],
    solo: true,
    budget: 73,
    async run(ctx) {
      const { ws, c, w, last, start, before } = await answered(ctx, true);
      expectThat(last && (last.body?.totals?.replies ?? 0) >= 1 && (last.body?.totals?.bounces ?? 0) >= 1, msg`within 2 hours of a lead's reply and a bounce, analytics count replies ${last?.body?.totals?.replies} and bounces ${last?.body?.totals?.bounces}`, last);
      const excluded = await ok2xx(campaignAnalytics(ctx, ws.api, c.id, { ...w, excludeOutOfOffice: true }, [['breakdown', 'bounce,smtp,sequence']]), 'analytics with the out-of-office flag');
      const included = await ok2xx(campaignAnalytics(ctx, ws.api, c.id, { ...w, excludeOutOfOffice: false }), 'analytics without the out-of-office flag');
      const [x, i] = [excluded.body.totals, included.body.totals];
      expectThat(x.replies === 1, msg`with the out-of-office flag, replies must count the one real reply (an auto-reply and a bounce are not replies), got ${x.replies}`, excluded);
      expectThat(x.rates.reply <= i.rates.reply, msg`leaving auto-replies out cannot raise the reply rate: ${x.rates.reply} with the flag, ${i.rates.reply} without`, excluded, included);
      if (i.replies > x.replies) expectThat(x.rates.reply < i.rates.reply, msg`with the flag ${i.replies - x.replies} auto-repl(y/ies) left the reply count, so the reply rate must drop too: ${x.rates.reply} with, ${i.rates.reply} without`, excluded, included);
      // Whatever is counted without the flag, the rate with it is the one real reply over the base (percent, 2.10).
      const bases = replyRateBases(ctx, x);
      expectThat(bases.some((b) => b > 0 && Math.abs(x.rates.reply - (100 * x.replies) / b) <= 0.5), msg`with the out-of-office flag the reply rate must count the one real reply alone: ${x.replies} reply over ${bases.join(' or ')} is ${bases.map((b) => (b ? ((100 * x.replies) / b).toFixed(2) : '-')).join(' or ')} %, got ${x.rates.reply}`, excluded);
      expectSchema(excluded, campaignAnalyticsFor(['bounce', 'smtp', 'sequence']), 'analytics with breakdown=bounce,smtp,sequence');
      // Elsewhere the flag leaves the auto-reply out too: one real reply at most (one mailbox, one step).
      for (const key of ['bySmtp', 'bySequence'] as const) {
        const sum = (excluded.body[key] as any[]).reduce((n, e) => n + (e.totals?.replies ?? 0), 0);
        expectThat(sum <= 1, msg`with the out-of-office flag the ${key} entries' replies must leave the auto-reply out: one real reply was received, they count ${sum}`, excluded);
        // Their reply rates too: each one its own reply count over its own base (a rate from the raw count keeps the auto-reply).
        const off = (excluded.body[key] as any[]).filter((e) => e.totals && !replyRateOf(ctx, e.totals));
        expectThat(off.length === 0, msg`with the out-of-office flag each ${key} entry's reply rate must be its replies over its base: ${off.map((e) => `replies ${e.totals.replies} of sent ${e.totals.sent}, delivered ${e.totals.delivered}, rate ${e.totals.rates?.reply}`).join('; ')}`, excluded);
      }
      const ts = await ok2xx(timeseries(ctx, ws.api, c.id, { ...w, excludeOutOfOffice: true }, 'day'), 'the time series by day with the out-of-office flag');
      const inSeries = (ts.body?.data ?? []).reduce((n: number, p: any) => n + (p?.replies ?? 0), 0);
      expectThat(inSeries <= 1, msg`with the out-of-office flag the time series' replies must leave the auto-reply out: one real reply was received, its points count ${inSeries}`, ts);
      // The series includes bounces (4.6): the hard bounce the campaign totals counted is in its points.
      const bouncedInSeries = (ts.body?.data ?? []).reduce((n: number, p: any) => n + (p?.bounces ?? 0), 0);
      expectThat(bouncedInSeries >= 1, msg`the time series includes bounces: a hard bounce was counted in the campaign's totals, its points count ${bouncedInSeries}`, ts);
      const ov = await ok2xx(overview(ctx, ws.api, { start, excludeOutOfOffice: true }), 'the overview with the out-of-office flag');
      const added = (ov.body?.totals?.replies ?? NaN) - (before!.body?.totals?.replies ?? NaN);
      expectThat(added <= 1, msg`with the out-of-office flag the overview's replies must leave the auto-reply out: since before the answers (from ${start}) one real reply and one auto-reply arrived, its totals.replies went from ${before!.body?.totals?.replies} to ${ov.body?.totals?.replies}`, before!, ov);
      const t = ov.body?.totals;
      expectThat(!t?.rates || replyRateOf(ctx, t), msg`with the out-of-office flag the overview's reply rate must be its replies over its base: replies ${t?.replies} of sent ${t?.sent}, delivered ${t?.delivered}, rate ${t?.rates?.reply}`, ov);
      const bb = excluded.body.bounceBreakdown;
      // 2.10 gives byCategory's shape, not that every bounce is categorised: only the total is held.
      expectThat(bb.total >= 1, msg`a bounce was counted (bounces ${x.bounces}), so bounceBreakdown.total must count it, got ${JSON.stringify(bb)}`, excluded);
    },
  },
  {
    id: 'ANLT/out-of-office-default',
    title: 'SHOULD count an out-of-office auto-reply as a reply when the flag is not set',
    clauses: ['ANLT-OOO-DEFAULT'],
    level: 'SHOULD',
    features: [...FEATURES],
    solo: true,
    budget: 70,
    async run(ctx) {
      const { ws, c, w } = await answered(ctx);
      const included = await ok2xx(campaignAnalytics(ctx, ws.api, c.id, { ...w }), 'analytics without the out-of-office flag');
      expectThat(included.body?.totals?.replies === 2, msg`without the flag the real reply and the auto-reply should both count, replies is ${included.body?.totals?.replies}`, included);
    },
  },
];
