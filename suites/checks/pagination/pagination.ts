import fc from 'fast-check';
import type { ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { CheckFailure, fail, msg } from '../../../harness/ground/check.ts';
import { expectError, expectThat, is2xx, snippet } from '../../lib/expect.ts';
import { endpoint, label } from '../../../harness/ground/spec-model/endpoints.ts';
import { listOf, schemaByName } from '../../../harness/ground/spec-model/schemas/index.ts';
import { z } from 'zod';
import { getPath } from '../../../harness/ground/operations.ts';
import { LIST_SUBJECTS, type ListScope, type ListSubject } from './lists.ts';

// Part 4.1 cursor pagination (and the 1..100 page size of part 8), for every list endpoint.

type Item = { id: string; createdAt?: string };

async function page(ctx: CheckContext, api: CheckContext['anonymous'], scope: ListScope, size: number, cursor?: string): Promise<{ res: ApiResponse; items: Item[] }> {
  const n = ctx.profile.names.list;
  const res = await api.get(scope.path, { [n.pageSize]: size, [n.cursor]: cursor });
  if (!is2xx(res)) fail(msg`GET ${scope.path} (page size ${size}${cursor ? ', with a cursor' : ''}) answered ${res.status} ${snippet(res)}`, res);
  const shape = listOf(scope.item ? schemaByName(scope.item) : z.looseObject({ id: z.string() }));
  const body = scope.itemsPath === 'data' ? res.body : { data: getPath(res.body, scope.itemsPath), meta: res.body?.meta };
  const parsed = shape.safeParse(body);
  if (!parsed.success) fail(msg`GET ${scope.path}: not the list shape of 4.1: ${parsed.error.issues.slice(0, 4).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`, res);
  const items = body.data as Item[];
  expectThat(items.length <= size, msg`GET ${scope.path} with page size ${size} returned ${items.length} items`, res);
  return { res, items };
}

/** Walks to the end with page size `size`; between pages runs `between(pageIndex)`. */
async function walkAll(ctx: CheckContext, api: CheckContext['anonymous'], scope: ListScope, size: number, between?: (i: number) => Promise<void>) {
  const seen: Item[] = [];
  const evidence: string[] = [];
  let last: ApiResponse | undefined;
  let cursor: string | undefined;
  for (let i = 0; i < 500; i++) {
    const { res, items } = await page(ctx, api, scope, size, cursor);
    evidence.push(res.exchangeId);
    last = res;
    // A page of nothing but items already listed: the cursor was not honoured (the walk would never end).
    const again = cursor !== undefined && items.length > 0 && items.every((x) => seen.some((y) => y.id === x.id));
    if (again) fail(msg`GET ${scope.path}: the page asked with meta.nextCursor lists only items already listed (${items.map((x) => x.id).join(', ')}): the cursor was not honoured`, ...evidence);
    seen.push(...items);
    if (res.body.meta.hasMore !== true) {
      return { seen, evidence };
    }
    expectThat(items.length > 0, msg`GET ${scope.path}: an empty page says hasMore true`, res);
    cursor = res.body.meta.nextCursor;
    if (between) await between(i);
  }
  fail(msg`GET ${scope.path}: the walk had not ended after 500 pages`, last);
}

/**
 * A workspace whose lists hold only what this check puts there (a fresh one from the control
 * API), or a shared one; walks in a shared workspace use bigger pages, its lists being long.
 */
async function listWorkspace(ctx: CheckContext) {
  return ctx.control ? { ws: await ctx.workspace({ exclusive: true }), size: 2 } : { ws: await ctx.workspace(), size: 10 };
}

async function pause(ctx: CheckContext): Promise<void> {
  // Distinct creation times make "newest first" well defined.
  if (ctx.control) await ctx.control.advance(1);
  else await new Promise((r) => setTimeout(r, 15));
}

function sizeCheck(s: ListSubject): Check {
  const name = label(endpoint(s.endpoint));
  return {
    id: `PAGE-SIZE-BOUNDS/${name}`,
    title: 'MUST accept page sizes 1 and 100 and refuse 0 and 101 with 400 validation_failed',
    clauses: ['LIMIT-PAGE-SIZE', 'PAGE-SHAPE', 'ERR-TABLE-400', 'PAGE-PARAM-NAMES', ...(s.own?.pageSize ?? [])],
    level: 'MUST',
    features: s.features,
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const scope = await s.open(ctx, ws);
      for (let i = 0; i < 3; i++) await scope.insert();
      const one = await page(ctx, ws.api, scope, 1);
      expectThat(one.items.length === 1 && one.res.body.meta.hasMore === true, msg`page size 1 over 3+ items must give 1 item and hasMore true`, one.res);
      // The size holds for every page, the ones asked with a cursor too.
      const two = await page(ctx, ws.api, scope, 1, one.res.body.meta.nextCursor);
      expectThat(two.items.length === 1 && two.res.body.meta.hasMore === true, msg`page size 1 over 3+ items: the second page, asked with its cursor, must give 1 item and hasMore true, got ${two.items.length} items, hasMore ${two.res.body.meta.hasMore}`, two.res);
      await page(ctx, ws.api, scope, 100);
      for (const bad of [0, 101]) {
        const res = await ws.api.get(scope.path, { [ctx.profile.names.list.pageSize]: bad });
        expectError(res, 400, ctx.profile, `GET ${scope.path} with page size ${bad}`, 'validation_failed');
      }
    },
  };
}

