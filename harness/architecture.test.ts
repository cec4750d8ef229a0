// The house: its rooms and the imports allowed between them, as data (docs/ARCHITECTURE.md
// draws it). An import that runs upward, a way into the reference other than its entry, or an
// import circle anywhere fails here, naming the files.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Rooms of the kit, top to bottom: each path prefix belongs to the first room naming it. */
const KIT_ROOMS: readonly [room: string, prefixes: readonly string[]][] = [
  ['top', ['bin/', 'harness/cli/', 'harness/bench/', 'harness/mutation/', 'harness/portability/', 'harness/fuzz/', 'harness/flakes/']],
  ['checks', ['suites/']],
  ['engines', ['harness/runner/', 'harness/load/', 'harness/report/']],
  ['parts', ['harness/client/', 'harness/sinks/', 'harness/events/', 'harness/kit.ts']],
  ['ground', ['harness/ground/', 'fixtures/']],
];
/** A room may import the rooms below it; the top room may also start the reference, through its entry. */
const REFERENCE = 'harness/reference/';
const REFERENCE_ENTRY = ['harness/reference/index.ts', 'harness/reference/serve.ts'];

/**
 * Rooms inside harness/load and what each may import of the others: the report (its types, the
 * histogram, the merge) and the load target's type are read by every mode and import none.
 */
const LOAD_ROOMS: Record<string, readonly string[]> = {
  'harness/load/report/': [],
  'harness/load/target.ts': [],
  'harness/load/store/': [],
  'harness/load/generator/': ['harness/load/report/', 'harness/load/target.ts'],
  'harness/load/sendpath/': ['harness/load/report/', 'harness/load/target.ts'],
  'harness/load/shards.ts': ['harness/load/report/', 'harness/load/generator/'],
  'harness/load/merge-shards.ts': ['harness/load/report/', 'harness/load/store/', 'harness/load/shards.ts'],
  'harness/load/kubernetes/': ['harness/load/shards.ts'],
  'harness/load/command.ts': ['harness/load/report/', 'harness/load/target.ts', 'harness/load/store/', 'harness/load/generator/', 'harness/load/sendpath/', 'harness/load/shards.ts', 'harness/load/merge-shards.ts', 'harness/load/kubernetes/'],
  'harness/load/compare/': ['harness/load/report/', 'harness/load/target.ts', 'harness/load/generator/', 'harness/load/sendpath/', 'harness/load/command.ts'],
};
const loadRoom = (f: string) => Object.keys(LOAD_ROOMS).find((r) => f.startsWith(r));

/** Layers of the reference target, top to bottom: each imports only the layers below it. */
const REFERENCE_LAYERS = ['(entry)', 'control', 'http', 'resources', 'sending', 'analytics', 'request', 'mail', 'store', 'switches', 'domain'];

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

const kitRoom = (f: string) => KIT_ROOMS.findIndex(([, prefixes]) => prefixes.some((p) => f.startsWith(p)));
const referenceLayer = (f: string) => {
  const inner = f.slice(REFERENCE.length);
  return inner.includes('/') ? REFERENCE_LAYERS.indexOf(inner.split('/')[0]!) : 0;
};

describe('the house', () => {
  it('places every source file in a room or a reference layer', () => {
    const homeless = FILES.filter((f) => !isTest(f)).filter((f) => (f.startsWith(REFERENCE) ? referenceLayer(f) < 0 : kitRoom(f) < 0));
    expect(homeless).toEqual([]);
  });

  it('lets the kit import only downward, and the reference only through its entry, from the top', () => {
    const upward = EDGES.filter(({ from, to }) => !isTest(from) && !from.startsWith(REFERENCE)).flatMap(({ from, to }) => {
      if (to.startsWith(REFERENCE)) return kitRoom(from) === 0 && REFERENCE_ENTRY.includes(to) ? [] : [`${from} -> ${to} (the reference is entered through index.ts by the top room only)`];
      return kitRoom(to) > kitRoom(from) ? [] : kitRoom(to) === kitRoom(from) ? [] : [`${from} -> ${to} (${KIT_ROOMS[kitRoom(from)]![0]} imports ${KIT_ROOMS[kitRoom(to)]![0]})`];
    });
    expect(upward).toEqual([]);
  });

  it('keeps the reference a separate building in layers: it imports nothing of the kit, each layer only those below', () => {
    const wrong = EDGES.filter(({ from }) => from.startsWith(REFERENCE) && !isTest(from)).flatMap(({ from, to }) => {
      if (!to.startsWith(REFERENCE)) return [`${from} -> ${to} (outside the reference)`];
      const [a, b] = [referenceLayer(from), referenceLayer(to)];
      return b > a || from === to || (a === b && a > 0) || (a === 0 && b === 0) ? [] : [`${from} -> ${to} (${REFERENCE_LAYERS[a]} imports ${REFERENCE_LAYERS[b]})`];
    });
    expect(wrong).toEqual([]);
  });

  it('keeps the load rooms in their order: no load file imports the conformance runner, each room only those it lists', () => {
    const wrong = EDGES.filter(({ from }) => from.startsWith('harness/load/') && !isTest(from)).flatMap(({ from, to }) => {
      if (to.startsWith('harness/runner/')) return [`${from} -> ${to} (the load reads its settings from harness/ground)`];
      const [a, b] = [loadRoom(from), loadRoom(to)];
      if (a === undefined) return [`${from} (in no load room)`];
      return b === undefined || a === b || LOAD_ROOMS[a]!.includes(b) ? [] : [`${from} -> ${to} (${a} may not import ${b})`];
    });
    expect(wrong).toEqual([]);
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
