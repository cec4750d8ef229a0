import { readFile, writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { stringify } from 'yaml';
import { parseArgs } from '../../ground/args.ts';
import { LOAD_HELP } from '../flags.ts';
import { KitError } from '../../ground/errors.ts';
import { parseProfile } from '../../ground/profile.ts';
import type { Profile } from '../../ground/profile-schema.ts';
import { refuseUncarriedLoad } from '../generator/api.ts';
import { PROFILE_SECRET_PATHS } from '../../ground/profile-schema.ts';
import { parseDuration, parseRate } from '../../ground/units.ts';
import { parseRunName, runFromInstant } from '../shards.ts';
import { buildManifests } from './manifests.ts';
import { hasCredentials, hideCredentials, parseMetricsFlag } from '../metrics/flag.ts';

// `load kubernetes --shards n ...`: writes the manifests of a sharded `load api` (a ConfigMap with
// the profile, an Indexed Job of n shards, a merge Job) and says how to apply, read and clean up.

/** The option table of `load kubernetes`. */
// Its flags are the `kubernetes` row of harness/load/flags.ts (parser and help from one table).

/** A profile that holds a secret itself (not {"env": NAME}) would put it in a ConfigMap: refused, naming the field. */
export function refuseInlineSecrets(profile: unknown, path: string): void {
  for (const p of PROFILE_SECRET_PATHS) {
    const [head, star, tail] = p.split('.') as [string, string, string?];
    const values = star === '*' ? ((profile as Record<string, unknown[]>)[head] ?? []).map((w, i) => [`${head}.${i}.${tail}`, (w as Record<string, unknown>)?.[tail!]] as const) : [[p, (profile as Record<string, Record<string, unknown>>)[head]?.[star]] as const];
    for (const [field, v] of values)
      if (typeof v === 'string') throw new KitError(`${path}: ${field} holds its secret inline; the manifests carry the profile in a ConfigMap, so give it as {"env": "NAME"} and put NAME in the Kubernetes Secret (--secret)`);
  }
}

/** The pods reach the target over the cluster network: a loopback or embedded target there is not the one meant. */
export function refuseUnreachable(profile: Profile, path: string): void {
  if (profile.embedded) throw new KitError(`${path} names the embedded reference target: give the profile of the deployment the pods load`);
  for (const [field, url] of [['baseUrl', profile.baseUrl], ['control.baseUrl', profile.control?.baseUrl]] as const)
    if (url !== undefined && isLoopback(new URL(url).hostname)) throw new KitError(`${path}: ${field} ${url} is a loopback address, which inside a pod is the pod itself: give an address the cluster reaches`);
}

function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  return h === 'localhost' || h.endsWith('.localhost') || /^127\./.test(h) || h === '::1' || h === '0.0.0.0' || h === '::';
}

