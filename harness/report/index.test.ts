import { appendFileSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createHash, generateKeyPairSync } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNdjsonSink, formatConsoleSummary, mustFailures, readEvents, REPORT_FILES, writeReports, writeRunReports, type Results } from './index.ts';
import { ATTESTATION_NAME, checkAttestation } from './attestation.ts';
import { BUNDLE_NAME } from './bundle.ts';
import { CHECKS, CLAUSES, makeInput } from './fixture.test-helper.ts';
import { parseXml } from './xml.test-helper.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-e2e-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('events.ndjson -> every report', () => {
  it('round-trips through the sink and a crash-truncated file', async () => {
    const input = makeInput();
    const path = join(dir, 'run', 'events.ndjson');
    const sink = createNdjsonSink(path);
    for (const e of input.events) sink.emit(e);
    await sink.close();
    appendFileSync(path, '{"type":"exchange","id":"x9'); // killed mid-line
    const events = await readEvents(path);
    expect(events).toEqual(input.events);

    const { files, results } = await writeReports(join(dir, 'run'), { events, clauses: CLAUSES, checks: CHECKS, mutation: input.mutation! });
    expect(files).toHaveLength(5);

    const onDisk = JSON.parse(readFileSync(join(dir, 'run', 'results.json'), 'utf8')) as Results;
    expect(onDisk).toEqual(JSON.parse(JSON.stringify(results)));
    // the shape of results.json
    expect(onDisk).toMatchObject({
      kit: { name: 'outreach-conformance', version: '0.1.0' },
      spec: { version: '1.0.0', sha256: 'a'.repeat(64) },
      target: { baseUrl: 'http://127.0.0.1:4010' },
      startedAt: expect.any(String),
      finishedAt: expect.any(String),
      summary: { pass: 6, fail: 2, skip: 2, error: 1, notCovered: 2 },
      clauseSummary: { pass: 4, fail: 2, skip: 1, error: 1, notCovered: 2 },
      mutation: { score: 0.75 },
    });
    for (const c of onDisk.clauses) {
      expect(Object.keys(c)).toEqual(expect.arrayContaining(['id', 'section', 'level', 'verdict', 'checks']));
      for (const k of c.checks) expect(Object.keys(k)).toEqual(expect.arrayContaining(['id', 'verdict']));
    }
    for (const c of onDisk.checks) {
      expect(c).toMatchObject({ verdict: expect.any(String), evidence: expect.any(Array), durationMs: expect.any(Number) });
    }
    expect(mustFailures(onDisk)).toBe(2);
    expect(() => parseXml(readFileSync(join(dir, 'run', 'junit.xml'), 'utf8'))).not.toThrow();
    expect(() => JSON.parse(readFileSync(join(dir, 'run', 'traffic.har'), 'utf8'))).not.toThrow();
  });

  it('overwrites an earlier report in the same directory', async () => {
    const d = join(dir, 'again');
    await writeReports(d, makeInput());
    const { results } = await writeReports(d, { events: [], clauses: CLAUSES, checks: CHECKS });
    expect(results.summary.pass).toBe(0);
    expect(JSON.parse(readFileSync(join(d, 'results.json'), 'utf8')).summary.pass).toBe(0);
  });

  it("writes a run's every file in one call: the reports, the bundle with its secrets erased, the signed attestation, and what the console says", async () => {
    const d = join(dir, 'one-call');
    const { privateKey, publicKey } = generateKeyPairSync('ed25519');
    const r = await writeRunReports(d, makeInput({ withRunEnd: true }), { redact: (t) => t.replaceAll('127.0.0.1', '[host]'), signWith: privateKey });
    for (const f of [...REPORT_FILES, BUNDLE_NAME, ATTESTATION_NAME]) expect(existsSync(join(d, f)), f).toBe(true);
    expect(r.bundle.sha256).toBe(createHash('sha256').update(readFileSync(r.bundle.path)).digest('hex'));
    expect(checkAttestation(readFileSync(r.attestation!.path, 'utf8'), publicKey, r.bundle.sha256)).toMatchObject({ status: 'valid', keyid: r.attestation!.keyid });
    expect(r.summary).toBe(formatConsoleSummary(r.results));
    expect(r.exitCode).toBe(1); // the fixture's two MUST failures
    // Without a key: no attestation.
    const unsigned = await writeRunReports(join(dir, 'unsigned'), makeInput({ withRunEnd: true }), { redact: (t) => t });
    expect(unsigned.attestation).toBeUndefined();
    expect(existsSync(join(dir, 'unsigned', ATTESTATION_NAME))).toBe(false);
  });
});
