import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PROFILE_SECRET_PATHS, Profile, type Secret } from './profile-schema.ts';
import { KitError } from './errors.ts';

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
  const unproven = placeholders(raw);
  if (unproven.length) throw new KitError(placeholderRefusal(source, unproven));
  return parsed.data;
}

/** A field `init` marked `not found` that the profile still holds a value for: `init`'s placeholder, or a value nobody confirmed. */
export interface Placeholder {
  /** The JSON pointer observed.fields names ("/names/analytics/start"). */
  pointer: string;
  /** Its value, shown; undefined for a secret (never shown). */
  shown?: string;
}

/**
 * The fields `observed.fields` marks `not found` that hold a value in `raw` (the profile as
 * written, before defaults). Each is a placeholder asserted as the target's fact: the checks
 * would hold the target to it, and a failure would blame the target for the kit's guess.
 */
export function placeholders(raw: unknown): Placeholder[] {
  const fields = (raw as { observed?: { fields?: Record<string, unknown> } } | null)?.observed?.fields ?? {};
  return Object.entries(fields)
    .filter(([pointer, mark]) => mark === 'not found' && valueAt(raw, pointer) !== undefined)
    .map(([pointer]) => (isSecretPointer(pointer) ? { pointer } : { pointer, shown: shorten(JSON.stringify(valueAt(raw, pointer))) }));
}

/** The refusal: every such field with its value, and what to do. */
export function placeholderRefusal(source: string, unproven: readonly Placeholder[]): string {
  return [
    `profile ${source} holds values its own observed.fields marks "not found" (init could not prove them: they are placeholders, the reference target's choices, not your target's):`,
    ...unproven.map((p) => `  ${p.pointer} = ${p.shown ?? '(a secret, not shown)'}`),
    'for each: set it to your target\'s value and mark it "declared" in observed.fields, or remove its entry (an optional field left out skips its checks, naming it)',
  ].join('\n');
}

/** The value at a JSON pointer ("/operations/apikeys.list/path"), undefined where the path ends early. */
function valueAt(source: unknown, pointer: string): unknown {
  let cur = source;
  for (const part of pointer.split('/').slice(1)) {
    if (cur === null || typeof cur !== 'object') return undefined;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur;
}

function isSecretPointer(pointer: string): boolean {
  const parts = pointer.split('/').slice(1);
  return PROFILE_SECRET_PATHS.some((path) => {
    const pattern = path.split('.');
    return pattern.length <= parts.length && pattern.every((p, i) => p === '*' || p === parts[i]);
  });
}

function shorten(text: string | undefined): string {
  const t = text ?? 'undefined';
  return t.length > 80 ? `${t.slice(0, 77)}...` : t;
}

/** Resolves a secret; a missing environment variable names the field that wanted it. */
export function resolveSecret(secret: Secret, field: string, env: NodeJS.ProcessEnv = process.env): string {
  if (typeof secret === 'string') return secret;
  const value = env[secret.env];
  if (value === undefined) throw new KitError(`profile field ${field} reads environment variable ${secret.env}, which is not set`);
  if (value.trim() === '') throw new KitError(`profile field ${field} reads environment variable ${secret.env}, which is empty`);
  return value;
}
