// The house: its rooms and the imports each may make, one row per room, as data
// (harness/house/rooms.ts; docs/ARCHITECTURE.md draws it). An import into a room its row does not list, a way into the
// reference other than its entry, or an import circle anywhere fails here, naming the files.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { REFERENCE, REFERENCE_ENTRY, REFERENCE_LAYERS, ROOMS } from './house/rooms.ts';
import { drawHouse, DRAWING_BEGIN, DRAWING_END } from './house/draw.ts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

const IMPORT = /(?:^|\s)(?:import|export)\s[^'";]*?from\s*(['"])(\.{1,2}\/[^'"]+)\1|import\(\s*(['"])(\.{1,2}\/[^'"]+)\3\s*\)|^import\s*(['"])(\.{1,2}\/[^'"]+)\5/gm;

function sources(dir: string, out: string[] = []): string[] {
  for (const f of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
    const p = join(dir, f.name);
    if (f.isDirectory() && f.name !== 'node_modules') sources(p, out);
    else if (/\.(ts|js)$/.test(f.name)) out.push(p);
  }
  return out;
}

const FILES = ['bin', 'harness', 'suites', 'fixtures'].flatMap((d) => sources(d));
const EDGES = FILES.flatMap((from) =>
  [...readFileSync(join(ROOT, from), 'utf8').matchAll(IMPORT)].map((m) => ({ from, to: relative(ROOT, resolve(ROOT, dirname(from), m[2] ?? m[4] ?? m[6]!)) })),
);
// The kit's own tests may reach anywhere (they start what they test); the code they test may not.
const isTest = (f: string) => /\.test\.ts$|test-helpers?\.ts$/.test(f);

const roomOf = (f: string) => ROOMS.find((r) => r.prefixes.some((p) => f.startsWith(p)));

/** Why an import of `to` by `from` (both outside the reference's inside) is refused, or undefined. */
export function refusal(from: string, to: string): string | undefined {
  const a = roomOf(from);
  if (!a) return `${from} is in no room`;
  if (to.startsWith(REFERENCE)) return a.may.includes('reference') && REFERENCE_ENTRY.includes(to) ? undefined : `${from} -> ${to} (${a.room} may not enter the reference${a.may.includes('reference') ? ' other than through index.ts or serve.ts' : ''})`;
  const b = roomOf(to);
  if (!b) return `${from} -> ${to} (${to} is in no room)`;
  return a === b || a.may.includes(b.room) ? undefined : `${from} -> ${to} (${a.room} may not import ${b.room})`;
}

const referenceLayer = (f: string) => {
  const inner = f.slice(REFERENCE.length);
  return inner.includes('/') ? REFERENCE_LAYERS.indexOf(inner.split('/')[0]!) : 0;
};

describe('the house', () => {
  it('names only rooms that exist in each row', () => {
    const names = new Set([...ROOMS.map((r) => r.room), 'reference']);
    expect(ROOMS.flatMap((r) => r.may.filter((m) => !names.has(m)).map((m) => `${r.room} may import unknown room ${m}`))).toEqual([]);
  });

  it('places every source file in a room or a reference layer', () => {
    const homeless = FILES.filter((f) => !isTest(f)).filter((f) => (f.startsWith(REFERENCE) ? referenceLayer(f) < 0 : !roomOf(f)));
    expect(homeless).toEqual([]);
  });

  it('lets each room import only the rooms its row lists, and the reference only through its entry', () => {
    const wrong = EDGES.filter(({ from }) => !isTest(from) && !from.startsWith(REFERENCE)).flatMap(({ from, to }) => refusal(from, to) ?? []);
    expect(wrong).toEqual([]);
  });

  it('refuses the imports the last reorganisations removed', () => {
    // Each once held a room to settings or a product above it; the rules must keep them out.
    const removed: [string, string][] = [
      ['harness/load/command.ts', 'harness/runner/profile.ts'],
      ['harness/load/report/html.ts', 'harness/load/sendpath/ideal.ts'],
      ['harness/load/report/types.ts', 'harness/load/generator/histogram.ts'],
      ['harness/load/generator/api.ts', 'harness/load/compare/stats.ts'],
      ['harness/load/sendpath/analyze.ts', 'harness/load/command.ts'],
      ['harness/load/generator/api.ts', 'harness/runner/seed.ts'],
      ['harness/mutation/command.ts', 'harness/cli/plan.ts'],
      ['harness/ground/spec-model/openapi.ts', 'harness/ground/profile-schema.ts'],
      ['harness/ground/spec-model/levels.ts', 'harness/ground/events.ts'],
      ['harness/ground/spec-model/openapi.ts', 'harness/ground/errors.ts'],
      ['harness/runner/runner.ts', 'harness/load/command.ts'],
      ['harness/sinks/http-mailpit-routes.ts', 'harness/kit.ts'],
      ['harness/runner/pool.ts', 'harness/cli/plan.ts'],
      ['suites/checks/resources/lib.ts', 'harness/runner/runner.ts'],
      ['harness/report/html.ts', 'harness/reference/index.ts'],
      ['harness/conformance/run.ts', 'harness/reference/http/app.ts'],
      ['harness/conformance/run.ts', 'suites/checks/index.ts'],
    ];
    expect(removed.filter(([from, to]) => refusal(from, to) === undefined)).toEqual([]);
  });

  it('keeps the reference a separate building in layers: it imports nothing of the kit, each layer only those below', () => {
    const wrong = EDGES.filter(({ from }) => from.startsWith(REFERENCE) && !isTest(from)).flatMap(({ from, to }) => {
      if (!to.startsWith(REFERENCE)) return [`${from} -> ${to} (outside the reference)`];
      const [a, b] = [referenceLayer(from), referenceLayer(to)];
      return b > a || from === to || (a === b && a > 0) || (a === 0 && b === 0) ? [] : [`${from} -> ${to} (${REFERENCE_LAYERS[a]} imports ${REFERENCE_LAYERS[b]})`];
    });
    expect(wrong).toEqual([]);
  });

  it('allows each room only the imports it makes: no permission unused', () => {
    const used = new Set(EDGES.filter(({ from }) => !isTest(from) && !from.startsWith(REFERENCE)).map(({ from, to }) => `${roomOf(from)?.room} ${to.startsWith(REFERENCE) ? 'reference' : roomOf(to)?.room}`));
    expect(ROOMS.flatMap((r) => r.may.filter((m) => !used.has(`${r.room} ${m}`)).map((m) => `${r.room} may import ${m} but does not`))).toEqual([]);
  });

  it('is drawn in docs/ARCHITECTURE.md as its rooms say (npm run architecture:draw)', () => {
    const doc = readFileSync(join(ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    expect(doc.slice(doc.indexOf(DRAWING_BEGIN), doc.indexOf(DRAWING_END) + DRAWING_END.length)).toBe(drawHouse());
  });

  it('has no import circle', () => {
    const next = new Map<string, string[]>();
    for (const { from, to } of EDGES) next.set(from, [...(next.get(from) ?? []), to]);
    const circles: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (f: string, path: string[]) => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') return void circles.push([...path.slice(path.indexOf(f)), f].join(' -> '));
      state.set(f, 'open');
      for (const t of next.get(f) ?? []) visit(t, [...path, f]);
      state.set(f, 'done');
    };
    for (const f of FILES) visit(f, []);
    expect(circles).toEqual([]);
  });
});
