import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { cpus, release, type } from 'node:os';
import type { Environment } from './report/types.ts';

// The fingerprint a load report carries, so two reports are compared only when they were
// measured alike: CPU, Node, kit version, target and a hash of the profile (never the profile:
// it may hold secrets).

const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

export function environment(targetUrl: string, profileText: string): Environment {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cpus: cpu.length,
    node: process.version,
    kit: pkg.version,
    os: `${type()} ${release()}`,
    targetUrl,
    profileHash: createHash('sha256').update(profileText).digest('hex'),
  };
}
