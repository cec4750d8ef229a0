import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PROFILE_SECRET_PATHS, Profile, type Secret } from '../ground/profile-schema.ts';
import { KitError } from '../ground/errors.ts';
import { REDACTED, type Redactor } from '../client/redact.ts';

export const DEFAULT_PROFILE_PATH = fileURLToPath(new URL('../../fixtures/profiles/reference.json', import.meta.url));

/** Reads and validates a profile file; every problem names the field ("names.list.cursor: Required"). */
export async function loadProfile(path: string = DEFAULT_PROFILE_PATH): Promise<Profile> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new KitError(`cannot read profile ${path}: ${(e as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new KitError(`profile ${path} is not valid JSON: ${(e as Error).message}`);
  }
  return parseProfile(raw, path);
}

export function parseProfile(raw: unknown, source = 'profile'): Profile {
  const parsed = Profile.safeParse(raw);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  - ${i.path.length ? i.path.join('.') : '(root)'}: ${i.message}`);
    throw new KitError(`invalid profile ${source}:\n${lines.join('\n')}`);
  }
  return parsed.data;
}

/** Resolves a secret; a missing environment variable names the field that wanted it. */
export function resolveSecret(secret: Secret, field: string, env: NodeJS.ProcessEnv = process.env): string {
  if (typeof secret === 'string') return secret;
  const value = env[secret.env];
  if (value === undefined) throw new KitError(`profile field ${field} reads environment variable ${secret.env}, which is not set`);
  if (value.trim() === '') throw new KitError(`profile field ${field} reads environment variable ${secret.env}, which is empty`);
  return value;
}

/**
 * The profile as reports record it: every field NAME kept (`result.secret: "key"` is a path,
 * not a secret), every secret VALUE replaced. A secret given inline becomes "[REDACTED]" and is
 * registered with `redactor` so an echo elsewhere is caught too; `{ env: NAME }` stays (a name,
 * not a value); the resolved values of environment secrets are registered when they are set.
 */
export function profileForReport(profile: Profile, redactor: Redactor, env: NodeJS.ProcessEnv = process.env): unknown {
  const copy = structuredClone(profile) as unknown;
  for (const path of PROFILE_SECRET_PATHS) {
    visit(copy, path.split('.'), (holder, key) => {
      const v = holder[key];
      if (typeof v === 'string') {
        redactor.add(v);
        holder[key] = REDACTED;
      } else if (v && typeof v === 'object' && typeof (v as { env?: unknown }).env === 'string') {
        redactor.add(env[(v as { env: string }).env]);
      }
    });
  }
  return scrubValues(copy, redactor);
}

function visit(node: unknown, path: string[], at: (holder: Record<string, unknown>, key: string) => void): void {
  if (!node || typeof node !== 'object') return;
  const [head, ...rest] = path;
  const holder = node as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(holder) : head !== undefined && head in holder ? [head] : [];
  for (const k of keys) {
    if (rest.length === 0) at(holder, k);
    else visit(holder[k], rest, at);
  }
}

/** Registered secrets replaced in every string VALUE; names and non-string values untouched. */
function scrubValues(node: unknown, redactor: Redactor): unknown {
  if (typeof node === 'string') return redactor.text(node);
  if (Array.isArray(node)) return node.map((v) => scrubValues(v, redactor));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, scrubValues(v, redactor)]));
  return node;
}
