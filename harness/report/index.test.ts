import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createNdjsonSink, mustFailures, readEvents, writeReports, type Results } from './index.ts';
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
});
