// Prints the plain closing line CI reads ("N passed, N failed, N skipped") from vitest's JUnit
// report of the project's own tests.
import { readFileSync } from 'node:fs';
const xml = readFileSync(process.argv[2] ?? 'reports/project-tests.junit.xml', 'utf8');
const root = /<testsuites\b[^>]*>/.exec(xml)?.[0] ?? '';
const num = (name) => Number(new RegExp(`\\b${name}="(\\d+)"`).exec(root)?.[1] ?? 0);
const total = num('tests');
const failed = num('failures') + num('errors');
const skipped = (xml.match(/<skipped\b/g) ?? []).length;
console.log(`${total - failed - skipped} passed, ${failed} failed, ${skipped} skipped`);