function walkCheck(s: ListSubject): Check {
  const name = label(endpoint(s.endpoint));
  return {
    id: `PAGE-WALK/${name}`,
    title: 'MUST list newest first and walk every item exactly once by meta.nextCursor until hasMore is false (hasMore true only where another page holds items)',
    clauses: ['PAGE-SHAPE', 'PAGE-NEWEST-FIRST', 'PAGE-CURSOR-FROM-META', 'PAGE-HASMORE-CONSISTENT', 'PAGE-PARAM-NAMES', ...(s.own?.cursor ?? [])],
    level: 'MUST',
    features: s.features,
    budget: 20,
    async run(ctx) {
      const { ws, size } = await listWorkspace(ctx);
      const scope = await s.open(ctx, ws);
      const mine: string[] = [];
      for (let i = 0; i < 5; i++) {
        mine.push(await scope.insert());
        await pause(ctx);
      }
      const { seen, evidence } = await walkAll(ctx, ws.api, scope, size);
      const ids = seen.map((x) => x.id);
      const dup = ids.find((id, i) => ids.indexOf(id) !== i);
      if (dup) fail(msg`the walk returned item ${dup} twice`, ...evidence);
      const order = ids.filter((id) => mine.includes(id));
      if (order.length !== mine.length) fail(msg`the walk returned ${order.length} of the ${mine.length} items just created`, ...evidence);
      const expected = [...mine].reverse();
      if (order.join() !== expected.join()) fail(msg`items are not newest first: created ${mine.join(', ')}; listed ${order.join(', ')}`, ...evidence);
      const times = seen.map((x) => x.createdAt).filter((t): t is string => typeof t === 'string').map((t) => Date.parse(t));
      const back = times.findIndex((t, i) => i > 0 && t > times[i - 1]!);
      if (back > 0) fail(msg`createdAt goes up at position ${back} of the walk: the list is not newest first`, ...evidence);
      // A list of a workspace of its own holds just what was walked: asked with a page size of that
      // many items, a hasMore true must lead to a page that holds some (a full page is not proof of
      // another one). Whether a page is filled to its size is the target's: not asserted.
      if (ctx.control && seen.length <= 100) {
        const whole = await page(ctx, ws.api, scope, seen.length);
        if (whole.res.body.meta.hasMore === true) {
          const next = await page(ctx, ws.api, scope, seen.length, whole.res.body.meta.nextCursor);
          expectThat(next.items.length > 0, msg`GET ${scope.path} with page size ${seen.length} over its ${seen.length} items said hasMore true, but the page its nextCursor leads to holds none`, whole.res, next.res);
        }
      }
    },
  };
}

