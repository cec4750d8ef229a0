import { describe, expect, it } from 'vitest';
import { progressPrinter, type ProgressStream } from './progress.ts';

function stream(tty: boolean, columns?: number): ProgressStream & { text: string } {
  const s = { text: '', isTTY: tty, columns, write: (chunk: string | Uint8Array) => ((s.text += String(chunk)), true) };
  return s as ProgressStream & { text: string };
}

describe('progressPrinter', () => {
  it('on a terminal rewrites one line in place and ends it with a newline', () => {
    const out = stream(true, 200);
    const p = progressPrinter(out);
    p.update({ elapsedMs: 1000, text: 'a' });
    p.update({ elapsedMs: 2000, totalMs: 30_000, text: 'b' });
    p.done();
    expect(out.text).toBe('\r\x1b[2K1s  a\r\x1b[2K2s/30s  b\n');
  });

  it('on a terminal cuts a line wider than the terminal (a wrapped line could not be rewritten)', () => {
    const out = stream(true, 20);
    progressPrinter(out).update({ elapsedMs: 0, text: 'x'.repeat(100) });
    const drawn = out.text.replace('\r\x1b[2K', '');
    expect(drawn.length).toBe(19);
    expect(drawn.endsWith('…')).toBe(true);
  });

  it('clear erases the line so other output starts clean', () => {
    const out = stream(true, 80);
    const p = progressPrinter(out);
    p.clear(); // nothing drawn yet: nothing to erase
    expect(out.text).toBe('');
    p.update({ elapsedMs: 0, text: 'a' });
    p.clear();
    p.done(); // already erased: no empty line
    expect(out.text).toBe('\r\x1b[2K0s  a\r\x1b[2K');
  });

  it('otherwise writes a plain line at most every plainEveryMs, and when forced', () => {
    const out = stream(false);
    const p = progressPrinter(out, false, { plainEveryMs: 10_000 });
    for (let t = 0; t <= 25_000; t += 1000) p.update({ elapsedMs: t, text: `t${t}` });
    p.update({ elapsedMs: 25_500, text: 'last' }, { force: true });
    p.done();
    expect(out.text.split('\n').filter(Boolean)).toEqual(['0s  t0', '10s  t10000', '20s  t20000', '26s  last']);
  });

  it('keeps the load harness cadence by default (5 s) and says nothing when quiet', () => {
    const out = stream(false);
    const p = progressPrinter(out);
    for (let t = 0; t <= 10_000; t += 1000) p.update({ elapsedMs: t, text: '.' });
    expect(out.text.split('\n').filter(Boolean)).toHaveLength(3);
    const silent = stream(true);
    const q = progressPrinter(silent, true);
    q.update({ elapsedMs: 0, text: 'a' }, { force: true });
    q.done();
    expect(silent.text).toBe('');
  });
});
