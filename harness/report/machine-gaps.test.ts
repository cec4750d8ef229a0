import { describe, expect, it } from 'vitest';
import { buildResults } from './results.ts';
import { buildSummaryMarkdown, formatConsoleSummary } from './summary.ts';
import { machineGaps } from './machine-gaps.ts';
import { profileGaps } from './profile-gaps.ts';
import { makeInput } from './fixture.test-helper.ts';

// What the machine kept from running (no IMAP server, sinks the target does not reach) is the
// machine's: counted per cause with what to install, said at the top, never a profile field.

describe('clauses skipped because of this machine', () => {
  const skip = (id: string, message: string, machineCause?: 'no-imap-server' | 'sinks-unreachable') => ({ id, verdict: 'skip', message, ...(machineCause ? { machineCause } : {}) });
  const checks = [
    skip('A', 'a mailbox ... is failed after verification, not active: ... (declarations.verificationStatus)', 'no-imap-server'),
    skip('B', 'IMAP sink unavailable: dovecot is not installed', 'no-imap-server'),
    skip('C', 'needs declarations.x'),
    skip('D', 'a mailbox ..., and the SMTP sink saw no login of it', 'sinks-unreachable'),
  ];
  const clauses = [
    { id: 'K1', verdict: 'skip', checks: [checks[0]!] },
    { id: 'K2', verdict: 'skip', checks: [checks[0]!, checks[1]!, checks[2]!] },
    { id: 'K3', verdict: 'skip', checks: [checks[2]!] },
    { id: 'K4', verdict: 'pass', checks: [checks[3]!] }, // proven by another check
  ];

  it('counts per cause, and the profile gaps leave those skips out whatever field their reason names', () => {
    const g = machineGaps(clauses, checks);
    expect(g.clauses).toBe(2);
    expect(g.causes.map(({ cause, clauses, checks }) => ({ cause, clauses, checks }))).toEqual([
      { cause: 'no-imap-server', clauses: 2, checks: 2 },
      { cause: 'sinks-unreachable', clauses: 0, checks: 1 },
    ]);
    expect(g.causes[0]!.fix).toMatch(/apt-get install dovecot-imapd/);
    expect(profileGaps(clauses, checks)).toEqual({ clauses: 2, fields: [{ field: 'declarations.x', clauses: 2, checks: 1 }] });
  });

  it('results.json, the headline, summary.md and the console say the cause and the remedy', () => {
    const input = makeInput();
    input.events = input.events.map((e) =>
      e.type === 'check-end' && e.checkId === 'PAGE-LIMIT-101/GET /v1/api-keys' ? { ...e, message: 'a mailbox with working credentials at the kit\'s sinks is failed after verification, not active (declarations.verificationStatus)', machineCause: 'no-imap-server' as const } : e,
    );
    const r = buildResults(input);
    expect(r.machineGaps.clauses).toBe(1);
    expect(r.profileGaps.clauses).toBe(0);
    const console = formatConsoleSummary(r).split('\n');
    expect(console[1]).toMatch(/^ {2}1 clause skipped because of this machine, not the target: no IMAP server ran \(Dovecot is not installed\) \(1 clause, 1 check; install Dovecot: apt-get install dovecot-imapd/);
    expect(buildSummaryMarkdown(r)).toContain('**This machine:** 1 clause skipped because of this machine');
    expect(buildSummaryMarkdown(r)).not.toContain('Undeclared in the profile');
  });
});
