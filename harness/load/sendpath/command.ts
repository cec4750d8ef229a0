import type { LoadTarget } from '../target.ts';
import { resolveSecret } from '../../ground/profile.ts';
import { KitError } from '../../ground/errors.ts';
import { startSinks } from '../../sinks/index.ts';
import { encode, newHistogram } from '../report/histogram.ts';
import type { LoadReport } from '../report/types.ts';
import { runSendpathLoad } from './sendpath.ts';
import { parseDuration } from '../../ground/units.ts';

// `load sendpath`: the kit's mail sinks, the target's mailboxes logging in to them, and the
// send-path load; the report's figures are what arrived at the sink.

export interface SendpathCommandInput extends LoadTarget {
  flags: Record<string, any>;
  progress: { update(p: { elapsedMs: number; totalMs?: number; text: string }): void };
  say(s: string): void;
  /** shard k of n: its own slice of the mailboxes and leads, its own sinks (`load merge` sums the shards) */
  shard?: { index: number; of: number };
  run?: string;
  /** told the expected and arrived emails as they change, and the duplicates and losses at the end (the --metrics outputs) */
  onDelivery?(d: { expected: number; delivered: number; duplicates?: number; losses?: number }): void;
}

/** Shard k's part of `total` things split n ways (the first total % n shards take one more). */
export function shareOf(total: number, shard?: { index: number; of: number }): number {
  if (!shard) return total;
  return Math.floor(total / shard.of) + (shard.index <= total % shard.of ? 1 : 0);
}

export async function runSendpathCommand(i: SendpathCommandInput): Promise<Omit<LoadReport, 'schemaVersion' | 'kind' | 'runId' | 'environment' | 'thresholds' | 'ok'>> {
  const { profile, flags } = i;
  if (!profile.embedded && !profile.features.sinks)
    throw new KitError('load sendpath needs a target whose mailboxes can reach the kit\'s mail sinks: declare "features": { "sinks": true } and "sinks": { "host": <the address your target reaches this machine at> } in the profile');
  const apiKey = i.control ? undefined : profile.workspaces[0] ? resolveSecret(profile.workspaces[0].apiKey, 'workspaces.0.apiKey') : undefined;
  if (apiKey) i.redactor.add(apiKey);
  const maxWallMs = parseDuration(flags['max-wall'] ?? '10m', '--max-wall');
  const totalMailboxes = flags.mailboxes ?? 100;
  const totalLeads = flags.leads ?? 2000;
  // The last shard has the smallest share: it must have a mailbox and a lead.
  if (i.shard && (shareOf(totalMailboxes, { index: i.shard.of, of: i.shard.of }) < 1 || shareOf(totalLeads, { index: i.shard.of, of: i.shard.of }) < 1))
    throw new KitError(`--shard ${i.shard.index}/${i.shard.of}: ${totalMailboxes} mailboxes and ${totalLeads} leads leave a shard with none; give at least ${i.shard.of} of each`);
  const sink = await startSinks({ host: profile.sinks?.host ?? '127.0.0.1', requireAuth: true, maxLifetimeMs: maxWallMs + 5 * 60_000 });
  const startedAt = new Date();
  try {
    i.say(`sinks: SMTP ${sink.smtp.host}:${sink.smtp.port}${sink.imap ? `, IMAP ${sink.imap.host}:${sink.imap.port}` : ` (no IMAP: ${sink.imapUnavailableReason})`}`);
    const r = await runSendpathLoad({
      baseUrl: i.baseUrl,
      profile,
      control: i.control,
      apiKey,
      sink,
      mailboxes: shareOf(totalMailboxes, i.shard),
      leads: shareOf(totalLeads, i.shard),
      campaigns: flags.campaigns,
      gapMinutes: flags.gap,
      capPerDay: flags.cap,
      steps: flags.steps,
      maxWallMs,
      seed: i.seed + (i.shard ? i.shard.index * 7919 : 0),
      onProgress: (p) => {
        i.onDelivery?.({ expected: p.expected, delivered: p.sent });
        i.progress.update({ elapsedMs: p.wallMs, totalMs: maxWallMs, text: `arrived ${p.sent}/${p.expected}${p.simulatedMinutes !== undefined ? `  simulated ${(p.simulatedMinutes / 60).toFixed(1)} h` : ''}` });
      },
    });
    const none = encode(newHistogram());
    const counts: Record<string, number> = {};
    for (const v of r.violations) counts[v.rule] = (counts[v.rule] ?? 0) + 1;
    const s = r.stats;
    i.onDelivery?.({ expected: r.expected, delivered: r.delivered, duplicates: s.duplicates, losses: s.losses });
    return {
      startedAt: startedAt.toISOString(),
      finishedAt: new Date().toISOString(),
      plan: {
        durationMs: r.wallMs,
        intended: r.expected,
        workspaces: 1,
        mix: {},
        ...(i.shard ? { shard: `${i.shard.index}/${i.shard.of}` } : {}),
        ...(i.run ? { run: i.run } : {}),
        schedule: { mailboxes: totalMailboxes, leads: totalLeads, campaigns: r.campaigns },
      },
      // Emails, not API requests: sent = expected at the sink, completed = arrived, throughput = emails per wall second.
      totals: { sent: r.expected, completed: r.delivered, late: 0, errors: r.expected - r.delivered, status: {}, throughput: Math.round(s.emailsPerWallSecond * 10) / 10, corrected: none, service: none },
      endpoints: [],
      flows: {},
      timeline: [],
      violations: r.violations,
      violationCounts: counts,
      sendpath: s,
      notes: [
        `stopped: ${r.stopped}; ${r.delivered} of ${r.expected} expected emails arrived; ${r.campaigns} campaign(s) sharing ${s.mailboxes.length} mailboxes, gap ${r.gapMinutes} min, cap ${r.capPerDay}/day, ${r.steps} step(s), days in ${r.timezone}`,
        ...r.notes,
      ],
    };
  } finally {
    await sink.stop();
  }
}
