import { PROFILE_SECRET_PATHS, type Profile } from '../ground/profile-schema.ts';
import { REDACTED, type Redactor } from '../client/redact.ts';

// The profile as a run's reports record it (run-start): it needs the client's redactor, so it
// stands here, apart from the loader on the ground floor (harness/ground/profile.ts).

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
