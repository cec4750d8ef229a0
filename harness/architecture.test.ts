// The house: its rooms and the imports each may make, one row per room, as data
// (docs/ARCHITECTURE.md draws it). An import into a room its row does not list, a way into the
// reference other than its entry, or an import circle anywhere fails here, naming the files.
import { describe, expect, it } from 'vitest';
import { readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/**
 * Rooms of the kit, one row each: the path prefixes that make the room (a file belongs to the
 * first row naming a prefix of it) and the rooms it may import. Within a room anything goes (the
 * circle test below still holds); an import into a room not listed fails, naming both files.
 * `reference` means the reference target's entry (index.ts, serve.ts), nothing inside it.
 */
const ROOMS: readonly { room: string; prefixes: readonly string[]; may: readonly string[] }[] = [
  { room: 'bin', prefixes: ['bin/'], may: ['cli'] },
  { room: 'cli', prefixes: ['harness/cli/'], may: ['runner', 'report', 'load', 'load/compare', 'load/sendpath', 'load/report', 'load/generator', 'mutation', 'portability', 'suites', 'sinks', 'client', 'events', 'ground', 'spec-model', 'fixtures', 'reference'] },
  { room: 'bench', prefixes: ['harness/bench/'], may: ['runner', 'load/compare', 'load/sendpath', 'load/report', 'load/generator', 'load/metrics', 'sinks', 'client', 'ground', 'spec-model', 'fixtures', 'reference'] },
  { room: 'mutation', prefixes: ['harness/mutation/'], may: ['runner', 'suites', 'ground', 'spec-model', 'reference'] },
  { room: 'portability', prefixes: ['harness/portability/'], may: ['runner', 'report', 'suites', 'ground', 'spec-model', 'reference'] },
  { room: 'fuzz', prefixes: ['harness/fuzz/'], may: ['sinks', 'ground', 'reference'] },
  { room: 'flakes', prefixes: ['harness/flakes/'], may: ['ground'] },
  // The package's own tooling: what the tarball holds, tried in an empty project.
  { room: 'package', prefixes: ['harness/package/'], may: ['ground'] },
  // The vitest worker's entry: it hands the chosen checks to the runner.
  { room: 'worker', prefixes: ['suites/conformance.run.ts'], may: ['runner', 'suites', 'sinks', 'client', 'events', 'ground', 'spec-model'] },
  { room: 'suites', prefixes: ['suites/'], may: ['sinks', 'client', 'events', 'ground', 'spec-model', 'fixtures'] },
  { room: 'runner', prefixes: ['harness/runner/'], may: ['sinks', 'client', 'events', 'ground', 'spec-model'] },
  // The load rooms: each mode (generator, sendpath) and compare read the report (its types, the
  // histogram, the merge) and the load target's type, which import no mode.
  { room: 'load', prefixes: ['harness/load/command.ts', 'harness/load/flags.ts', 'harness/load/shards.ts', 'harness/load/merge-shards.ts', 'harness/load/kubernetes/'], may: ['load/sendpath', 'load/generator', 'load/report', 'load/target', 'load/store', 'load/metrics', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'load/compare', prefixes: ['harness/load/compare/'], may: ['load', 'load/sendpath', 'load/generator', 'load/report', 'load/target', 'report', 'sinks', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'load/sendpath', prefixes: ['harness/load/sendpath/'], may: ['load/report', 'load/target', 'sinks', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'load/generator', prefixes: ['harness/load/generator/'], may: ['load/report', 'load/target', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'load/report', prefixes: ['harness/load/report/'], may: ['report', 'ground', 'spec-model'] },
  { room: 'load/target', prefixes: ['harness/load/target.ts'], may: ['client', 'ground', 'spec-model'] },
  // Where a run's metrics stream while it runs (Prometheus remote write, OTLP): fed by the load modes' events.
  { room: 'load/metrics', prefixes: ['harness/load/metrics/'], may: ['ground'] },
  // Where a run's files go: a directory or an S3 bucket.
  { room: 'load/store', prefixes: ['harness/load/store/'], may: ['ground'] },
  { room: 'report', prefixes: ['harness/report/'], may: ['client', 'events', 'ground', 'spec-model'] },
  { room: 'client', prefixes: ['harness/client/'], may: ['ground', 'spec-model'] },
  { room: 'sinks', prefixes: ['harness/sinks/'], may: ['ground', 'spec-model'] },
  { room: 'events', prefixes: ['harness/events/'], may: ['ground', 'spec-model'] },
  // The spec model is the spec read as data: it imports nothing of the kit.
  { room: 'spec-model', prefixes: ['harness/ground/spec-model/'], may: [] },
  { room: 'ground', prefixes: ['harness/ground/'], may: ['spec-model'] },
  { room: 'fixtures', prefixes: ['fixtures/'], may: ['ground', 'spec-model'] },
];
/** The reference is entered through these files only, by the rooms listing `reference`. */
const REFERENCE = 'harness/reference/';
const REFERENCE_ENTRY = ['harness/reference/index.ts', 'harness/reference/serve.ts'];

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
      ['harness/cli/run.ts', 'harness/reference/http/app.ts'],
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
