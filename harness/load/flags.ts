import type { CommandHelp, FlagSpec } from '../ground/args.ts';

// The flags of `outreach-conformance load MODE`, one table per mode: the parser reads each mode's
// argv from its table and `load [MODE] --help` is written from the same rows. A new flag is a
// row here (in COMMON when every mode takes it).

const COMMON = {
  profile: { type: 'string', value: 'FILE', help: "the target's profile (default: the embedded reference target)" },
  threshold: { type: 'list', value: 'EXPR', help: 'a verdict the load must hold, e.g. p99<300ms (default: the profile\'s load.thresholds)' },
  seed: { type: 'number', help: 'replay the same requests' },
  out: { type: 'string', value: 'DIR', help: 'where <run>/ goes (default: reports)' },
  quiet: { type: 'boolean', help: 'no progress lines' },
  mutants: { type: 'list', value: 'a,b', help: '(embedded target only) serve a mutant of the reference: shows what a load run catches' },
} as const satisfies FlagSpec;

const THRESHOLDS = [
  'thresholds: p50|p99|p99.9|max|mean<300ms (service.p99 for service time), errors<0.1%, late<1%, violations<1,',
  '            throughput>=100/s, duplicates<1, losses<1, achieved>=0.95',
];
const EXIT = 'exit codes: 0 no violation and every threshold held, 1 a violation or a broken threshold (named), 2 the kit could not run';

export const LOAD_HELP = {
  api: {
    usage: ['outreach-conformance load api [flags]'],
    summary: 'an open-model load of the API at a fixed rate: latency, errors and the protocol rules under load (load.json, load.html, requests.ndjson)',
    flags: {
      ...COMMON,
      rate: { type: 'string', value: '200/s', help: 'requests per second (default 20/s)' },
      duration: { type: 'string', value: '2m', help: 'how long (default 30s)' },
      mix: { type: 'string', value: 'flow=w,...', help: 'the flows and their weights' },
      shard: { type: 'string', value: 'k/n', help: 'one slice of the load: rate/n on its own workspaces (load merge joins them)' },
      precision: { type: 'string', value: 'timer|sleep-last-ms|spin-last-ms', help: 'how the generator waits (default timer; see bench:load)' },
    },
    notes: THRESHOLDS,
    exit: EXIT,
  },
  capacity: {
    usage: ['outreach-conformance load capacity [flags]'],
    summary: 'a closed-model load, step by step in connections: the throughput and latency at each (load.json, load.html)',
    flags: {
      ...COMMON,
      connections: { type: 'list', value: '1,4,16,64', help: 'the steps (default 1,4,16,64)' },
      step: { type: 'string', value: '10s', help: 'how long each step (default 10s)' },
    },
    notes: THRESHOLDS,
    exit: EXIT,
  },
  sendpath: {
    usage: ['outreach-conformance load sendpath [flags]'],
    summary: 'campaigns sending through the sinks: send-path throughput, sending gaps and caps, duplicates and losses (load.json, load.html)',
    flags: {
      ...COMMON,
      mailboxes: { type: 'number', help: 'sending mailboxes (default 100)' },
      leads: { type: 'number', help: 'leads in all (default 2000)' },
      campaigns: { type: 'number', help: 'campaigns sending at once' },
      gap: { type: 'number', value: 'MIN', help: "each mailbox's sending gap in minutes" },
      cap: { type: 'number', help: "each mailbox's daily cap" },
      steps: { type: 'number', help: 'sequence steps per campaign' },
      'max-wall': { type: 'string', value: '10m', help: 'the longest it may take (default 10m)' },
    },
    notes: THRESHOLDS,
    exit: EXIT,
  },
  merge: {
    usage: ['outreach-conformance load merge a/load.json b/load.json ... [--threshold EXPR]... [--out DIR]'],
    summary: 'one report from the shards a load api run was split into (its shard flag)',
    flags: { threshold: COMMON.threshold, out: COMMON.out },
    notes: THRESHOLDS,
    exit: EXIT,
  },
} as const satisfies Record<string, CommandHelp>;

export type LoadMode = keyof typeof LOAD_HELP;
export const LOAD_MODES = Object.keys(LOAD_HELP) as LoadMode[];