function garbageCursorCheck(s: ListSubject): Check {
  const name = label(endpoint(s.endpoint));
  return {
    id: `PAGE-CURSOR-GARBAGE/${name}`,
    title: 'SHOULD refuse a cursor it never issued with 400 validation_failed',
    clauses: ['PAGE-CURSOR-GARBAGE'],
    level: 'SHOULD',
    features: s.features,
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const scope = await s.open(ctx, ws);
      for (const cursor of ['not-a-cursor', 'eyJpZCI6IjEifQ']) {
        const res = await ws.api.get(scope.path, { [ctx.profile.names.list.cursor]: cursor });
        expectError(res, 400, ctx.profile, `GET ${scope.path} with the cursor "${cursor}"`, 'validation_failed');
      }
    },
  };
}

/**
 * fast-check drives interleavings of page reads with inserts and deletes. Items that exist
 * for the whole walk must be listed exactly once, and no item twice. The seed is the check's
 * (printed with any failure); fast-check shrinks to the shortest interleaving that fails.
 */
function stableCheck(s: ListSubject): Check {
  const name = label(endpoint(s.endpoint));
  return {
    id: `PAGE-STABLE/${name}`,
    title: 'MUST list every item that exists throughout a walk exactly once under concurrent inserts and deletes',
    clauses: ['PAGE-STABLE', 'PAGE-CURSOR-FROM-META', ...(s.own?.cursor ?? [])],
    level: 'MUST',
    features: s.features,
    budget: 90,
    depth: 'default',
    async run(ctx) {
      // With a control API every run gets a fresh workspace: lists stay short and each run has a
      // rate budget of its own. Without one, runs share a workspace and its list grows.
      const shared = ctx.control ? undefined : await listWorkspace(ctx);
      const numRuns = ctx.depth === 'full' ? 12 : 3;
      const ops = fc.array(fc.constantFrom(...(s.removable ? (['insert', 'delete', 'insert-delete', 'none'] as const) : (['insert', 'none'] as const))), { minLength: 2, maxLength: 6 });
      let lastFailure: CheckFailure | undefined;
      const result = await fc.check(
        fc.asyncProperty(ops, async (plan) => {
          const { ws, size } = shared ?? (await listWorkspace(ctx));
          const scope = await s.open(ctx, ws);
          const stable: string[] = [];
          const churn: string[] = [];
          for (let i = 0; i < 4; i++) stable.push(await scope.insert());
          for (let i = 0; i < 3; i++) churn.push(await scope.insert());
          const { seen, evidence } = await walkAll(ctx, ws.api, scope, size, async (i) => {
            const step = plan[i % plan.length];
            if (step === 'insert' || step === 'insert-delete') churn.push(await scope.insert());
            if ((step === 'delete' || step === 'insert-delete') && churn.length) await scope.remove!(churn.shift()!);
          });
          const ids = seen.map((x) => x.id);
          const twice = ids.find((id, i) => ids.indexOf(id) !== i);
          const missing = stable.filter((id) => !ids.includes(id));
          if (twice || missing.length) {
            const broke = [...(twice ? ['an item listed twice'] : []), ...(missing.length ? ['items that existed throughout skipped'] : [])];
            lastFailure = new CheckFailure(`interleaving [${plan.join(', ')}]: ${twice ? `item ${twice} listed twice` : ''}${twice && missing.length ? '; ' : ''}${missing.length ? `${missing.length} item(s) that existed throughout were skipped` : ''}`, evidence, { kind: 'value', fields: { rule: `a walk interleaved with changes: ${broke.join(' and ')}` } });
            return false;
          }
          return true;
        }),
        { seed: ctx.seed, numRuns, endOnFailure: ctx.depth !== 'full' },
      );
      if (result.failed) {
        // A property that threw (a page refused, a bad shape) carries its evidence on the error.
        const thrown = result.errorInstance instanceof CheckFailure ? result.errorInstance : undefined;
        const cause = lastFailure ?? thrown;
        const why = cause?.message ?? String(result.errorInstance ?? 'property failed');
        throw new CheckFailure(`${why} (fast-check seed ${result.seed}, path "${result.counterexamplePath}": replay with --seed)`, cause?.evidence ?? [], cause?.typed);
      }
    },
  };
}

export const PAGINATION_CHECKS: Check[] = LIST_SUBJECTS.flatMap((s) => [sizeCheck(s), walkCheck(s), garbageCursorCheck(s), stableCheck(s)]);
