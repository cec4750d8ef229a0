// The certification bundle: reports/<run>/bundle.tgz holds results.json, junit.xml, report.html,
// the redacted profile (profile.json) and MANIFEST.sha256 (`sha256sum -c` format, so it can be
// checked without the kit too). `verifyBundle` says whether a bundle is intact (every listed file
// present with its hash, nothing else) and what verdict its results.json records.
// The manifest detects changes, not a forger who rewrites it: publish the bundle's own sha256
// (printed by the run) where it must be trusted.
import { createHash } from 'node:crypto';
import { readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { packTarGz, readTarGz, type TarEntry } from './bundle-tar.ts';
import { coverageText, headline, tierText } from './summary.ts';
import type { Results } from './results.ts';

export const BUNDLE_NAME = 'bundle.tgz';
export const MANIFEST = 'MANIFEST.sha256';
/** What a bundle must hold besides its manifest, in this order. */
export const BUNDLE_FILES = ['results.json', 'junit.xml', 'report.html', 'profile.json'] as const;

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface WriteBundleOptions {
  /** The run's known secrets, erased from every file as a last guard (the reports are scrubbed already). */
  redact?: (text: string) => string;
}

/** Writes `<dir>/bundle.tgz` from the reports in `dir`; returns its path, its sha256 and the results.json it holds. */
export async function writeBundle(dir: string, opts: WriteBundleOptions = {}): Promise<{ path: string; sha256: string; results: Results }> {
  const redact = opts.redact ?? ((s: string) => s);
  const resultsText = redact(await readFile(join(dir, 'results.json'), 'utf8'));
  const results = JSON.parse(resultsText) as Results;
  // results.json carries the profile as reports show it: field names kept, secret values hidden.
  const files: Record<(typeof BUNDLE_FILES)[number], string> = {
    'results.json': resultsText,
    'junit.xml': redact(await readFile(join(dir, 'junit.xml'), 'utf8')),
    'report.html': redact(await readFile(join(dir, 'report.html'), 'utf8')),
    'profile.json': redact(JSON.stringify(results.profile ?? null, null, 2) + '\n'),
  };
  const entries: TarEntry[] = BUNDLE_FILES.map((name) => ({ name, data: Buffer.from(files[name], 'utf8') }));
  const manifest = entries.map((e) => `${sha256(e.data)}  ${e.name}\n`).join('');
  entries.push({ name: MANIFEST, data: Buffer.from(manifest, 'utf8') });
  const finished = Date.parse(results.finishedAt ?? '');
  const gz = await packTarGz(entries, new Date(Number.isFinite(finished) ? finished : Date.now()));
  const path = join(dir, BUNDLE_NAME);
  const tmp = `${path}.tmp-${process.pid}`;
  await writeFile(tmp, gz);
  await rename(tmp, path);
  return { path, sha256: sha256(gz), results };
}

export type BundleCheck =
  | { status: 'valid'; files: string[]; verdict: string; results: Results }
  | { status: 'tampered'; problems: { file: string; problem: string }[] }
  | { status: 'unreadable'; reason: string };

/** Checks a bundle's bytes (as the kit wrote them, or repacked by any tar): manifest, hashes, the file set and results.json's shape. */
export async function verifyBundle(gz: Buffer): Promise<BundleCheck> {
  let entries: TarEntry[];
  try {
    entries = await readTarGz(gz);
  } catch (e) {
    return { status: 'unreadable', reason: (e as Error).message };
  }
  const problems: { file: string; problem: string }[] = [];
  const byName = new Map<string, Buffer>();
  for (const e of entries) {
    if (byName.has(e.name)) problems.push({ file: e.name, problem: 'appears twice in the bundle' });
    if (e.special) problems.push({ file: e.name, problem: `is a ${e.special} entry, not a regular file` });
    byName.set(e.name, e.data);
  }
  const manifestBytes = byName.get(MANIFEST);
  if (!manifestBytes) return { status: 'tampered', problems: [{ file: MANIFEST, problem: 'is missing: nothing can be verified' }] };
  const listed = new Map<string, string>();
  for (const [i, line] of manifestBytes.toString('utf8').split('\n').entries()) {
    if (!line) continue;
    const m = /^([0-9a-f]{64}) {2}(\S.*)$/.exec(line);
    if (!m) problems.push({ file: MANIFEST, problem: `line ${i + 1} is not "<sha256>  <file>"` });
    else if (m[2] === MANIFEST) problems.push({ file: MANIFEST, problem: 'lists itself' });
    else listed.set(m[2]!, m[1]!);
  }
  for (const name of BUNDLE_FILES) if (!listed.has(name)) problems.push({ file: name, problem: `is not listed in ${MANIFEST}` });
  for (const [name, hash] of listed) {
    const data = byName.get(name);
    if (!data) problems.push({ file: name, problem: `is listed in ${MANIFEST} but missing from the bundle` });
    else if (sha256(data) !== hash) problems.push({ file: name, problem: `has been changed (its sha256 is not the one in ${MANIFEST})` });
  }
  for (const name of byName.keys()) if (name !== MANIFEST && !listed.has(name)) problems.push({ file: name, problem: `is not listed in ${MANIFEST} (an extra file)` });
  const resultsBytes = byName.get('results.json');
  let results: Results | undefined;
  if (resultsBytes) {
    const shape = resultsShape(resultsBytes);
    if (typeof shape === 'string') problems.push({ file: 'results.json', problem: `is not well-formed: ${shape}` });
    else results = shape;
  }
  if (problems.length || !results) return { status: 'tampered', problems };
  return { status: 'valid', files: [...byName.keys()], verdict: verdictLines(results), results };
}

const VERDICTS = ['pass', 'fail', 'error', 'incomplete'];

/** results.json as the kit writes it, or what is wrong with it. */
function resultsShape(bytes: Buffer): Results | string {
  let r: unknown;
  try {
    r = JSON.parse(bytes.toString('utf8'));
  } catch (e) {
    return `not JSON (${(e as Error).message})`;
  }
  if (!r || typeof r !== 'object' || Array.isArray(r)) return 'not a JSON object';
  const o = r as Record<string, unknown>;
  if (typeof o.verdict !== 'string' || !VERDICTS.includes(o.verdict)) return `"verdict" is ${JSON.stringify(o.verdict)}, not one of ${VERDICTS.join(', ')}`;
  for (const k of ['kit', 'spec', 'target', 'summary', 'clauseSummary'] as const) if (!o[k] || typeof o[k] !== 'object') return `"${k}" is missing or not an object`;
  for (const k of ['clauses', 'checks'] as const) if (!Array.isArray(o[k])) return `"${k}" is missing or not a list`;
  const s = o.summary as Record<string, unknown>;
  if (typeof (o.clauseSummary as Record<string, unknown>).total !== 'number') return '"clauseSummary.total" is missing';
  for (const t of ['core', 'extended'] as const) {
    const tier = s[t] as Record<string, unknown> | undefined;
    if (!tier || typeof tier.verdict !== 'string' || typeof tier.clauses !== 'number') return `"summary.${t}" is missing or has no verdict`;
  }
  return r as Results;
}

/** The verdict the bundle records, as the reports word it. */
function verdictLines(r: Results): string {
  const s = r.summary;
  return [
    `verdict: ${headline(r, 'see report.html').text}`,
    `clauses checked: ${coverageText(r, '')}`,
    `Core: ${tierText(s.core)}`,
    `Extended: ${tierText(s.extended)}`,
    `target: ${r.target.name ?? ''} ${r.target.baseUrl}; spec ${r.spec.version} (sha256 ${r.spec.sha256}); kit ${r.kit.name} ${r.kit.version}; finished ${r.finishedAt ?? '(interrupted)'}`,
  ].join('\n');
}
