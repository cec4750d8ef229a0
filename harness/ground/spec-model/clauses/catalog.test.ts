import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Clause } from './types.ts';
import { CLAUSES_PART1 } from './part1.ts';
import { CLAUSES_PART2 } from './part2.ts';
import { CLAUSES_PART3 } from './part3.ts';
import { CLAUSES_PART4_ACCOUNTS } from './part4-accounts.ts';
import { CLAUSES_PART4_CAMPAIGNS } from './part4-campaigns.ts';
import { CLAUSES_PART4_LEADS } from './part4-leads.ts';
import { CLAUSES_PART4_EMAILS } from './part4-emails.ts';
import { CLAUSES_PART4_ANALYTICS } from './part4-analytics.ts';
import { CLAUSES_PART4_LEADFINDER } from './part4-leadfinder.ts';
import { CLAUSES_PART6 } from './part6.ts';

// The clause catalog of parts 1, 2, 3, 4.2 to 4.6, the Lead Finder rows of 4.7, and 6.

const FILES: Record<string, { clauses: readonly Clause[]; sections: RegExp }> = {
  'part1.ts': { clauses: CLAUSES_PART1, sections: /^1$/ },
  'part2.ts': { clauses: CLAUSES_PART2, sections: /^2(\.\d+)?$/ },
  'part3.ts': { clauses: CLAUSES_PART3, sections: /^3\.\d+$/ },
  'part4-accounts.ts': { clauses: CLAUSES_PART4_ACCOUNTS, sections: /^4\.2$/ },
  'part4-campaigns.ts': { clauses: CLAUSES_PART4_CAMPAIGNS, sections: /^4\.3$/ },
  'part4-leads.ts': { clauses: CLAUSES_PART4_LEADS, sections: /^4\.4$/ },
  'part4-emails.ts': { clauses: CLAUSES_PART4_EMAILS, sections: /^4\.5$/ },
  'part4-analytics.ts': { clauses: CLAUSES_PART4_ANALYTICS, sections: /^4\.6$/ },
  'part4-leadfinder.ts': { clauses: CLAUSES_PART4_LEADFINDER, sections: /^4\.7$/ },
  'part6.ts': { clauses: CLAUSES_PART6, sections: /^6$/ },
};
const ALL: Clause[] = Object.values(FILES).flatMap((f) => [...f.clauses]);

const ID_RE = /^[A-Z][A-Z0-9]*(-[A-Z0-9]+)+$/;
const PREFIXES = [
  'SVC-', 'RES-', 'ACCT-', 'WARMUP-', 'VERIF-', 'CAMP-', 'LEAD-', 'LEADHIT-', 'EMAIL-', 'LF-', 'WS-', 'USAGE-',
  'ANLT-', 'STATE-CAMP-', 'STATE-ACCT-', 'STATE-LEAD-', 'STATE-LF-', 'EVT-',
];

// Sections of the spec covered by these files, where each "not shown" needs a PROFILE clause.
// 4.7's "not shown" sentence is about the referenced operations (the lead's file), not Lead Finder.
const NOT_SHOWN_SCOPE = /^(1|2|2\.\d+|3|3\.\d+|4\.[2-6]|6)$/;

const SPEC_PATH = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../../shared/spec/outreach-api-v1.md');

/** Section number -> body text, from the spec's `## n.` and `### n.m` headings. */
function specSections(text: string): Map<string, string> {
  const out = new Map<string, string>();
  let current: string | undefined;
  for (const line of text.split('\n')) {
    const h = /^#{2,3} (\d+(?:\.\d+)?)\.? /.exec(line);
    if (h) {
      current = h[1]!;
      out.set(current, '');
      continue;
    }
    if (current !== undefined) out.set(current, `${out.get(current)}${line}\n`);
  }
  return out;
}

