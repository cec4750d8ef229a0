import { MACHINE_CAUSES, isMachineCause, type MachineCause } from '../ground/machine-causes.ts';

// Clauses a run skipped because of the machine it ran on (no IMAP server, sinks the target did
// not reach: harness/ground/machine-causes.ts), counted per cause with what to install. They are
// not the profile's gaps (profile-gaps.ts leaves them out), and a run says them at its top.

export interface MachineGaps {
  /** Clauses skipped, each with at least one check this machine skipped. */
  clauses: number;
  /** Per cause: its name, its remedy, and the clauses and checks it skipped; most clauses first. */
  causes: { cause: MachineCause; name: string; fix: string; clauses: number; checks: number }[];
}

interface Check { id: string; verdict: string; machineCause?: MachineCause }
interface Clause { id: string; verdict: string; checks: { id: string; verdict: string }[] }

export function machineGaps(clauses: readonly Clause[], checks: readonly Check[]): MachineGaps {
  const causeOf = new Map(checks.filter((c) => c.verdict === 'skip' && isMachineCause(c.machineCause)).map((c) => [c.id, c.machineCause!]));
  const checksOf = new Map<MachineCause, number>();
  for (const cause of causeOf.values()) checksOf.set(cause, (checksOf.get(cause) ?? 0) + 1);
  const clausesOf = new Map<MachineCause, Set<string>>();
  let count = 0;
  for (const cl of clauses) {
    if (cl.verdict !== 'skip') continue;
    const causes = new Set(cl.checks.map((x) => causeOf.get(x.id)).filter((c): c is MachineCause => c !== undefined));
    if (causes.size) count++;
    for (const c of causes) (clausesOf.get(c) ?? clausesOf.set(c, new Set()).get(c)!).add(cl.id);
  }
  const causes = [...checksOf.entries()]
    .map(([cause, n]) => ({ cause, name: MACHINE_CAUSES[cause].name, fix: MACHINE_CAUSES[cause].fix, clauses: clausesOf.get(cause)?.size ?? 0, checks: n }))
    .sort((a, b) => b.clauses - a.clauses || b.checks - a.checks || a.cause.localeCompare(b.cause));
  return { clauses: count, causes };
}

/** "122 clauses skipped because of this machine: no IMAP server ran (...) (122 clauses, 49 checks; install Dovecot: ...)" */
export function machineGapsText(g: MachineGaps): string {
  const list = g.causes.map((c) => `${c.name} (${c.clauses} clause${c.clauses === 1 ? '' : 's'}, ${c.checks} check${c.checks === 1 ? '' : 's'}; ${c.fix})`);
  return `${g.clauses} clause${g.clauses === 1 ? '' : 's'} skipped because of this machine, not the target: ${list.join('; ')}`;
}

/** For a headline: "122 clauses skipped because of this machine (no IMAP server (Dovecot))". */
export function machineGapsShort(g: MachineGaps): string {
  return `${g.clauses} clause${g.clauses === 1 ? '' : 's'} skipped because of this machine (${g.causes.map((c) => MACHINE_CAUSES[c.cause].short).join(', ')})`;
}
