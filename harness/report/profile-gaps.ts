// Clauses a run skipped because the profile left something undeclared: a referenced operation, a
// name or a shape the spec does not give (declarations.*), or a feature. A correct target that
// never declared them loses that coverage silently unless the report says so at the top.

/** A profile field named in a skip reason: "declarations.variantIdPath", "operations.leads.create", "features.imap". */
const PROFILE_FIELD = /\b(?:declarations|operations|names|features)\.[A-Za-z](?:[\w.]*[A-Za-z0-9])?/g;

export interface ProfileGaps {
  /** Clauses skipped, each with at least one check skipped for a field of the profile. */
  clauses: number;
  /** Per field: the clauses its absence skipped and the checks it would enable, most clauses first. */
  fields: { field: string; clauses: number; checks: number }[];
}

interface SkippedCheck { id: string; verdict: string; message?: string; machineCause?: string }
interface SkippedClause { id: string; verdict: string; checks: { id: string; verdict: string; message?: string }[] }

/** The profile fields a skip reason names. */
export function fieldsNamed(message: string | undefined): string[] {
  return [...new Set(message?.match(PROFILE_FIELD) ?? [])];
}

export function profileGaps(clauses: readonly SkippedClause[], checks: readonly SkippedCheck[]): ProfileGaps {
  const clausesOf = new Map<string, Set<string>>();
  const checksOf = new Map<string, Set<string>>();
  // A skip this machine caused is the machine's (machine-gaps.ts), whatever field its reason names.
  const byMachine = new Set(checks.filter((c) => c.machineCause).map((c) => c.id));
  for (const c of checks) if (c.verdict === 'skip' && !byMachine.has(c.id)) for (const f of fieldsNamed(c.message)) (checksOf.get(f) ?? checksOf.set(f, new Set()).get(f)!).add(c.id);
  let count = 0;
  for (const cl of clauses) {
    if (cl.verdict !== 'skip') continue;
    const fields = new Set(cl.checks.filter((x) => x.verdict === 'skip' && !byMachine.has(x.id)).flatMap((x) => fieldsNamed(x.message)));
    if (fields.size) count++;
    for (const f of fields) (clausesOf.get(f) ?? clausesOf.set(f, new Set()).get(f)!).add(cl.id);
  }
  const fields = [...clausesOf.entries()]
    .map(([field, cs]) => ({ field, clauses: cs.size, checks: checksOf.get(field)?.size ?? 0 }))
    .sort((a, b) => b.clauses - a.clauses || a.field.localeCompare(b.field));
  return { clauses: count, fields };
}

/** "14 clauses skipped for want of a profile field: declarations.variantIdPath (12 clauses, 14 checks), ..." */
export function profileGapsText(g: ProfileGaps, max = 6): string {
  const list = g.fields.slice(0, max).map((f) => `${f.field} (${f.clauses} clause${f.clauses === 1 ? '' : 's'}, ${f.checks} check${f.checks === 1 ? '' : 's'})`);
  const more = g.fields.length > max ? `, and ${g.fields.length - max} more fields` : '';
  return `${g.clauses} clause${g.clauses === 1 ? '' : 's'} skipped for want of a profile field: ${list.join(', ')}${more}`;
}
