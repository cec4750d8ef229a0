// The sinks under fuzzed input (harness/fuzz/sinks.ts): the SMTP ports, the sink's HTTP API and
// the IMAPS proxy survive hostile sessions with no crash, no unhandled rejection, no 5xx, no
// lost record and a bounded heap. A CI-sized count here; `npm run fuzz` runs 10,000 per server.
import { describe, expect, it } from 'vitest';
import { formatFigures, runFuzz, type FuzzTarget } from '../fuzz/core.ts';
import { imapsTarget, sinkHttpTarget, smtpTarget } from '../fuzz/sinks.ts';
import { imapUnavailableReason } from './index.ts';

const SEED = Number(process.env.OUTREACH_FUZZ_SEED ?? 20261125);
const missingImap = imapUnavailableReason();
if (missingImap) console.warn(`fuzz.test.ts: the IMAPS proxy case is skipped: ${missingImap}`);

async function holds<I>(make: () => Promise<{ target: FuzzTarget<I>; stop(): Promise<void> } | { unavailable: string }>, runs: number): Promise<void> {
  const started = await make();
  if ('unavailable' in started) throw new Error(started.unavailable);
  try {
    const f = await runFuzz(started.target, { runs, seed: SEED });
    console.log(formatFigures(f));
    expect(f.findings).toEqual([]);
    expect(f.processErrors).toEqual([]);
    expect(f.probes).toBeGreaterThanOrEqual(3);
  } finally {
    await started.stop();
  }
}

describe('sinks under fuzzed input', () => {
  it('SMTP (plain with STARTTLS, implicit TLS): every acknowledged message kept', () => holds(smtpTarget, 150));
  it('the HTTP API: never a 5xx or a hang, probes found through it', () => holds(sinkHttpTarget, 200));
  it.skipIf(!!missingImap)('the IMAPS proxy: delivered mail still found over IMAPS', () => holds(imapsTarget, 150));
});
