import type { CommandHelp, FlagSpec } from '../ground/args.ts';

// The flags of `outreach-conformance load MODE`, one table per mode: the parser reads each mode's
// argv from its table and `load [MODE] --help` is written from the same rows. A new flag is a
// row here (in COMMON when every mode takes it).

const COMMON = {
  profile: { type: 'string', value: 'FILE', help: "the target's profile (default: the embedded reference target)" },
  threshold: { type: 'list', value: 'EXPR', help: 'a verdict the load must hold, e.g. p99<300ms (default: the profile\'s load.thresholds)' },
  seed: { type: 'number', help: 'replay the same requests' },
  out: { type: 'string', value: 'DIR|s3://bucket/prefix', help: 'where <run>/ goes (default: reports); S3: credentials and endpoint from the AWS_* environment variables' },
  quiet: { type: 'boolean', help: 'no progress lines' },
  mutants: { type: 'list', value: 'a,b', help: '(embedded target only) serve a mutant of the reference: shows what a load run catches' },
} as const satisfies FlagSpec;

/** The metrics a load streams while it runs (load api and load sendpath, and each shard). */
const METRICS = {
  metrics: { type: 'strings', value: 'prometheus-rw=URL|otlp=URL', help: 'stream the load\'s metrics while it runs: Prometheus remote write, or OTLP over HTTP (repeat for both; user:password@ in the URL or OUTREACH_METRICS_AUTH for basic auth)' },
  'metrics-every': { type: 'string', value: '5s', help: 'how often the metrics are pushed (default 5s; a last push at the end)' },
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
      shard: { type: 'string', value: 'k/n', help: 'one slice of the load: every n-th request (rate/n) on its own workspaces (load merge joins them)' },
      'start-at': { type: 'string', value: 'ISO', help: 'prepare, then start the slice at that instant (every shard the same); a shard ready late exits 2' },
      'start-tolerance': { type: 'string', value: '50ms', help: "how far a shard's start or its clock may be off before it fails (default 50ms)" },
      run: { type: 'string', value: 'NAME', help: "the run's name, shared by its shards (default: from --start-at)" },
      precision: { type: 'string', value: 'timer|sleep-last-ms|spin-last-ms', help: 'how the generator waits (default timer; see bench:load)' },
      ...METRICS,
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
      shard: { type: 'string', value: 'k/n', help: 'one slice: its own mailboxes, leads and sinks (load merge sums the shards)' },
      run: { type: 'string', value: 'NAME', help: "the run's name, shared by its shards" },
      ...METRICS,
    },
    notes: THRESHOLDS,
    exit: EXIT,
  },
  merge: {
    usage: [
      'outreach-conformance load merge a/load.json b/load.json ... [--threshold EXPR]... [--out DIR]',
      'outreach-conformance load merge --from DIR|s3://bucket/prefix --run NAME --shards n [--wait 10m] [--threshold EXPR]... [--out DIR|s3://...]',
    ],
    summary: "one report from the shards of a sharded load: given one by one, or waited for in the store they write to",
    flags: {
      threshold: COMMON.threshold,
      out: COMMON.out,
      from: { type: 'string', value: 'DIR|s3://bucket/prefix', help: 'the store the shards write to (their --out)' },
      run: { type: 'string', value: 'NAME', help: "the run's name (the shards' --run)" },
      shards: { type: 'number', value: 'n', help: 'how many shards the run has' },
      wait: { type: 'string', value: '10m', help: 'how long to wait for every shard (default 10m); the missing are named' },
    },
    notes: THRESHOLDS,
    exit: EXIT,
  },
  kubernetes: {
    usage: ['outreach-conformance load kubernetes --shards n --package SPEC --secret NAME --profile FILE --out s3://... [flags]'],
    summary: 'writes the manifests of a sharded load api run: an Indexed Job (one pod per shard, started together) and a merge Job',
    flags: {
      shards: { type: 'number', value: 'n', help: 'how many shards: pods of the Indexed Job' },
      package: { type: 'string', value: 'SPEC', help: 'what npx installs in the pods: a registry name, a tarball URL or a git URL (an image with git)' },
      secret: { type: 'string', value: 'NAME', help: "the Kubernetes Secret whose keys become the pods' environment (the variables the profile reads: the command lists them)" },
      image: { type: 'string', value: 'IMAGE', help: 'a stock Node.js image (default node:24-slim)' },
      profile: { type: 'string', value: 'FILE', help: "the target's profile (required: its baseUrl reachable from the pods)" },
      out: { type: 'string', value: 's3://bucket/prefix|DIR', help: 'where every shard writes (a directory needs --claim)' },
      claim: { type: 'string', value: 'PVC', help: 'a PersistentVolumeClaim mounted at --out (when --out is a directory)' },
      rate: { type: 'string', value: '200/s', help: 'the total rate of all shards' },
      duration: { type: 'string', value: '2m', help: 'how long' },
      mix: { type: 'string', value: 'flow=w,...', help: 'the flows and their weights' },
      precision: { type: 'string', value: 'timer|sleep-last-ms|spin-last-ms', help: 'how each generator waits' },
      metrics: { type: 'strings', value: 'prometheus-rw=URL|otlp=URL', help: "each shard streams its metrics there, labelled shard=\"k/n\" (credentials: OUTREACH_METRICS_AUTH in the Secret, never in the URL)" },
      'metrics-every': METRICS['metrics-every'],
      threshold: COMMON.threshold,
      'start-in': { type: 'string', value: '5m', help: 'room for scheduling, pulling the image and installing the kit (default 5m)' },
      run: { type: 'string', value: 'NAME', help: "the run's name (default: from the start instant)" },
      namespace: { type: 'string', value: 'NS', help: 'the namespace of the Jobs' },
      manifest: { type: 'string', value: 'FILE', help: 'where the YAML goes (default outreach-load-<run>.yaml)' },
    },
    exit: 'exit codes: 0 the manifests written, 2 a bad flag or profile',
  },
} as const satisfies Record<string, CommandHelp>;

export type LoadMode = keyof typeof LOAD_HELP;
export const LOAD_MODES = Object.keys(LOAD_HELP) as LoadMode[];