/** The environment variables the pods' Secret must hold: each {"env"} the profile reads, and S3's credentials for an s3:// --out. */
export function secretKeys(profile: Profile, out: string): string[] {
  const envs = [...profile.workspaces.map((w) => w.apiKey), ...(profile.control ? [profile.control.token] : [])].flatMap((v) => (typeof v === 'object' && v && 'env' in v ? [v.env] : []));
  return [...new Set(envs), ...(out.startsWith('s3://') ? ['AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] : [])];
}

/** Each shard's --metrics (checked here as the shard would); credentials belong in the Secret, not in a manifest. */
function metricsArgs(values: string[] | undefined, every: string | undefined): string[] {
  for (const v of values ?? []) if (hasCredentials(v)) throw new KitError(`--metrics ${hideCredentials(v)}: the manifests would carry the URL's credentials; put OUTREACH_METRICS_AUTH=user:password in the Secret (--secret) and give the URL without them`);
  parseMetricsFlag(values, {});
  if (every !== undefined) parseDuration(every, '--metrics-every');
  return [...(values ?? []).flatMap((v) => ['--metrics', v]), ...(every ? ['--metrics-every', every] : [])];
}

export async function kubernetesCommand(argv: string[]): Promise<number> {
  const f = parseArgs(argv, LOAD_HELP.kubernetes.flags) as Record<string, any>;
  const need = (name: string, what: string) => {
    if (f[name] === undefined) throw new KitError(`load kubernetes needs --${name} (${what})`);
    return f[name];
  };
  const shards = need('shards', 'how many shards: pods of the Indexed Job') as number;
  if (!Number.isInteger(shards) || shards < 1 || shards > 1000) throw new KitError(`--shards takes a whole number from 1 to 1000, not ${shards}`);
  const out = need('out', 's3://bucket/prefix, or a directory with --claim') as string;
  if (!out.startsWith('s3://') && !f.claim) throw new KitError('--out is a directory: give --claim NAME, a PersistentVolumeClaim every pod mounts there (or use s3://bucket/prefix)');
  // Without a profile every pod would load an embedded reference of its own: nothing a team wants measured.
  const profilePath = resolve(need('profile', "the target's profile: the pods load the target it names"));
  const profileText = await readFile(profilePath, 'utf8').catch((e: Error) => {
    throw new KitError(`cannot read profile ${profilePath}: ${e.message}`);
  });
  refuseInlineSecrets(JSON.parse(profileText), profilePath);
  const profile = parseProfile(JSON.parse(profileText), profilePath);
  refuseUnreachable(profile, profilePath);
  const durationMs = parseDuration(f.duration ?? '30s', '--duration');
  const rate = parseRate(f.rate ?? '20/s');
  // What every shard would refuse after its start room (a rate its slice of the workspaces cannot carry) is refused now.
  for (let k = 1; k <= shards; k++) refuseUncarriedLoad(profile, rate, durationMs, shards > 1 ? { index: k, of: shards } : undefined);
  const startAt = Math.ceil((Date.now() + parseDuration(f['start-in'] ?? '5m', '--start-in')) / 1000) * 1000;
  const run = f.run ? parseRunName(f.run) : runFromInstant(startAt);
  const metrics = metricsArgs(f.metrics as string[] | undefined, f['metrics-every'] as string | undefined);
  const loadArgs = ['--rate', f.rate ?? '20/s', '--duration', f.duration ?? '30s', ...(f.mix ? ['--mix', f.mix] : []), ...(f.precision ? ['--precision', f.precision] : []), ...metrics];
  const manifests = buildManifests({
    run,
    shards,
    image: f.image ?? 'node:24-slim',
    kitPackage: need('package', 'the kit to install in the pods: outreach-conformance@VERSION, a tarball URL or a git URL'),
    secret: need('secret', 'a Kubernetes Secret with the profile\'s {"env"} secrets and the AWS_* variables'),
    profileText,
    out,
    claim: f.claim,
    loadArgs,
    thresholds: f.threshold ?? [],
    startAt,
    mergeWaitSeconds: Math.ceil((startAt - Date.now() + durationMs) / 1000) + 600,
    namespace: f.namespace,
  });
  const file = resolve(f.manifest ?? `outreach-load-${run}.yaml`);
  await writeFile(file, manifests.map((m) => stringify(m.toJSON())).join('---\n'));
  const ns = f.namespace ? ` -n ${f.namespace}` : '';
  process.stdout.write(
    [
      `wrote ${file}: ${shards} shard(s) starting together at ${new Date(startAt).toISOString()}, run ${run}`,
      `apply it before then:  kubectl apply${ns} -f ${file}`,
      `follow:                kubectl logs${ns} -f job/${run}-merge   (its exit code is the verdict)`,
      `the Secret ${f.secret} holds: ${secretKeys(profile, out).join(', ')}${metrics.length ? ' (and OUTREACH_METRICS_AUTH=user:password if the --metrics endpoint asks for basic auth)' : ''}`,
      `result:                ${out}/${run}/merged/load.json and load.html`,
      `clean up:              kubectl delete${ns} -f ${file}`,
      '',
    ].join('\n'),
  );
  return 0;
}