describe('clause catalog (parts 1, 2, 3, 4.2-4.7 Lead Finder, 6)', () => {
  it('has a plausible size', () => {
    expect(ALL.length).toBeGreaterThanOrEqual(250);
    // The brief expected 250-400; one clause per statement, with per-field required and bound
    // clauses for 2.2 and the SHOULD readings, gives about 530. The ceiling catches accidents.
    expect(ALL.length).toBeLessThanOrEqual(650);
  });

  it('ids are unique', () => {
    const seen = new Map<string, number>();
    for (const c of ALL) seen.set(c.id, (seen.get(c.id) ?? 0) + 1);
    expect([...seen].filter(([, n]) => n > 1).map(([id]) => id)).toEqual([]);
  });

  it('ids are uppercase, hyphenated, with an area prefix', () => {
    expect(ALL.filter((c) => !ID_RE.test(c.id)).map((c) => c.id)).toEqual([]);
    expect(ALL.filter((c) => !PREFIXES.some((p) => c.id.startsWith(p))).map((c) => c.id)).toEqual([]);
  });

  it('every clause has text, a level, and a section of its own file\'s part', () => {
    for (const [file, { clauses, sections }] of Object.entries(FILES)) {
      expect(clauses.length, file).toBeGreaterThan(0);
      for (const c of clauses) {
        expect(c.text.trim().length, c.id).toBeGreaterThan(10);
        expect(['MUST', 'SHOULD', 'PROFILE'], c.id).toContain(c.level);
        expect(c.section, `${c.id} in ${file}`).toMatch(sections);
      }
    }
  });

  it('PROFILE clauses rest on a "not shown" (or "not given") statement', () => {
    for (const c of ALL.filter((x) => x.level === 'PROFILE')) expect(c.text, c.id).toMatch(/not (shown|given)/);
  });

  it('every section named exists in the spec', (ctx) => {
    if (!existsSync(SPEC_PATH)) ctx.skip(`spec not found at ${SPEC_PATH}; section check skipped`);
    const sections = specSections(readFileSync(SPEC_PATH, 'utf8'));
    expect(sections.size).toBeGreaterThan(20);
    expect(ALL.filter((c) => !sections.has(c.section)).map((c) => `${c.id} (${c.section})`)).toEqual([]);
  });

  it('every "not shown" sentence of these parts has a PROFILE clause in its section', (ctx) => {
    if (!existsSync(SPEC_PATH)) ctx.skip(`spec not found at ${SPEC_PATH}; "not shown" count skipped`);
    const sections = specSections(readFileSync(SPEC_PATH, 'utf8'));
    let total = 0;
    const missing: string[] = [];
    for (const [section, body] of sections) {
      if (!NOT_SHOWN_SCOPE.test(section)) continue;
      const notShown = (body.match(/not shown/gi) ?? []).length;
      total += notShown;
      const profile = ALL.filter((c) => c.section === section && c.level === 'PROFILE').length;
      if (profile < notShown) missing.push(`${section}: ${notShown} "not shown", ${profile} PROFILE clause(s)`);
    }
    expect(missing).toEqual([]);
    // 2.2, 2.3, 2.4, 2.5, 2.6, 3.1, 3.2, 3.3, 3.4, 4.2, 4.3, 4.4 (x2), 4.6, 6
    expect(total).toBe(15);
  });

  it('ids do not collide with the other clause files of the catalog (those present here)', async () => {
    const others = ['part4-conventions.ts', 'part4-workspace.ts', 'part5.ts', 'part7.ts', 'part8.ts', 'part9.ts'];
    const mine = new Set(ALL.map((c) => c.id));
    const clashes: string[] = [];
    for (const f of others) {
      if (!existsSync(resolve(dirname(fileURLToPath(import.meta.url)), f))) continue;
      const mod = (await import(`./${f}`)) as Record<string, unknown>;
      for (const v of Object.values(mod)) {
        if (!Array.isArray(v)) continue;
        for (const c of v as Clause[]) if (c && typeof c.id === 'string' && mine.has(c.id)) clashes.push(`${c.id} (${f})`);
      }
    }
    expect(clashes).toEqual([]);
  });
});
