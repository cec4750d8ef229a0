// The house as data: the kit's rooms, the imports each may make, and the reference target's
// entry and layers. harness/architecture.test.ts holds the code to it; draw.ts draws it into
// docs/ARCHITECTURE.md (`npm run architecture:draw`), and a test keeps the drawing in step.

export interface Room {
  room: string;
  prefixes: readonly string[];
  may: readonly string[];
}

/**
 * Rooms of the kit, one row each: the path prefixes that make the room (a file belongs to the
 * first row naming a prefix of it) and the rooms it may import. Within a room anything goes (the
 * circle test of harness/architecture.test.ts still holds); an import into a room not listed fails, naming both files,
 * and so does a room listed that the code does not import (a permission unused).
 * `reference` means the reference target's entry (index.ts, serve.ts), nothing inside it.
 */
export const ROOMS: readonly Room[] = [
  { room: 'bin', prefixes: ['bin/'], may: ['cli'] },
  { room: 'cli', prefixes: ['harness/cli/'], may: ['conformance', 'runner', 'plan', 'report', 'load', 'load/compare', 'mutation', 'portability', 'suites', 'sinks', 'client', 'ground', 'spec-model', 'reference'] },
  // The vitest worker's entry, the first file of a process of its own: the one place of the run
  // that takes the checks (and the first look) from suites/, handing the chosen ones to the runner.
  { room: 'worker', prefixes: ['harness/worker/'], may: ['runner', 'plan', 'suites', 'client', 'events', 'ground'] },
  // The conformance run as a product, like load/ and mutation/: its command, its settled flags, preflight, the
  // embedded target, keys, the progress line, the run's files, and the worker it starts. It
  // imports no check: the command that starts it gives it the kit's checks.
  { room: 'conformance', prefixes: ['harness/conformance/'], may: ['runner', 'plan', 'report', 'mutation', 'sinks', 'client', 'events', 'ground', 'spec-model', 'reference'] },
  { room: 'bench', prefixes: ['harness/bench/'], may: ['conformance', 'runner', 'plan', 'suites', 'events', 'load/compare', 'load/sendpath', 'load/report', 'load/generator', 'load/target', 'load/metrics', 'sinks', 'client', 'ground', 'reference'] },
  { room: 'mutation', prefixes: ['harness/mutation/'], may: ['runner', 'plan', 'suites', 'ground', 'spec-model', 'reference'] },
  { room: 'portability', prefixes: ['harness/portability/'], may: ['runner', 'plan', 'report', 'suites', 'ground', 'reference'] },
  { room: 'fuzz', prefixes: ['harness/fuzz/'], may: ['sinks', 'reference'] },
  { room: 'flakes', prefixes: ['harness/flakes/'], may: ['ground'] },
  // The house's own plan (this table) and its drawing.
  { room: 'house', prefixes: ['harness/house/'], may: [] },
  // The package's own tooling: what the tarball holds, tried in an empty project.
  { room: 'package', prefixes: ['harness/package/'], may: ['ground'] },
  { room: 'suites', prefixes: ['suites/'], may: ['sinks', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'runner', prefixes: ['harness/runner/'], may: ['plan', 'sinks', 'client', 'ground', 'spec-model'] },
  // Everything before a run: the selection flags and the depths' selection, the kill matrix and detection, expected
  // requests and durations, the schedule and estimate, a target's learned pace. No engine.
  { room: 'plan', prefixes: ['harness/plan/'], may: ['ground', 'spec-model'] },
  // The load rooms: each mode (generator, sendpath) and compare read the report (its types, the
  // histogram, the merge) and the load target's room, which import no mode.
  { room: 'load', prefixes: ['harness/load/command.ts', 'harness/load/flags.ts', 'harness/load/shards.ts', 'harness/load/merge-shards.ts', 'harness/load/kubernetes/'], may: ['load/sendpath', 'load/generator', 'load/report', 'load/target', 'load/store', 'load/metrics', 'client', 'ground'] },
  { room: 'load/compare', prefixes: ['harness/load/compare/'], may: ['load/sendpath', 'load/generator', 'load/report', 'load/target', 'report', 'sinks', 'client', 'ground'] },
  { room: 'load/sendpath', prefixes: ['harness/load/sendpath/'], may: ['load/report', 'load/target', 'sinks', 'client', 'ground', 'fixtures'] },
  { room: 'load/generator', prefixes: ['harness/load/generator/'], may: ['load/report', 'load/target', 'client', 'ground', 'spec-model', 'fixtures'] },
  { room: 'load/report', prefixes: ['harness/load/report/'], may: ['report', 'ground'] },
  // What every load mode and compare share about the target: its shape (target.ts), the embedded
  // reference in a child process with its capacity limit, and the environment header a report carries.
  { room: 'load/target', prefixes: ['harness/load/target.ts', 'harness/load/embedded-target.ts', 'harness/load/environment.ts'], may: ['load/report', 'client', 'ground'] },
  // Where a run's metrics stream while it runs (Prometheus remote write, OTLP): fed by the load modes' events.
  { room: 'load/metrics', prefixes: ['harness/load/metrics/'], may: ['ground'] },
  // Where a run's files go: a directory or an S3 bucket.
  { room: 'load/store', prefixes: ['harness/load/store/'], may: ['ground'] },
  { room: 'report', prefixes: ['harness/report/'], may: ['client', 'events', 'ground', 'spec-model'] },
  { room: 'client', prefixes: ['harness/client/'], may: ['ground'] },
  { room: 'sinks', prefixes: ['harness/sinks/'], may: ['ground'] },
  { room: 'events', prefixes: ['harness/events/'], may: ['ground'] },
  // The spec model is the spec read as data: it imports nothing of the kit.
  { room: 'spec-model', prefixes: ['harness/ground/spec-model/'], may: [] },
  { room: 'ground', prefixes: ['harness/ground/'], may: ['spec-model'] },
  { room: 'fixtures', prefixes: ['fixtures/'], may: [] },
];
/** The reference is entered through these files only, by the rooms listing `reference`. */
export const REFERENCE = 'harness/reference/';
export const REFERENCE_ENTRY = ['harness/reference/index.ts', 'harness/reference/serve.ts'];

/** Layers of the reference target, top to bottom: each imports only the layers below it. */
export const REFERENCE_LAYERS = ['(entry)', 'control', 'http', 'resources', 'sending', 'analytics', 'request', 'mail', 'store', 'switches', 'domain'];
