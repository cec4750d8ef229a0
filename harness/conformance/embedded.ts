import { KitError } from '../ground/errors.ts';
import { MUTANTS, startReference, StoreUnbuilt } from '../reference/index.ts';

// The embedded default: the CLI boots the kit's own reference target (the only place outside
// the reference and the mutation runner that starts it; checks still reach it over HTTP only).
export async function startEmbeddedTarget(mutants: string[]) {
  const known = new Set(MUTANTS.map((m) => m.id));
  const unknown = mutants.filter((m) => !known.has(m));
  if (unknown.length) throw new Error(`unknown mutant(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  // An install without install scripts: the kit could not run, and the message says what to run.
  const ref = await startReference({ mutants }).catch((e: unknown) => {
    throw e instanceof StoreUnbuilt ? new KitError(e.message) : e;
  });
  return {
    baseUrl: ref.baseUrl,
    control: { baseUrl: ref.controlUrl, token: ref.controlToken },
    mutants,
    stop: () => ref.stop(),
  };
}
