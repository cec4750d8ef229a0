// The `drain` choice: concurrent drains, or serialized ones (one at a time, in the order asked,
// no scoped-drain extension), as a plainer control API serves them. The overlap is built with
// holds the test releases, never raced.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DrainLine } from './control.ts';
import { ALT_CHOICES, DEFAULT_CHOICES, startReference, type ReferenceHandle } from '../index.ts';

function held() {
  const log: string[] = [];
  const holds = new Map<string, () => void>();
  const job = (name: string) => () => {
    log.push(`start ${name}`);
    return new Promise<string>((resolve, reject) => holds.set(name, () => (name.startsWith('bad') ? reject(new Error(name)) : resolve(name))));
  };
  return { log, job, release: (name: string) => holds.get(name)!() };
}

describe('DrainLine', () => {
  it('serialized: a drain starts only when the one asked before it has answered, even a failed one', async () => {
    const h = held();
    const line = new DrainLine(true);
    const a = line.run(h.job('a'));
    const bad = line.run(h.job('bad'));
    const c = line.run(h.job('c'));
    await new Promise((r) => setImmediate(r));
    expect(h.log).toEqual(['start a']);
    h.release('a');
    expect(await a).toBe('a');
    await new Promise((r) => setImmediate(r));
    expect(h.log).toEqual(['start a', 'start bad']);
    h.release('bad');
    await expect(bad).rejects.toThrow('bad');
    await new Promise((r) => setImmediate(r));
    expect(h.log).toEqual(['start a', 'start bad', 'start c']);
    h.release('c');
    expect(await c).toBe('c');
  });

  it('concurrent: every drain starts at once', async () => {
    const h = held();
    const line = new DrainLine(false);
    const runs = [line.run(h.job('a')), line.run(h.job('b'))];
    expect(h.log).toEqual(['start a', 'start b']);
    h.release('b');
    h.release('a');
    expect(await Promise.all(runs)).toEqual(['a', 'b']);
  });
});

describe('over the wire', () => {
  let plain: ReferenceHandle;
  let own: ReferenceHandle;
  beforeAll(async () => {
    [plain, own] = await Promise.all([startReference({ choices: ALT_CHOICES, log: () => {} }), startReference({ choices: DEFAULT_CHOICES, log: () => {} })]);
  });
  afterAll(async () => {
    await Promise.all([plain?.stop(), own?.stop()]);
  });
  const ctl = (ref: ReferenceHandle, method: string, path: string, body?: unknown) =>
    fetch(`${ref.controlUrl}${path}`, { method, headers: { authorization: `Bearer ${ref.controlToken}`, 'content-type': 'application/json' }, ...(body ? { body: JSON.stringify(body) } : {}) }).then(async (r) => ({ status: r.status, body: await r.json() }));

  it('a serialized drain offers no scoped-drain; the reference\'s own does', async () => {
    expect(ALT_CHOICES.drain).toBe('serialized');
    expect((await ctl(plain, 'GET', '/capabilities')).body.extensions).not.toContain('scoped-drain');
    expect((await ctl(own, 'GET', '/capabilities')).body.extensions).toContain('scoped-drain');
  });

  it('serialized drains asked at once each answer { processed }', async () => {
    const answers = await Promise.all([0, 1, 2].map(() => ctl(plain, 'POST', '/work/drain', { timeoutMs: 2000 })));
    for (const a of answers) expect(a).toEqual({ status: 200, body: { processed: expect.any(Number) } });
  });
});
