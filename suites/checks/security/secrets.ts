import { randomUUID } from 'node:crypto';
import type { ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { expect2xx } from '../../lib/expect.ts';
import { newKey } from '../../lib/recipes.ts';
import { ENDPOINTS } from '../../../harness/ground/spec-model/endpoints.ts';
import { placeholderRequest } from '../../lib/requests.ts';
import { mbx, opRequest, settle } from '../resources/lib.ts';

// A key's secret is displayed once, at creation (part 5): no later answer carries it, not the key
// list, not any read made with the key, not the 401 answers to the key once unknown, malformed or
// revoked (an error that quotes the credential it refused is the classic leak). Mailbox passwords
// are proven on every mailbox answer by SEC-PASSWORD-CANARY.

export const KEY_CANARY_CHECK: Check = {
  id: 'SEC-KEY-CANARY',
  title: "SHOULD never show a key's secret again after its creation: not in the key list, not in any read made with it, not in the 401 answers to it once unknown, malformed or revoked",
  clauses: ['KEY-SECRET-NEVER-ECHOED'],
  level: 'SHOULD',
  features: ['op:apikeys.create'],
  budget: ENDPOINTS.length + 8,
  async run(ctx) {
    const ws = await ctx.workspace();
    const key = await newKey(ws, ctx, ['all:read']);
    if (key.secret.length < 8) skip('the created key\'s secret is shorter than 8 characters: too short to search answers for');
    const unknown = `${key.secret.slice(0, -4)}zzzz`;
    const seen: [string, ApiResponse, string][] = [];
    const list = ctx.profile.operations['apikeys.list'];
    if (list) {
      const r = await ws.api.get(list.path, { [ctx.profile.names.list.pageSize]: 100 });
      expect2xx(r, 'GET <apikeys.list>');
      seen.push(['GET <apikeys.list>', r, key.secret]);
    }
    for (const ep of ENDPOINTS.filter((e) => e.method === 'GET')) {
      const req = placeholderRequest(ep, ctx.profile);
      if (req) seen.push([`${req.method} ${req.path} with the key`, await key.client.request(req), key.secret]);
    }
    const probe: ApiRequest = { method: 'GET', path: '/v1/workspace' };
    seen.push(['GET /v1/workspace with an unknown key', await ctx.anonymous.request({ ...probe, auth: { header: `Bearer ${unknown}` } }), unknown]);
    seen.push(['GET /v1/workspace with the key under another scheme', await ctx.anonymous.request({ ...probe, auth: { header: `Token ${key.secret}` } }), key.secret]);
    expect2xx(await ws.api.delete(`/v1/api-keys/${encodeURIComponent(key.id)}`), 'DELETE /v1/api-keys/{id}');
    seen.push(['GET /v1/workspace with the revoked key', await key.client.request(probe), key.secret]);
    const leaks = seen.filter(([, r, s]) => r.text.includes(s));
    if (leaks.length) fail(msg`a key's secret came back after its creation: ${leaks.map(([what, r]) => `${what} (${r.status})`).join('; ')}`, ...leaks.slice(0, 3).map(([, r]) => r));
  },
};

export const PASSWORD_SWEEP_CHECK: Check = {
  id: 'SEC-PASSWORD-SWEEP',
  title: "MUST never return a mailbox's passwords, also once its verification failed: not in the mailbox, its verification, its resume, nor any other read of the catalog",
  clauses: ['ACCT-PASSWORDS-NEVER-RETURNED', 'ACCT-IN-SMTPPASSWORD-NEVER-RETURNED', 'ACCT-IN-IMAPPASSWORD-NEVER-RETURNED'],
  level: 'MUST',
  features: ['op:accounts.get'],
  budget: ENDPOINTS.length + 50,
  async run(ctx) {
    const ws = await ctx.workspace();
    const canaries = [`smtp-canary-${randomUUID()}`, `imap-canary-${randomUUID()}`];
    const created = await ws.api.post('/v1/accounts', { accounts: [mbx(ctx, { smtpPassword: canaries[0], imapPassword: canaries[1] })] });
    expect2xx(created, 'setup: POST /v1/accounts');
    const id = created.body?.accounts?.[0]?.id as string;
    // Unreachable servers: the verification fails, with whatever error the target reports.
    const seen: ApiResponse[] = [created, await settle(ctx, ws.api, id)];
    for (const ep of ENDPOINTS.filter((e) => e.method === 'GET')) {
      const req = placeholderRequest(ep, ctx.profile, { id });
      if (req) seen.push(await ws.api.request(req));
    }
    if (ctx.profile.operations['accounts.resume']) seen.push(await ws.api.request(opRequest(ctx, 'accounts.resume', { id })));
    const leaks = seen.filter((r) => canaries.some((c) => r.text.includes(c)));
    if (leaks.length) fail(msg`a mailbox password came back: ${leaks.map((r) => `answer ${r.status} (exchange ${r.exchangeId})`).join('; ')}`, ...leaks.slice(0, 3));
  },
};
