// docs/ARCHITECTURE.md is the map a newcomer walks by: every file it names must exist. Files
// are named by their path from the repository's root; the run's outputs are named as such.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
/** What runs write (reports/<run>/...), not files of the repository. */
const OUTPUTS = new Set(['results.json', 'summary.md', 'load.json', 'compare.json', 'junit.xml', 'report.html', 'traffic.har', 'events.ndjson']);
const FILE = /`([A-Za-z0-9_.<>/-]+\.(?:ts|js|mjs|json|md|ya?ml|ndjson|html|har|xml))`/g;

describe('docs/ARCHITECTURE.md', () => {
  it('names only files that exist, by their path from the root', () => {
    const text = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const named = [...new Set([...text.matchAll(FILE)].map((m) => m[1]!))];
    expect(named.length).toBeGreaterThan(40);
    const missing = named.filter((f) => !OUTPUTS.has(f) && !f.includes('<') && !existsSync(join(ROOT, f)));
    expect(missing).toEqual([]);
  });
});
