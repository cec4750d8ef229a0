import { appendFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createNdjsonSink, parseEvents, readEvents } from './ndjson.ts';
import type { RunEvent } from '../ground/events.ts';

const dirs: string[] = [];
function tmp(): string {
  const d = mkdtempSync(join(tmpdir(), 'ndjson-'));
  dirs.push(d);
  return d;
}
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const start: RunEvent = {
  type: 'check-start',
  checkId: 'AUTH-401-MISSING/GET /v1/workspace',
  at: '2026-01-01T00:00:00.000Z',
};
const exchange: RunEvent = {
  type: 'exchange',
  id: 'x000001',
  checkId: 'AUTH-401-MISSING/GET /v1/workspace',
  startedAt: '2026-01-01T00:00:00.001Z',
  durationMs: 3,
  request: { method: 'POST', url: 'http://127.0.0.1/v1/x', headers: {}, body: '{"a":"line1\\nline2\u2028"}' },
  response: { status: 200, headers: {}, body: 'multi\nline\r\nbody' },
  curl: "curl -X POST 'http://127.0.0.1/v1/x'",
};

describe('ndjson sink', () => {
  it('writes one line per event, in order, creating the directory', async () => {
    const path = join(tmp(), 'nested', 'run', 'events.ndjson');
    const sink = createNdjsonSink(path);
    sink.emit(start);
    sink.emit(exchange);
    await sink.close();
    const lines = readFileSync(path, 'utf8').split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toBe('');
    expect(JSON.parse(lines[1]!)).toEqual(exchange);
    expect(await readEvents(path)).toEqual([start, exchange]);
  });

  it('is readable while still open (synchronous writes) and drops events after close', async () => {
    const path = join(tmp(), 'events.ndjson');
    const sink = createNdjsonSink(path);
    sink.emit(start);
    expect(await readEvents(path)).toEqual([start]);
    await sink.close();
    await sink.close(); // idempotent
    sink.emit(exchange);
    expect(sink.dropped).toBe(1);
    expect(await readEvents(path)).toEqual([start]);
  });

  it('appends when asked (several writers of one run)', async () => {
    const path = join(tmp(), 'events.ndjson');
    const a = createNdjsonSink(path);
    a.emit(start);
    await a.close();
    const b = createNdjsonSink(path, { append: true });
    const c = createNdjsonSink(path, { append: true });
    b.emit(exchange);
    c.emit(start);
    b.emit(start);
    await b.close();
    await c.close();
    expect(await readEvents(path)).toEqual([start, exchange, start, start]);
  });

  it('truncates an existing file', async () => {
    const path = join(tmp(), 'events.ndjson');
    writeFileSync(path, 'old garbage\n');
    const sink = createNdjsonSink(path);
    sink.emit(start);
    await sink.close();
    expect(await readEvents(path)).toEqual([start]);
  });
});

describe('readEvents', () => {
  it('drops a truncated last line', async () => {
    const path = join(tmp(), 'events.ndjson');
    const full = JSON.stringify(exchange);
    writeFileSync(path, JSON.stringify(start) + '\n' + full + '\n');
    appendFileSync(path, full.slice(0, 40)); // killed mid-write
    expect(await readEvents(path)).toEqual([start, exchange]);
  });

  it('ignores blank lines and a missing final newline', () => {
    const text = '\n' + JSON.stringify(start) + '\n\n' + JSON.stringify(exchange);
    expect(parseEvents(text)).toEqual([start, exchange]);
  });

  it('throws on a corrupt line in the middle, naming it', () => {
    const text = JSON.stringify(start) + '\n{oops\n' + JSON.stringify(exchange) + '\n';
    expect(() => parseEvents(text, 'e.ndjson')).toThrow(/e\.ndjson:2/);
  });

  it('rejects a JSON line that is not an event (unless it is the last)', () => {
    expect(() => parseEvents('[1,2]\n' + JSON.stringify(start))).toThrow(/not an event/);
    expect(parseEvents(JSON.stringify(start) + '\n42')).toEqual([start]);
  });
});
