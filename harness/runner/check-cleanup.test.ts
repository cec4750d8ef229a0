import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Runner } from './runner.ts';
import { parseProfile } from '../ground/profile.ts';
import type { Check } from '../ground/check.ts';
import { DEFAULT_CHOICES, profileFor, startReference, type ReferenceHandle } from '../reference/index.ts';
import { createMailbox, walk } from '../../suites/lib/recipes.ts';
import { shared } from '../../suites/lib/shared.ts';

// Without the control API the kit deletes what a check created right after the check ends, in
// its own admission's room; fixtures several checks use (a pooled key, a suites/lib/shared.ts
// fixture) stay until the run's final clean-up. Against the reference served with a profile
// that gives no control API (two workspaces made beforehand, as a staging profile lists them).

let ref: ReferenceHandle;
const keys: string[] = [];

async function workspaceKey(): Promise<string> {
  const r = await fetch(`${ref.controlUrl}/workspaces`, { method: 'POST', headers: { authorization: `Bearer ${ref.controlToken}`, 'content-type': 'application/json' }, body: '{}' });
  return ((await r.json()) as { apiKey: string }).apiKey;
}

beforeAll(async () => {
  ref = await startReference({ choices: DEFAULT_CHOICES, log: () => {} });
  keys.push(await workspaceKey(), await workspaceKey());
});
afterAll(async () => {
  await ref?.stop();
});

let prefixes = 0;
function runner(withControl: boolean): Runner {
  const control = withControl ? { baseUrl: ref.controlUrl, token: ref.controlToken } : undefined;
  const profile = parseProfile({ ...profileFor(DEFAULT_CHOICES, { baseUrl: ref.baseUrl, ...(control ? { control } : {}) }), workspaces: keys.map((apiKey) => ({ apiKey })) });
  return new Runner({ profile, baseUrl: ref.baseUrl, ...(control ? { control } : {}), depth: 'quick', sink: { emit: () => {} }, prefix: `occ${prefixes++}-`, seed: 1 });
}

const check = (id: string, run: Check['run']): Check => ({ id, title: 't', clauses: ['ERR-ENVELOPE'], level: 'MUST', features: [], budget: 20, run });

/** What carries the run prefix in every pool workspace now: mailbox addresses and key names. */
async function onTarget(r: Runner): Promise<string[]> {
  const names: string[] = [];
  for (const ws of r.pool.members) {
    for (const m of await walk(r.opts.profile, ws.api, '/v1/accounts')) names.push((m as { emailAddress: string }).emailAddress);
    for (const k of await walk(r.opts.profile, ws.api, '/v1/api-keys')) names.push((k as { name: string }).name);
  }
  return names.filter((n) => typeof n === 'string' && n.startsWith(r.opts.prefix));
}

/** A check that creates its own mailbox and key, a pooled key and a shared fixture; it throws when `error`. */
function creating(id: string, made: Map<string, string>, error = false): Check {
  return check(id, async (ctx) => {
    const ws = await ctx.workspace();
    const mailbox = await createMailbox(ctx, ws.api);
    made.set('own mailbox', mailbox.res.body.accounts[0].emailAddress);
    made.set('own key', `${ctx.prefix}own-${id}`);
    await ws.createKey(['usage:read'], made.get('own key'));
    await ws.createKey(['usage:read']);
    made.set('shared fixture', `${ctx.prefix}shared-${id}`);
    await shared(ctx, `fixture ${id}`, () => ws.createKey(['campaigns:read'], made.get('shared fixture')));
    if (error) throw new Error('the check stopped half-way');
  });
}

describe("a check's own clean-up, without the control API", () => {
  it("deletes a finished check's own mailbox and key before the run ends, keeps shared fixtures for the final clean-up", async () => {
    const r = runner(false);
    await r.prepare();
    const made = new Map<string, string>();
    const end = await r.runCheck(creating('T-OWNER', made));
    expect(end.verdict).toBe('pass');
    const left = await onTarget(r);
    expect(left).not.toContain(made.get('own mailbox'));
    expect(left).not.toContain(made.get('own key'));
    expect(left).toContain(made.get('shared fixture'));
    // The pooled key (named by the pool) is the only other one left.
    expect(left.filter((n) => n.startsWith(`${r.opts.prefix}key-`))).toHaveLength(1);
    // Its DELETEs are no requests of the check: its count is what it sent itself.
    expect(end.requests).toBe(4);
    // What is left is owed to the final clean-up, by the workspace it is in (admission keeps room for it there).
    const owed = () => r.pool.members.reduce((n, m) => n + m.owed, 0);
    expect(owed()).toBe(2);
    expect(await r.finish()).toEqual([]);
    expect(await onTarget(r)).toEqual([]);
    expect(owed()).toBe(0);
  });

  it('cleans up after a check that ended in an error too', async () => {
    const r = runner(false);
    await r.prepare();
    const made = new Map<string, string>();
    const end = await r.runCheck(creating('T-HALF-WAY', made, true));
    expect(end.verdict).toBe('error');
    const left = await onTarget(r);
    expect(left).not.toContain(made.get('own mailbox'));
    expect(left).toContain(made.get('shared fixture'));
    expect(await r.finish()).toEqual([]);
    expect(await onTarget(r)).toEqual([]);
  });

  it('deletes nothing with the control API (the target is reset instead)', async () => {
    const r = runner(true);
    await r.prepare();
    const made = new Map<string, string>();
    expect((await r.runCheck(creating('T-CONTROL', made))).verdict).toBe('pass');
    const left = await onTarget(r);
    expect(left).toContain(made.get('own mailbox'));
    expect(left).toContain(made.get('own key'));
    await r.finish();
  });
});
