import { describe, expect, it } from 'vitest';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../cli/cli.test-helper.ts';

// A machine without Dovecot (OUTREACH_DOVECOT=none stands for one): the checks that need an IMAP
// server skip, and the run names that cause for each of them (its first lines, the verdict's line,
// the summary, results.json), with what to install; never a profile field the profile declares.

// One check that reads mail over IMAP, one that needs a mailbox the target verified, one that needs neither.
const CHECKS = '^(VERIF-SINK/background|TEST-EMAIL/dummy|USAGE-COMPUTED)$';

describe('a run on a machine without an IMAP server', () => {
  it('names the missing IMAP server for every skip it causes', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-machine-out-'));
    const r = await cli(['run', '--check', CHECKS, '--out', out], { env: { OUTREACH_DOVECOT: 'none' } });
    expect(r.code, r.stdout + r.stderr).toBe(0);
    // Before the checks: what the machine lacks, the chosen checks it may cost, what to install.
    expect(r.stdout).toMatch(/^this machine: no IMAP server ran \(Dovecot is not installed\) \(IMAP sink unavailable: OUTREACH_DOVECOT=none\); predicted: up to 2 of the 3 chosen checks need one .*apt-get install dovecot-imapd/m);
    expect(r.stdout).toMatch(/^PASS at depth default: .*; INCOMPLETE here: \d+ clauses? skipped because of this machine \(no IMAP server \(Dovecot\)\)$/m);
    expect(r.stdout).not.toMatch(/for want of a profile field/);
    const results = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8')) as {
      checks: { id: string; ran: boolean; verdict: string; machineCause?: string }[];
      machineGaps: { clauses: number; causes: { cause: string; checks: number }[] };
      profileGaps: { clauses: number };
    };
    const skipped = results.checks.filter((c) => c.ran && c.verdict === 'skip');
    expect(skipped.map((c) => c.id).sort()).toEqual(['TEST-EMAIL/dummy', 'VERIF-SINK/background']);
    expect(skipped.every((c) => c.machineCause === 'no-imap-server')).toBe(true);
    expect(results.machineGaps.causes).toEqual([expect.objectContaining({ cause: 'no-imap-server', checks: 2 })]);
    expect(results.profileGaps.clauses).toBe(0);
    expect(results.checks.find((c) => c.id === 'USAGE-COMPUTED')?.verdict).toBe('pass');
    const summary = await readFile(join(out, 'latest', 'summary.md'), 'utf8');
    expect(summary).toMatch(/\*\*This machine:\*\* \d+ clauses? skipped because of this machine, not the target: no IMAP server ran .*install Dovecot/);
    expect(summary).not.toContain('Undeclared in the profile');
  }, 300_000);

  it('plan says it too, and a machine with Dovecot hears nothing of it', async () => {
    const without = await cli(['plan', '--depth', 'quick'], { env: { OUTREACH_DOVECOT: 'none' } });
    expect(without.stdout).toMatch(/^this machine: no IMAP server ran .*predicted: up to [1-9]\d* of the \d+ chosen checks/m);
    const given = await cli(['plan', '--depth', 'quick'], { env: { OUTREACH_DOVECOT: undefined } });
    expect(given.stdout).not.toMatch(/this machine/);
  }, 120_000);
});
