import { afterAll, describe, expect, it, vi } from 'vitest';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { Job } from 'kubernetes-models/batch/v1/Job';
import { ConfigMap } from 'kubernetes-models/v1/ConfigMap';
import { kubernetesCommand, refuseInlineSecrets } from './command.ts';
import { buildManifests, shellQuote } from './manifests.ts';
import { DEFAULT_PROFILE_PATH } from '../../ground/profile.ts';

// The manifests of a sharded load: parsed back from the YAML written and validated against the
// Kubernetes schemas (kubernetes-models' validators, generated from the Kubernetes OpenAPI spec).

const dir = mkdtempSync(join(tmpdir(), 'k8s-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

// A whole profile (the pods would refuse less): the reference's names and declarations, a staging target.
const reference = JSON.parse(readFileSync(DEFAULT_PROFILE_PATH, 'utf8'));
const profile = { ...reference, embedded: false, name: 'staging', baseUrl: 'https://api.staging.example.test', workspaces: [{ apiKey: { env: 'OUTREACH_KEY' } }], control: { baseUrl: 'https://control.example.test', token: { env: 'CONTROL_TOKEN' } } };

describe('load kubernetes', () => {
  it('writes a ConfigMap, an Indexed Job of n shards and a merge Job that validate', async () => {
    const profilePath = join(dir, 'profile.json');
    writeFileSync(profilePath, JSON.stringify(profile));
    const manifest = join(dir, 'out.yaml');
    const argv = ['--shards', '4', '--package', 'https://example.test/outreach-conformance-0.1.0.tgz', '--secret', 'outreach-load', '--profile', profilePath, '--out', 's3://loads/nightly', '--rate', '400/s', '--duration', '2m', '--threshold', 'p99<300ms', '--run', 'nightly-1', '--manifest', manifest];
    expect(await kubernetesCommand(argv)).toBe(0);
    const docs = parseAllDocuments(readFileSync(manifest, 'utf8')).map((d) => d.toJSON() as Record<string, any>);
    expect(docs.map((d) => `${d.kind}/${d.metadata.name}`)).toEqual(['ConfigMap/nightly-1-profile', 'Job/nightly-1-shards', 'Job/nightly-1-merge']);
    // Each document, read back from the YAML, against the Kubernetes schema of its kind.
    new ConfigMap(docs[0] as never).validate();
    for (const d of docs.slice(1)) new Job(d as never).validate();
    const [cm, shards, merge] = docs;
    expect(JSON.parse(cm!.data['profile.json'])).toEqual(profile);
    expect(shards!.spec).toMatchObject({ completionMode: 'Indexed', completions: 4, parallelism: 4, backoffLimit: 0 });
    const pod = shards!.spec.template.spec;
    const c = pod.containers[0];
    expect(c.image).toBe('node:24-slim');
    expect(c.envFrom).toEqual([{ secretRef: { name: 'outreach-load' } }]);
    const script: string = c.command[2];
    expect(script).toContain("npx --yes --package=https://example.test/outreach-conformance-0.1.0.tgz outreach-conformance load api --profile /etc/outreach-conformance/profile.json --start-at ");
    expect(script).toMatch(/--start-at \d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000Z --run nightly-1 --out s3:\/\/loads\/nightly --rate 400\/s --duration 2m --shard "\$\(\(JOB_COMPLETION_INDEX \+ 1\)\)\/4"$/);
    const startAt = Date.parse(/--start-at (\S+)/.exec(script)![1]!);
    expect(startAt - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(merge!.spec.template.spec.containers[0].command[2]).toMatch(/load merge --from s3:\/\/loads\/nightly --out s3:\/\/loads\/nightly --run nightly-1 --shards 4 --wait \d+s --threshold 'p99<300ms'$/);
    expect(JSON.stringify(docs)).not.toMatch(/"value":"(?!false)/);
  });

  it('refuses a profile with an inline secret, a missing flag, and a directory without a claim', async () => {
    expect(() => refuseInlineSecrets({ workspaces: [{ apiKey: { env: 'K' } }, { apiKey: 'sk_live' }] }, 'p.json')).toThrow(/p.json: workspaces.1.apiKey holds its secret inline/);
    expect(() => refuseInlineSecrets({ control: { token: 'tok' } }, 'p.json')).toThrow(/control.token holds its secret inline/);
    await expect(kubernetesCommand(['--shards', '2', '--out', 's3://b/x'])).rejects.toThrow(/needs --profile|needs --package|needs --secret/);
    await expect(kubernetesCommand(['--shards', '2', '--out', '/results'])).rejects.toThrow(/--claim NAME/);
    await expect(kubernetesCommand(['--shards', '0', '--out', 's3://b/x'])).rejects.toThrow(/--shards takes a whole number/);
  });

  it("refuses what every shard would refuse after its start room: a rate its workspaces cannot carry (load api's message), a loopback target, no profile", async () => {
    const write = (p: object) => {
      const path = join(dir, `p-${Math.random().toString(36).slice(2)}.json`);
      writeFileSync(path, JSON.stringify(p));
      return path;
    };
    const base = ['--shards', '3', '--package', 'outreach-conformance@1.0.0', '--secret', 's', '--out', 's3://b/x', '--manifest', join(dir, 'refused.yaml')];
    const three = { ...reference, embedded: false, name: 'staging', baseUrl: 'https://api.staging.example.test', workspaces: ['A', 'B', 'C'].map((x) => ({ apiKey: { env: `OUTREACH_KEY_${x}` } })) };
    await expect(kubernetesCommand([...base, '--profile', write(three), '--rate', '30/s'])).rejects.toThrow(/^a load of 10\/s needs \d+ workspaces .* the profile gives 1 to shard 1\/3 and no control API\. Lower --rate/);
    await expect(kubernetesCommand([...base, '--profile', write({ ...three, baseUrl: 'http://127.0.0.1:8080' }), '--rate', '1/s'])).rejects.toThrow(/baseUrl http:\/\/127\.0\.0\.1:8080 is a loopback address/);
    await expect(kubernetesCommand([...base, '--profile', write({ ...profile, control: { ...profile.control, baseUrl: 'http://localhost:9' } })])).rejects.toThrow(/control\.baseUrl .* is a loopback address/);
    await expect(kubernetesCommand([...base, '--rate', '1/s'])).rejects.toThrow(/needs --profile/);
    expect(existsSync(join(dir, 'refused.yaml'))).toBe(false);
    // A rate the slices carry is written, and the Secret's keys are the ones the profile reads.
    const said: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      expect(await kubernetesCommand([...base, '--profile', write(three), '--rate', '1/s'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    expect(said.join('')).toContain('the Secret s holds: OUTREACH_KEY_A, OUTREACH_KEY_B, OUTREACH_KEY_C, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY');
  });

  it('passes --metrics to every shard (labelled by its shard there), and refuses credentials in its URL or a bad value', async () => {
    const profilePath = join(dir, 'profile-metrics.json');
    writeFileSync(profilePath, JSON.stringify(profile));
    const manifest = join(dir, 'metrics.yaml');
    const base = ['--shards', '3', '--package', 'outreach-conformance@1.0.0', '--secret', 's', '--profile', profilePath, '--out', 's3://b/x', '--rate', '30/s', '--manifest', manifest];
    const said: string[] = [];
    const spy = vi.spyOn(process.stdout, 'write').mockImplementation((s) => (said.push(String(s)), true));
    try {
      expect(await kubernetesCommand([...base, '--metrics', 'prometheus-rw=http://prometheus.monitoring:9090/api/v1/write', '--metrics', 'otlp=http://otel:4318/v1/metrics', '--metrics-every', '10s'])).toBe(0);
    } finally {
      spy.mockRestore();
    }
    const docs = parseAllDocuments(readFileSync(manifest, 'utf8')).map((d) => d.toJSON() as Record<string, any>);
    const script: string = docs[1]!.spec.template.spec.containers[0].command[2];
    expect(script).toContain('--metrics prometheus-rw=http://prometheus.monitoring:9090/api/v1/write --metrics otlp=http://otel:4318/v1/metrics --metrics-every 10s --shard');
    expect(said.join('')).toContain('OUTREACH_METRICS_AUTH=user:password if the --metrics endpoint asks for basic auth');
    await expect(kubernetesCommand([...base, '--metrics', 'prometheus-rw=https://svc:hunter2-secret@prom.example.test/api/v1/write'])).rejects.toThrow(/^--metrics https?:|^--metrics prometheus-rw=https:\/\/\*\*\*@prom\.example\.test\/api\/v1\/write: the manifests would carry the URL's credentials; put OUTREACH_METRICS_AUTH/);
    await expect(kubernetesCommand([...base, '--metrics', 'graphite=http://g:2003'])).rejects.toThrow(/"graphite" is not an output/);
    const leaked = await kubernetesCommand([...base, '--metrics', 'prometheus-rw=https://svc:hunter2-secret@prom.example.test/api/v1/write']).catch((e: Error) => e.message);
    expect(leaked).not.toMatch(/hunter2/);
  });

  it('mounts a volume claim at a directory --out, and the typed models refuse a bad manifest', () => {
    const plan = { run: 'r', shards: 2, image: 'node:20', kitPackage: 'outreach-conformance@0.1.0', secret: 's', profileText: '{}', out: '/results', claim: 'load-results', loadArgs: [], thresholds: [], startAt: Date.now(), mergeWaitSeconds: 60 };
    const [, shards] = buildManifests(plan) as [ConfigMap, Job, Job];
    expect(shards.spec!.template.spec!.volumes).toContainEqual({ name: 'results', persistentVolumeClaim: { claimName: 'load-results' } });
    expect(() => buildManifests({ ...plan, shards: 1.5 })).toThrow(/completions/);
    expect(shellQuote("it's")).toBe(`'it'\\''s'`);
  });
});
