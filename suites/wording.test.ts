import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ALL_CHECKS } from './checks/index.ts';

// Text a user reads speaks of the product, never of how the kit was developed: no issue
// numbers, work sessions, or the kit's own variable names in titles, skip reasons and messages.

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const FORBIDDEN: [RegExp, string][] = [
  [/\bissues?\b/i, 'speaks of an issue'],
  [/\bsessions?\b/i, 'speaks of a session'],
  [/\bsend-path\b/i, 'speaks of a development track'],
  [/\bctx\.\w+/, "names the kit's internals"],
  [/\b(spine|brief|helper)\b/i, 'speaks of the development'],
];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !/\.test(-helper)?\.ts$|test-helper\.ts$/.test(e.name))
    .map((e) => join(e.parentPath, e.name));
}

/** String literals a user reads: skip reasons, titles, unreachable notes, failure messages. */
function userStrings(file: string): string[] {
  const src = readFileSync(file, 'utf8');
  const out: string[] = [];
  const re = /(?:\bskip\(|\bfail\(|\bunreachable:\s*|\btitle:\s*|\breturn\s+)(['"`])((?:\\.|(?!\1).)*)\1/g;
  for (const m of src.matchAll(re)) out.push(literalText(m[2]!));
  return out;
}

/** A template literal without its `${...}` parts (code, not text). */
function literalText(s: string): string {
  let out = '';
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    if (depth === 0 && s[i] === '$' && s[i + 1] === '{') {
      depth = 1;
      i++;
      out += '…';
    } else if (depth > 0) {
      if (s[i] === '{') depth++;
      else if (s[i] === '}') depth--;
    } else out += s[i];
  }
  return out;
}

const offences = (text: string) => FORBIDDEN.filter(([re]) => re.test(text)).map(([, why]) => why);

describe('user-facing wording', () => {
  it('check titles speak of the product', () => {
    const bad = ALL_CHECKS.flatMap((c) => offences(c.title).map((why) => `${c.id}: ${why}: ${c.title}`));
    expect(bad).toEqual([]);
  });

  it('skip reasons, failure messages and feature gaps speak of the product', () => {
    // harness/sinks is excluded: "session" is an SMTP/IMAP protocol term there.
    const files = ['suites/checks', 'suites/lib', 'harness/runner', 'harness/report', 'harness/cli'].flatMap(sourceFiles);
    expect(files.length).toBeGreaterThan(20);
    const bad = files.flatMap((f) => userStrings(f).flatMap((s) => offences(s).map((why) => `${relative(ROOT, f)}: ${why}: ${s}`)));
    expect(bad).toEqual([]);
  });
});
