import { randomBytes } from 'node:crypto';
import type { Check } from '../ground/check.ts';
import type { CheckEndEvent } from '../ground/events.ts';
import type { Profile } from '../ground/profile-schema.ts';
import { Runner } from '../runner/runner.ts';
import { parseProfile } from '../ground/profile.ts';
import { declPaths } from '../plan/static-gap.ts';
import { fieldsNamed } from '../report/profile-gaps.ts';
import { startPortabilityTarget } from './target.ts';

// What a check needs of the profile, proven against the reference: each check runs with a
// profile that holds, of the optional values (referenced operations, declarations, the optional
// names), only those its features list (`op:`, `decl:`), every other one removed. A check that
// then skips naming a profile field it does not list, or errors, needs more than it declares:
// the planner would count it as covering on a profile that lacks that field.
//
// Checks are grouped by what they list, one Runner and one reference target per group, so each
// check runs once. The reference offers every feature and control extension.

/** Names a profile may leave out (harness/ground/profile-schema.ts). */
const OPTIONAL_NAMES = ['businessRuleErrorCode', 'sendingDays', 'oauthStatusStateParam'] as const;

export interface NeedsResult {
  results: CheckEndEvent[];
  /** "CHECK: skipped naming FIELD, which it does not list (MESSAGE)" */
  unlisted: string[];
  /** Checks that errored ("CHECK: MESSAGE"): a need a check does not list may show as an error too. */
  errors: string[];
  /** How many profiles (groups of checks listing the same operations and declarations) ran. */
  groups: number;
}

/** The operations and declarations a check lists, as a group key. */
function profileNeeds(c: Check): string[] {
  return c.features.filter((f) => f.startsWith('op:') || f.startsWith('decl:')).sort();
}

/** The profile fields a check's features stand for ("declarations.variantIdPath", "operations.leads.list", "features.imap"). */
export function listedFields(c: Pick<Check, 'features'>): string[] {
  return c.features.flatMap((f) => (f.startsWith('decl:') ? declPaths(f) : f.startsWith('op:') ? [`operations.${f.slice(3)}`] : [`features.${f}`]));
}

/** A field a skip names is listed when a listed field is it, holds it or lies within it. */
export function unlistedFields(c: Pick<Check, 'features'>, message: string | undefined): string[] {
  const listed = listedFields(c);
  return fieldsNamed(message).filter((f) => !listed.some((l) => l === f || l.startsWith(`${f}.`) || f.startsWith(`${l}.`)));
}

/** The reference's profile with only `needs` of its optional values (a declaration is kept whole). */
export function profileWithOnly(full: Profile, needs: readonly string[], poolSize: number): Profile {
  const names: Record<string, unknown> = { ...full.names };
  for (const n of OPTIONAL_NAMES) delete names[n];
  const operations: Record<string, unknown> = {};
  const declarations: Record<string, unknown> = {};
  for (const f of needs) {
    if (f.startsWith('op:')) operations[f.slice(3)] = (full.operations as Record<string, unknown>)[f.slice(3)];
    else
      for (const p of declPaths(f)) {
        const [section, key] = p.split('.') as [string, string];
        if (section === 'declarations') declarations[key] = (full.declarations as Record<string, unknown>)[key];
        if (section === 'names') names[key] = (full.names as Record<string, unknown>)[key];
      }
  }
  return parseProfile({ ...full, names, operations, declarations, poolSize }, `the reference profile with only ${needs.join(', ') || 'the required values'}`);
}

export async function provenNeeds(checks: readonly Check[], seed = 20261124): Promise<NeedsResult> {
  const groups = new Map<string, Check[]>();
  for (const c of checks) {
    const key = profileNeeds(c).join(' ');
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  const results: CheckEndEvent[] = [];
  // A reference of its own per group: what one group left behind (mailboxes polling stopped sinks) stays there.
  for (const [key, group] of groups) results.push(...(await runGroup(group, key ? key.split(' ') : [], seed)));
  const byId = new Map(checks.map((c) => [c.id, c]));
  return {
    results,
    unlisted: results.flatMap((r) => {
      const fields = r.verdict === 'skip' ? unlistedFields(byId.get(r.checkId)!, r.message) : [];
      return fields.length ? [`${r.checkId}: skipped naming ${fields.join(', ')}, which it does not list (${r.message})`] : [];
    }),
    errors: results.filter((r) => r.verdict === 'error').map((r) => `${r.checkId}: ${r.message}`),
    groups: groups.size,
  };
}

async function runGroup(group: readonly Check[], needs: readonly string[], seed: number): Promise<CheckEndEvent[]> {
  const target = await startPortabilityTarget({ choices: 'default', control: true });
  try {
    const profile = profileWithOnly(target.profile, needs, Math.min(40, Math.max(4, group.length)));
    const runner = new Runner({ profile, baseUrl: target.baseUrl, control: target.control, depth: 'full', sink: { emit: () => {} }, prefix: `ocn${randomBytes(3).toString('hex')}-`, seed });
    await runner.prepare(group);
    try {
      return await runner.runAll(group, 8);
    } finally {
      await runner.finish();
    }
  } finally {
    await target.stop();
  }
}
