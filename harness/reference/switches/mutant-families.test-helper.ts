// Probes of the mutant families, generated from the families' own tables: each observes one
// behaviour that equals the spec's expectation on the clean reference and differs with the
// mutant on (mutants.test.ts runs them like the hand-written probes).
import { Env, mailboxInput } from '../reference.test-helper.ts';
import { startSinks } from '../../sinks/index.ts'; // test code: real SMTP and IMAP for the emails of the 413/503 probes
import { ROUTES } from '../http/routes.ts';
import { ANSWERS, COERCED_INPUTS, REQUIRED_INPUTS, SCOPED_OPS, scopeUncheckedId } from './mutant-families.ts';

type Probe = (e: Env) => Promise<unknown>;
/** Expected: what the clean reference shows (a field's shape), present and the same every time. */
export const FROM_CLEAN = Symbol('what the clean reference shows');
const ABSENT = '5b0b6f57-6d1e-4a55-9a3c-2f5b8e0c1d2e';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const rnd = () => Math.random().toString(36).slice(2, 8);
const STEP = { subject: 'Hi {{firstName}}', body: '<p>Hello</p>', delayDays: 0, delayHours: 0 };

/** What a value looks like, stable across instances: ids, timestamps and free text become their kind. */
function shape(v: unknown): unknown {
  if (v === undefined) return 'absent';
  if (v === null || typeof v === 'boolean') return v;
  if (typeof v === 'number') return 'number';
  if (typeof v === 'string') {
    if (UUID.test(v)) return 'uuid';
    if (/^\d{4}-\d\d-\d\dT/.test(v)) return 'timestamp';
    if (v.includes('{{')) return 'merge';
    if (/^https?:\/\//.test(v)) return 'url';
    if (/^(UTC|[A-Z][A-Za-z_]+\/[A-Za-z_/]+)$/.test(v)) return 'zone';
    if (v === '') return 'empty';
    return /^[a-z_]+$/.test(v) ? v : 'text';
  }
  if (Array.isArray(v)) return v.map(shape);
  return Object.fromEntries(Object.entries(v as object).sort(([a], [b]) => a.localeCompare(b)).map(([k, x]) => [k, shape(x)]));
}

/** The values a path names ('' the body, `a[]` each element of a). */
function valuesAt(body: unknown, path: string): unknown[] {
  let vs: unknown[] = [body];
  for (const seg of path ? path.split('.') : []) {
    const each = seg.endsWith('[]');
    const key = each ? seg.slice(0, -2) : seg;
    vs = vs.flatMap((v) => {
      const x = v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[key] : undefined;
      return each ? (Array.isArray(x) ? x : []) : [x];
    });
  }
  return vs;
}

const ws = (e: Env) => e.workspace();
async function activeMailbox(e: Env, w: { key: string }) {
  const init = (await e.call(w.key, 'POST', '/v1/accounts/oauth/google/init')).body;
  const id = (await e.ctl('POST', '/oauth/google/consent', { state: init.state, emailAddress: `o${rnd()}@gmail.test` })).body.accountId as string;
  await e.drain();
  return id;
}
/**
 * Runs `fn` on an email of a mailbox at the kit's sinks: a test email it sent (the sink holds the
 * copy). Without Dovecot the mailbox cannot be verified: `fallback`, nothing to observe (as the
 * verification probes of mutants.test.ts).
 */
async function withSentEmail<T>(e: Env, fallback: T, fn: (x: { key: string; emailId: string; sink: Awaited<ReturnType<typeof startSinks>> }) => Promise<T>): Promise<T> {
  const sink = await startSinks({ requireAuth: true });
  try {
    if (!sink.imap) return fallback;
    const u = await sink.addUser(`em-${rnd()}@sink.test`);
    const w = await ws(e);
    const m = await e.mailbox(w, {
      emailAddress: u.address, smtpHost: '127.0.0.1', smtpPort: sink.smtp.port, smtpUsername: u.address, smtpPassword: u.password,
      imapHost: '127.0.0.1', imapPort: sink.imap.port, imapUsername: u.address, imapPassword: u.password, warmup: { enabled: false },
    });
    await e.drain();
    const c = await e.campaign(w, { sequence: [STEP] });
    const sent = await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/test-email`, { body: { variantId: c.sequence[0].id, accountId: m.id, recipient: `lead-${rnd()}@corp.test`, personalization: 'dummy' } });
    if (sent.body?.sent !== true) throw new Error(`test email: ${sent.status} ${sent.text}`);
    const emailId = (await e.call(w.key, 'GET', '/v1/emails')).body.data[0].id as string;
    return await fn({ key: w.key, emailId, sink });
  } finally {
    await sink.stop();
  }
}
/** A mailbox whose OAuth grant was withdrawn: revoked, with the provider's refusal in statusMessage. */
async function revokedMailbox(e: Env) {
  const w = await ws(e);
  const id = await activeMailbox(e, w);
  await e.ctl('POST', `/accounts/${id}/revoke-oauth`);
  return (await e.call(w.key, 'GET', `/v1/accounts/${id}`)).body;
}
async function campaignWithLead(e: Env) {
  const w = await ws(e);
  const c = await e.campaign(w, { sequence: [STEP], leads: [`lead-${rnd()}@corp.test`] });
  const lead = (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body.data[0];
  return { w, c, lead };
}
/** The status view of a campaign started with a window that opens in three hours (UTC): active, outside it, its next opening set. */
async function startedOutsideWindow(e: Env) {
  const w = await ws(e);
  const start = ((new Date().getUTCHours() + 3) % 24) * 60;
  const c = await e.campaign(w, { sequence: [STEP], leads: [`lead-${rnd()}@corp.test`], schedule: { timezone: 'UTC', sendingDays: [0, 1, 2, 3, 4, 5, 6], sendingMinutesStart: start, sendingMinutesEnd: start + 30 } });
  await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`);
  return (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/status`)).body;
}
async function leadSearch(e: Env) {
  const w = await ws(e);
  const ls = (await e.ctl('POST', '/lead-searches', { organizationId: w.orgId, query: 'cto berlin', searchMode: 'people', maxResults: 10 })).body;
  await e.ctl('POST', `/lead-searches/${ls.id}/advance`, { status: 'crawling' });
  return { w, ls };
}

/** The answer of an operation, made on a fresh workspace. */
const ANSWER_OF: Record<string, (e: Env) => Promise<unknown>> = {
  'accounts.create': async (e) => (await e.call((await ws(e)).key, 'POST', '/v1/accounts', { body: { accounts: [mailboxInput()] } })).body,
  'accounts.pause': async (e) => { const w = await ws(e); return (await e.call(w.key, 'POST', `/v1/accounts/${await activeMailbox(e, w)}/pause`)).body; },
  'accounts.update': async (e) => { const w = await ws(e); return (await e.call(w.key, 'PATCH', `/v1/accounts/${(await e.mailbox(w)).id}`, { body: { firstName: 'Bea' } })).body; },
  'accounts.delete': async (e) => { const w = await ws(e); return (await e.call(w.key, 'DELETE', `/v1/accounts/${(await e.mailbox(w)).id}`)).body; },
  'accounts.verification': async (e) => { const w = await ws(e); const m = await e.mailbox(w); await e.drain(); return (await e.call(w.key, 'GET', `/v1/accounts/${m.id}/verification`)).body; },
  'accounts.oauthInit': async (e) => (await e.call((await ws(e)).key, 'POST', '/v1/accounts/oauth/google/init')).body,
  'campaigns.create': async (e) => {
    const w = await ws(e);
    const accounts = [(await e.mailbox(w)).id];
    return (await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'probe', sequence: [STEP], accounts, leads: [`l-${rnd()}@corp.test`] } })).body;
  },
  // A draft and a started campaign: the list's status is read in both states.
  'campaigns.list': async (e) => {
    const { w, c } = await campaignWithLead(e);
    await activeMailbox(e, w);
    await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`);
    await e.campaign(w);
    return (await e.call(w.key, 'GET', '/v1/campaigns')).body;
  },
  'campaigns.start': async (e) => {
    const { w, c } = await campaignWithLead(e);
    await activeMailbox(e, w);
    return (await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/start`)).body;
  },
  'campaigns.status': async (e) => { const { w, c } = await campaignWithLead(e); return (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/status`)).body; },
  'leads.list': async (e) => {
    const { w, c, lead } = await campaignWithLead(e);
    await e.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${lead.id}`, { body: { companyName: 'Acme', tags: ['t'], customFields: { plan: 'pro' } } });
    return (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body;
  },
  'leads.update': async (e) => { const { w, c, lead } = await campaignWithLead(e); return (await e.call(w.key, 'PATCH', `/v1/campaigns/${c.id}/leads/${lead.id}`, { body: { firstName: 'Bo' } })).body; },
  'leads.mutate': async (e) => {
    const { w, c, lead } = await campaignWithLead(e);
    return (await e.call(w.key, 'POST', `/v1/campaigns/${c.id}/leads/mutate`, { body: { operation: 'add_tags', tags: ['x'], ids: [lead.id] } })).body;
  },
  'leads.search': async (e) => { const { w, lead } = await campaignWithLead(e); return (await e.call(w.key, 'GET', `/v1/leads/search?email=${encodeURIComponent(lead.email)}`)).body; },
  'leadSearches.get': async (e) => { const { w, ls } = await leadSearch(e); return (await e.call(w.key, 'GET', `/v1/lead-searches/${ls.id}`)).body; },
  'leadSearches.list': async (e) => { const { w } = await leadSearch(e); return (await e.call(w.key, 'GET', '/v1/lead-searches')).body; },
  'workspace.get': async (e) => (await e.call((await ws(e)).key, 'GET', '/v1/workspace')).body,
  'usage.get': async (e) => (await e.call((await ws(e)).key, 'GET', '/v1/usage/monthly_emails')).body,
};
/** Rows whose field shows only in a particular answer: [op, how to get it]. */
const ANSWER_FOR_ROW: Record<string, [string, (e: Env) => Promise<unknown>]> = {
  'camp-answer-launcherror-empty': ['', async (e) => (await e.call((await ws(e)).key, 'POST', '/v1/campaigns', { body: { name: 'x', launch: true } })).body],
  'acct-answer-statusmessage-code-string': ['', (e) => revokedMailbox(e)],
  'lead-answer-lastcontactedat-epoch': ['data[]', async (e) => {
    const { w, c, lead } = await campaignWithLead(e);
    await e.leadEvent(lead.id, 'contacted');
    return (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body;
  }],
  'acct-answer-statusmessage-occurredat-epoch': ['', (e) => revokedMailbox(e)],
  'lead-answer-lastrepliedat-epoch': ['data[]', async (e) => {
    const { w, c, lead } = await campaignWithLead(e);
    await e.leadEvent(lead.id, 'replied');
    return (await e.call(w.key, 'GET', `/v1/campaigns/${c.id}/leads`)).body;
  }],
  'acct-answer-statusmessage-text': ['', (e) => revokedMailbox(e)],
  'camp-answer-patch-tags-json': ['', async (e) => {
    const w = await ws(e);
    const c = await e.campaign(w);
    const t = (await e.ctl('POST', `/workspaces/${w.orgId}/tags`, { name: 'probe', color: '#1a2b3c' })).body;
    await e.ctl('PUT', `/campaigns/${c.id}/tags`, { tagIds: [t.id] });
    return (await e.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'tagged' } })).body;
  }],
  'lf-answer-listitem-completedat-null': ['data[]', async (e) => {
    const { w, ls } = await leadSearch(e);
    await e.ctl('POST', `/lead-searches/${ls.id}/advance`, { status: 'completed' });
    return (await e.call(w.key, 'GET', '/v1/lead-searches')).body;
  }],
  'camp-answer-patch-createdat-epoch': ['', async (e) => {
    const { w, c } = await campaignWithLead(e);
    return (await e.call(w.key, 'PATCH', `/v1/campaigns/${c.id}`, { body: { name: 'renamed' } })).body;
  }],
  'camp-answer-status-nextopens-epoch': ['', (e) => startedOutsideWindow(e)],
  'camp-answer-status-view-running': ['', (e) => startedOutsideWindow(e)],
  'lf-answer-status-stopped-cancelled': ['', async (e) => {
    const { w, ls } = await leadSearch(e);
    await e.ctl('POST', `/lead-searches/${ls.id}/advance`, { status: 'stopped' });
    return (await e.call(w.key, 'GET', `/v1/lead-searches/${ls.id}`)).body;
  }],
};

/** A request the spec refuses, per coercion row: [method, path under the campaign/lead made, body]. */
const REFUSED: Record<string, (lead: string) => [string, string, Record<string, unknown>]> = {
  'lead-in-tags-coerced': () => ['PATCH', 'lead', { tags: 'vip' }],
  'lead-in-customfields-coerced': () => ['PATCH', 'lead', { customFields: 'x' }],
  'camp-in-patch-name-empty-kept': () => ['PATCH', 'campaign', { name: '' }],
  'lead-mutate-all-coerced': () => ['POST', 'mutate', { operation: 'delete', all: 'yes' }],
  'lead-mutate-ids-coerced': () => ['POST', 'mutate', { operation: 'add_tags', tags: ['x'], ids: ['not-a-uuid'] }],
  'lead-mutate-tags-defaulted': (lead) => ['POST', 'mutate', { operation: 'add_tags', ids: [lead] }],
  'lead-mutate-ids-defaulted': () => ['POST', 'mutate', { operation: 'set_status', status: 'lead_lost' }],
  'acct-in-tracking-coerced': () => ['POST', 'accounts', { accounts: [mailboxInput({ tracking: { domainId: 'not-a-uuid' } })] }],
  'camp-in-leads-coerced': () => ['POST', 'campaigns', { name: 'leads as a string', leads: 'lead@example.test' }],
  'camp-in-launch-coerced': () => ['POST', 'campaigns', { name: 'launch as a string', launch: 'yes' }],
  'camp-in-launch-true-string': () => ['POST', 'campaigns', { name: 'launch as the word true', launch: 'true' }],
};
const PLACE: Record<string, (c: string, lead: string) => string> = {
  lead: (c, lead) => `/v1/campaigns/${c}/leads/${lead}`,
  campaigns: () => '/v1/campaigns',
  campaign: (c) => `/v1/campaigns/${c}`,
  mutate: (c) => `/v1/campaigns/${c}/leads/mutate`,
  accounts: () => '/v1/accounts',
};

const isProbed = (id: string) => !/^(email|anlt|test-email)-/.test(id); // as mutants.test.ts: shown in real mail and traffic

export function familyProbes(): Record<string, [unknown, Probe]> {
  const probes: Record<string, [unknown, Probe]> = {};
  for (const o of SCOPED_OPS) {
    const r = ROUTES.find((x) => x.op === o)!;
    const path = r.path.replace(/\{(id|cid|leadId)\}/g, ABSENT).replace('{provider}', 'google');
    probes[scopeUncheckedId(o)] = [403, async (e) => {
      const w = await ws(e);
      const k = (await e.key(w, ['usage:read'])).key; // grants none of these routes
      return (await e.call(k, r.method, path, r.method === 'GET' || r.method === 'DELETE' ? {} : { body: {} })).status;
    }];
  }
  probes['err-code-403-renamed'] = ['permission_denied', async (e) => {
    const w = await ws(e);
    return (await e.call((await e.key(w, ['usage:read'])).key, 'GET', '/v1/campaigns')).body.error?.code;
  }];
  probes['err-code-422-renamed'] = ['idempotency_key_reused', async (e) => {
    const w = await ws(e);
    await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'k422' });
    return (await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'b' }, idem: 'k422' })).body.error?.code;
  }];
  probes['err-code-409-renamed'] = ['conflict', async (e) => {
    const w = await ws(e);
    const rs = await Promise.all([1, 2].map(() => e.call(w.key, 'POST', '/v1/campaigns', { body: { name: 'a' }, idem: 'k409' })));
    return rs.find((r) => r.status === 409)?.body.error?.code;
  }];
  // 413: a reply larger than the inline maximum (1 MiB by default), read from IMAP.
  probes['err-code-413-renamed'] = ['body_too_large', (e) => withSentEmail(e, 'body_too_large', async ({ key, sink }) => {
    await sink.inject.reply(sink.messages().at(-1)!, { body: 'A long reply, on purpose.\n'.repeat(60_000) });
    // A 1.5 MB reply may take the inbox poll more than one drain on a busy machine: drain until it is listed (bounded).
    let got: { id: string } | undefined;
    for (let i = 0; i < 10 && !got; i++) {
      await e.drain();
      got = (await e.call(key, 'GET', '/v1/emails')).body.data.find((x: { type: string }) => x.type === 'received');
    }
    return (await e.call(key, 'GET', `/v1/emails/${got?.id}`)).body.error?.code;
  })];
  // 503: the stored body cannot be read (the control API's email-unreadable).
  probes['err-code-503-renamed'] = ['upstream_unavailable', (e) => withSentEmail(e, 'upstream_unavailable', async ({ key, emailId }) => {
    await e.ctl('POST', `/emails/${emailId}/unreadable`);
    return (await e.call(key, 'GET', `/v1/emails/${emailId}`)).body.error?.code;
  })];
  for (const [id, o, , field] of REQUIRED_INPUTS) {
    probes[id] = [o === 'accounts.oauthInit' ? 200 : 201, async (e) => {
      const w = await ws(e);
      if (o === 'accounts.create') return (await e.call(w.key, 'POST', '/v1/accounts', { body: { accounts: [mailboxInput()] } })).status;
      if (o === 'accounts.oauthInit') return (await e.call(w.key, 'POST', '/v1/accounts/oauth/google/init')).status;
      return (await e.call(w.key, 'POST', '/v1/campaigns', { body: { name: `without ${field}` } })).status;
    }];
  }
  for (const [id] of COERCED_INPUTS) {
    if (!isProbed(id)) continue;
    const refused = REFUSED[id];
    if (!refused) throw new Error(`no probe request for ${id}`);
    // Refused: 400, or for a batch create the element counted as failed.
    probes[id] = [400, async (e) => {
      const { w, c, lead } = await campaignWithLead(e);
      const [method, place, body] = refused(lead.id);
      const r = await e.call(w.key, method, PLACE[place]!(c.id, lead.id), { body });
      return place === 'accounts' && r.status === 201 ? (r.body.summary.failed === 1 ? 400 : 201) : r.status;
    }];
  }
  for (const [id, where, field] of ANSWERS) {
    if (!isProbed(id)) continue;
    const special = ANSWER_FOR_ROW[id];
    const o = Object.keys(where).find((k) => ANSWER_OF[k]) ?? Object.keys(where)[0]!;
    const base = special ? special[0] : where[o]!;
    const get = special ? special[1] : ANSWER_OF[o]!;
    if (!get) throw new Error(`no probe answer for ${id} (${o})`);
    probes[id] = [FROM_CLEAN, async (e) => valuesAt(await get(e), [base, field].filter(Boolean).join('.')).map(shape)];
  }
  return probes;
}
