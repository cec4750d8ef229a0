import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Profile, type Secret } from '../../fixtures/profiles/schema.ts';

/** The kit could not run (bad profile, unreachable target): exit code 2 with this message. */
export class KitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'KitError';
  }
}

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
  if (!value) throw new KitError(`profile field ${field} reads environment variable ${secret.env}, which is not set`);
  return value;
}
