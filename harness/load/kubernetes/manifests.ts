import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IPodSpec } from 'kubernetes-models/v1/PodSpec';

// `load kubernetes`: the manifests of a sharded load, built with typed models (each validates
// itself against the Kubernetes schema it is generated from). An Indexed Job runs one shard per
// pod (completions = parallelism = n, the shard from JOB_COMPLETION_INDEX), all given one start
// instant; a merge Job waits for their load.json in the shared store and gates on the thresholds.
// The kit runs from a stock Node.js image and the package the user names; secrets come from a
// Kubernetes Secret as environment variables, never inline.

export interface KubernetesPlan {
  /** the run's name: Jobs are named after it, shards write <out>/<run>/shard-k-of-n */
  run: string;
  shards: number;
  /** the stock image, e.g. node:24-slim */
  image: string;
  /** what npx installs: a registry name (outreach-conformance@0.1.0), a tarball URL or a git URL */
  kitPackage: string;
  /** the Secret whose keys become the pods' environment (profile {env} secrets, AWS_* credentials) */
  secret: string;
  /** the profile's text (secrets as {"env": NAME} only) */
  profileText: string;
  /** s3://bucket/prefix, or a directory on the volume claim below */
  out: string;
  /** a PersistentVolumeClaim every pod mounts at `out` (a directory --out) */
  claim?: string;
  /** the shards' arguments after `load api` (rate, duration, mix, thresholds...) */
  loadArgs: string[];
  /** the merge's thresholds */
  thresholds: string[];
  /** the start instant, epoch ms */
  startAt: number;
  /** how long the merge waits for the last shard */
  mergeWaitSeconds: number;
  namespace?: string;
}

const PROFILE_DIR = '/etc/outreach-conformance';

/** One argument for sh -c, quoted. */
export const shellQuote = (s: string) => (/^[A-Za-z0-9_@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

function kitContainer(name: string, p: KubernetesPlan, args: string[], script: (kit: string) => string): IContainer {
  const kit = `npx --yes --package=${shellQuote(p.kitPackage)} outreach-conformance`;
  return {
    name,
    image: p.image,
    command: ['sh', '-c', script(`${kit} ${args.map(shellQuote).join(' ')}`)],
    envFrom: [{ secretRef: { name: p.secret } }],
    env: [{ name: 'NPM_CONFIG_UPDATE_NOTIFIER', value: 'false' }],
    volumeMounts: [{ name: 'profile', mountPath: PROFILE_DIR, readOnly: true }, ...(p.claim ? [{ name: 'results', mountPath: p.out }] : [])],
  };
}

function podSpec(p: KubernetesPlan, container: IContainer): IPodSpec {
  return {
    restartPolicy: 'Never',
    containers: [container],
    volumes: [{ name: 'profile', configMap: { name: `${p.run}-profile` } }, ...(p.claim ? [{ name: 'results', persistentVolumeClaim: { claimName: p.claim } }] : [])],
  };
}

export function buildManifests(p: KubernetesPlan): (ConfigMap | Job)[] {
  const labels = { 'app.kubernetes.io/name': 'outreach-conformance', 'outreach-conformance/run': p.run };
  const meta = (name: string) => ({ name, labels, ...(p.namespace ? { namespace: p.namespace } : {}) });
  const startAt = new Date(p.startAt).toISOString();
  const profile = new ConfigMap({ metadata: meta(`${p.run}-profile`), data: { 'profile.json': p.profileText } });
  const shardArgs = ['load', 'api', '--profile', `${PROFILE_DIR}/profile.json`, '--start-at', startAt, '--run', p.run, '--out', p.out, ...p.loadArgs];
  // The shard index comes from the pod: JOB_COMPLETION_INDEX is 0-based, --shard k/n is 1-based.
  const shard = kitContainer('shard', p, shardArgs, (cmd) => `exec ${cmd} --shard "$((JOB_COMPLETION_INDEX + 1))/${p.shards}"`);
  const shards = new Job({
    metadata: meta(`${p.run}-shards`),
    spec: {
      completionMode: 'Indexed',
      completions: p.shards,
      parallelism: p.shards,
      // A shard tried again would start after the instant and fail: one try each.
      backoffLimit: 0,
      ttlSecondsAfterFinished: 86_400,
      template: { metadata: { labels }, spec: podSpec(p, shard) },
    },
  });
  const mergeArgs = ['load', 'merge', '--from', p.out, '--out', p.out, '--run', p.run, '--shards', String(p.shards), '--wait', `${p.mergeWaitSeconds}s`, ...p.thresholds.flatMap((t) => ['--threshold', t])];
  const merge = new Job({
    metadata: meta(`${p.run}-merge`),
    spec: { backoffLimit: 0, ttlSecondsAfterFinished: 86_400, template: { metadata: { labels }, spec: podSpec(p, kitContainer('merge', p, mergeArgs, (cmd) => `exec ${cmd}`)) } },
  });
  for (const m of [profile, shards, merge]) m.validate();
  return [profile, shards, merge];
}
