import { MUTANTS, startReference } from '../reference/index.ts';

// The embedded default: the CLI boots the kit's own reference target (the only place outside
// the reference and the mutation runner that starts it; checks still reach it over HTTP only).
export async function startEmbeddedTarget(mutants: string[]) {
  const known = new Set(MUTANTS.map((m) => m.id));
  const unknown = mutants.filter((m) => !known.has(m));
  if (unknown.length) throw new Error(`unknown mutant(s) ${unknown.join(', ')}; known: ${[...known].join(', ')}`);
  const ref = await startReference({ mutants });
  return {
    baseUrl: ref.baseUrl,
    control: { baseUrl: ref.controlUrl, token: ref.controlToken },
    mutants,
    stop: () => ref.stop(),
  };
}
