import type { CheckContext } from '../../harness/ground/check.ts';

// Fixtures that read-only checks share within one run instead of building one each (a key to
// present in the wrong scheme, ...). Keyed by the target and the run's prefix, so a mutation run
// (one reference per mutant, same process) never reuses another target's fixture. Its requests
// count for the check that built it first; a failed build is not kept, the next check retries.
// Built through ctx.share: what it creates outlives the check that built it (the run's clean-up deletes it).

const fixtures = new Map<string, Promise<unknown>>();

export function shared<T>(ctx: CheckContext, name: string, build: () => Promise<T>): Promise<T> {
  const key = `${ctx.anonymous.baseUrl} ${ctx.prefix} ${name}`;
  let p = fixtures.get(key) as Promise<T> | undefined;
  if (!p) {
    p = ctx.share ? ctx.share(build) : build();
    fixtures.set(key, p);
    p.catch(() => fixtures.delete(key));
  }
  return p;
}
