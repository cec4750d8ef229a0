// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JUnit
// report(s) of the project's own tests.
import { existsSync, readFileSync } from 'node:fs';
const files = process.argv.slice(2).length ? process.argv.slice(2) : ['reports/project-tests.junit.xml'];
let total = 0;
let failed = 0;
let skipped = 0;
for (const file of files.filter((f) => existsSync(f))) {
  const xml = readFileSync(file, 'utf8');
  const root = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? '';
  const num = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
  total += num('tests');
  failed += num('failures') + num('errors');
  skipped += (xml.match(/<skipped\b/g) ?? []).length;
}
console.log(`${total - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
