// Known failures: `run --baseline known.json`.
//
//   { "entries": [{ "check": "<check id>", "reason": "why it is known", "expires": "2027-01-31" }] }
//
// A listed check that fails is an expected failure (it does not fail the run; every report shows
// it with its reason). A listed check that passes is stale: the run fails and says to remove the
// entry. An entry past its `expires` day (UTC) no longer hides its failure. How the entries apply
// to the results is in harness/report/results.ts (applyBaseline); this file only reads them.

import { readFile } from 'node:fs/promises';
import { z } from 'zod';
import type { Baseline, BaselineEntry } from '../ground/events.ts';
import { KitError } from '../ground/errors.ts';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar day written YYYY-MM-DD (2027-02-30 is refused). */
function isCalendarDay(s: string): boolean {
  const m = DAY.exec(s);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.toISOString().slice(0, 10) === s;
}

const Entry = z
  .object({
    check: z.string().min(1, 'a check id is required'),
    reason: z.string().trim().min(1, 'say why this failure is known'),
    expires: z.string().refine(isCalendarDay, 'a day written YYYY-MM-DD, e.g. 2027-01-31').optional(),
  })
  .strict();

const File = z.object({ entries: z.array(Entry) }).strict();

/**
 * Validates a baseline against the checks that exist. Every problem names where it is
 * (`entries.2.expires: ...`, `entries.0.check: no check "X"`); the whole list is given at once.
 */
export function parseBaseline(raw: unknown, knownChecks: Iterable<string>, file = 'baseline'): Baseline {
  const parsed = File.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new KitError(`invalid baseline ${file}:\n${lines.join('\n')}\n(expected { "entries": [{ "check": "<check id>", "reason": "...", "expires": "YYYY-MM-DD" }] })`);
  }
  const known = new Set(knownChecks);
  const problems: string[] = [];
  const seen = new Map<string, number>();
  parsed.data.entries.forEach((e, i) => {
    if (!known.has(e.check)) problems.push(`  - entries.${i}.check: no check "${e.check}" in this kit${suggest(e.check, known)}`);
    const first = seen.get(e.check);
    if (first !== undefined) problems.push(`  - entries.${i}.check: "${e.check}" is already listed at entries.${first}`);
    else seen.set(e.check, i);
  });
  if (problems.length) throw new KitError(`invalid baseline ${file}:\n${problems.join('\n')}`);
  return { file, entries: parsed.data.entries.map((e) => (e.expires ? { check: e.check, reason: e.reason, expires: e.expires } : { check: e.check, reason: e.reason })) };
}

/** Reads and validates a baseline file (exit 2 with the reason when it cannot be used). */
export async function loadBaseline(path: string, knownChecks: Iterable<string>, shownAs = path): Promise<Baseline> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new KitError(`cannot read baseline ${shownAs}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new KitError(`baseline ${shownAs} is not valid JSON: ${(e as Error).message}`);
  }
  return parseBaseline(raw, knownChecks, shownAs);
}

/** The closest known ids sharing the entry's prefix (up to the first "/"), to help a typo. */
function suggest(id: string, known: Set<string>): string {
  const head = id.split('/')[0]!;
  const near = [...known].filter((k) => k.split('/')[0] === head).slice(0, 3);
  return near.length ? ` (checks of ${head}: ${near.map((n) => `"${n}"`).join(', ')}${near.length === 3 ? ', ...' : ''})` : '';
}
