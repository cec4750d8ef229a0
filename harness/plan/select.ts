import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Check } from '../ground/check.ts';
import { CLAUSE_BY_ID } from '../ground/spec-model/clauses/index.ts';
import { KitError } from '../ground/errors.ts';

// Which checks a run takes: --check REGEX (also --only), --clause ID[,ID], --section 4.2[,3.1],
// --rerun-failed (what failed or errored in <out>/latest). Given together they intersect. The
// result is the list of check ids the runner takes, resolved here and nowhere else.

export interface SelectionFlags {
  only?: string;
  check?: string;
  clause?: string[];
  section?: string[];
  rerunFailed?: boolean;
}

/** Does a clause of `section` belong to one of `wanted` ("4.2" takes 4.2 and 4.2.x, "4" takes 4.x)? */
function inSection(section: string, wanted: string[]): boolean {
  return wanted.some((w) => section === w || section.startsWith(`${w}.`));
}

/** The ids of the selected checks, or undefined for all of them. */
export async function selection(flags: SelectionFlags, checks: readonly Check[], outRoot: string): Promise<string[] | undefined> {
  const pattern = flags.check ?? flags.only;
  let chosen: readonly Check[] = checks;
  let narrowed = false;
  if (pattern !== undefined) {
    let re: RegExp;
    try {
      re = new RegExp(pattern);
    } catch (e) {
      throw new KitError(`--check ${JSON.stringify(pattern)} is not a regular expression: ${(e as Error).message}`);
    }
    chosen = chosen.filter((c) => re.test(c.id));
    narrowed = true;
  }
  if (flags.clause?.length) {
    const unknown = flags.clause.filter((id) => !CLAUSE_BY_ID.has(id));
    if (unknown.length) throw new KitError(`--clause: no clause ${unknown.join(', ')} in the spec's catalog (ids like AUTH-401-MISSING; see report.html)`);
    chosen = chosen.filter((c) => c.clauses.some((id) => flags.clause!.includes(id)));
    narrowed = true;
  }
  if (flags.section?.length) {
    const sections = new Set([...CLAUSE_BY_ID.values()].map((c) => c.section));
    const unknown = flags.section.filter((s) => ![...sections].some((x) => inSection(x, [s])));
    if (unknown.length) throw new KitError(`--section: no clause of section ${unknown.join(', ')} (sections look like 4.2 or 3.1)`);
    chosen = chosen.filter((c) => c.clauses.some((id) => inSection(CLAUSE_BY_ID.get(id)?.section ?? '', flags.section!)));
    narrowed = true;
  }
  if (flags.rerunFailed) {
    const path = join(outRoot, 'latest', 'results.json');
    let failed: Set<string>;
    try {
      const results = JSON.parse(await readFile(path, 'utf8')) as { checks: { id: string; verdict: string }[] };
      failed = new Set(results.checks.filter((c) => c.verdict === 'fail' || c.verdict === 'error').map((c) => c.id));
    } catch (e) {
      throw new KitError(`--rerun-failed reads ${path}, which cannot be read: ${(e as Error).message}`);
    }
    if (failed.size === 0) throw new KitError(`--rerun-failed: nothing failed in ${path}`);
    chosen = chosen.filter((c) => failed.has(c.id));
    narrowed = true;
  }
  if (!narrowed) return undefined;
  if (chosen.length === 0) throw new KitError('the selection (--check, --clause, --section, --rerun-failed) matches no check');
  return chosen.map((c) => c.id);
}
