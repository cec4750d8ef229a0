import fc from 'fast-check';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { fail, skip, msg } from '../../../harness/ground/check.ts';
import { faker } from '../../lib/recipes.ts';
import { SLOW_DRAIN_SKIP, drainAll, judgeable } from '../../lib/drain.ts';
import { mailboxInput, prefixedAddress, UNREACHABLE_SERVERS, type MailboxServers } from '../../../fixtures/factories/index.ts';
import { fillPath, itemOf } from '../../../harness/ground/operations.ts';
import * as M from '../../state-models/mailbox.ts';
import type { RuleLevel } from '../../state-models/core.ts';
import { checkModel, runSize, SHALLOWER_AT, Trail, workspaces, type Cmd } from './driver.ts';
import { mailSinks } from '../../lib/sinks.ts';

// Model-based check of the mailbox machine (3.2): every run connects one mailbox, then a random
// sequence of pause, resume (referenced), PATCH with new credentials, PATCH without credentials,
// delete, drain of background work (control API only) and plain reads; after each step the mailbox
// is read back (referenced accounts.get) and judged by suites/state-models/mailbox.ts.
//
// Two variants: the mailbox points at servers nobody listens on (verification can only fail), or,
// with the kit's mail sinks, at a real SMTP/IMAP user (verification can succeed; a credential PATCH
// then sends the right or a wrong password). Either way the status after verification is not shown
// (PROFILE): the model accepts any of the 5 and then requires pause to follow "400 unless active".

interface Model {
  s: M.MailboxState;
}

interface Creds {
  servers: MailboxServers;
  username: string;
  password: string | undefined;
}

interface Real {
  ctx: CheckContext;
  api: ApiClient;
  trail: Trail;
  id: string;
  creds: Creds;
}

async function read(r: Real): Promise<{ readBack: unknown; readHttp: number }> {
  const op = r.ctx.profile.operations['accounts.get']!;
  const res = itemOf(op, await r.api.request({ method: op.method, path: fillPath(op.path, { id: r.id }) }));
  r.trail.note(res);
  return { readBack: res.status < 300 ? res.body?.status : undefined, readHttp: res.status };
}

/** The status of an answer that is a mailbox (this id, a status field), else undefined. */
function mailboxStatus(res: ApiResponse, id: string): unknown {
  return res.status < 300 && res.body && typeof res.body === 'object' && res.body.id === id && 'status' in res.body ? res.body.status : undefined;
}

abstract class Step implements Cmd<Model, Real> {
  abstract label: string;
  check = () => true;
  abstract call(r: Real): Promise<ApiResponse | undefined>;
  abstract judge(s: M.MailboxState, o: M.Obs): ReturnType<typeof M.pause>;
  async run(m: Model, r: Real) {
    r.trail.begin(this.toString());
    const res = await this.call(r);
    r.trail.note(res);
    const back = await read(r);
    m.s = r.trail.judge(this.judge(m.s, { http: res?.status ?? 200, bodyStatus: res ? mailboxStatus(res, r.id) : undefined, ...back }));
  }
  toString = () => this.label;
}

class Pause extends Step {
  label = 'pause';
  call = (r: Real) => r.api.post(`/v1/accounts/${r.id}/pause`);
  judge = M.pause;
}

class Resume extends Step {
  label = 'resume (referenced)';
  call = (r: Real) => {
    const op = r.ctx.profile.operations['accounts.resume']!;
    return r.api.request({ method: op.method, path: fillPath(op.path, { id: r.id }) }).then((res) => itemOf(op, res));
  };
  judge = M.resume;
}

class PatchCredentials extends Step {
  constructor(readonly good: boolean) {
    super();
  }
  label = 'PATCH smtp*/imap*';
  override toString = () => `PATCH smtp*/imap* (${this.good ? 'the working password' : 'a wrong password'})`;
  call = (r: Real) => {
    const pw = this.good && r.creds.password ? r.creds.password : `wrong-${faker(r.ctx).string.alphanumeric(16)}`;
    return r.api.patch(`/v1/accounts/${r.id}`, { smtpPassword: pw, imapPassword: pw, smtpHost: r.creds.servers.smtpHost });
  };
  judge = M.patchCredentials;
}

class PatchOther extends Step {
  label = 'PATCH displayName (no credentials)';
  call = (r: Real) => r.api.patch(`/v1/accounts/${r.id}`, { displayName: `${r.ctx.prefix}${faker(r.ctx).person.fullName()}`.slice(0, 120) });
  judge = M.patchOther;
}

class Delete extends Step {
  label = 'DELETE';
  call = (r: Real) => r.api.delete(`/v1/accounts/${r.id}`);
  judge = M.remove;
}

class Drain extends Step {
  label = 'drain background work (control)';
  call = async (r: Real) => {
    if (!judgeable(await drainAll(r.ctx.control!, 20_000, r.api.organizationId))) skip(SLOW_DRAIN_SKIP);
    return undefined;
  };
  judge = M.drained;
}

class RevokeOAuth extends Step {
  label = 'the owner withdraws the OAuth grant (control)';
  call = async (r: Real) => {
    await r.ctx.control!.request('POST', `/accounts/${r.id}/revoke-oauth`, undefined, { allowError: true });
    return undefined;
  };
  judge = M.grantWithdrawn;
}

class Read extends Step {
  label = 'read';
  call = async () => undefined;
  judge = M.observe;
}

type Variant = 'unreachable' | 'sinks' | 'oauth';

function commands(ctx: CheckContext, maxCommands: number, variant: Variant) {
  const arbs: fc.Arbitrary<Cmd<Model, Real>>[] = [
    fc.constant(new Pause()),
    fc.constant(new Pause()),
    fc.constant(new PatchOther()),
    fc.constant(new Delete()),
    fc.constant(new Read()),
  ];
  // An OAuth mailbox has no password to rotate; its system event is the withdrawn grant.
  if (variant === 'oauth') arbs.push(fc.constant(new RevokeOAuth()), fc.constant(new RevokeOAuth()));
  else arbs.push(fc.boolean().map((good) => new PatchCredentials(good)));
  if (ctx.profile.operations['accounts.resume']) arbs.push(fc.constant(new Resume()), fc.constant(new Resume()));
  if (ctx.control) arbs.push(fc.constant(new Drain()), fc.constant(new Drain()));
  return fc.commands(arbs, { maxCommands });
}

async function credentials(ctx: CheckContext, useSinks: boolean): Promise<Creds & { emailAddress?: string }> {
  if (!useSinks) return { servers: UNREACHABLE_SERVERS, username: '', password: undefined };
  const sinks = mailSinks(ctx);
  if (!sinks) skip('needs the mail sinks (profile features.sinks), which were not started for this run');
  const address = prefixedAddress(faker(ctx), ctx.prefix, 'sinks.example.test');
  const user = await sinks.addUser(address);
  const host = ctx.profile.sinks?.host ?? user.smtp.host;
  const servers: MailboxServers = user.imap
    ? { smtpHost: host, smtpPort: user.smtp.port, imapHost: host, imapPort: user.imap.port }
    : { smtpHost: host, smtpPort: user.smtp.port, imapHost: UNREACHABLE_SERVERS.imapHost, imapPort: UNREACHABLE_SERVERS.imapPort };
  return { servers, username: address, password: user.password, emailAddress: address };
}

/** Connects a mailbox through OAuth: init (public API), the owner's consent (control API). */
async function connectOAuth(ctx: CheckContext, api: ApiClient, trail: Trail): Promise<{ id: string | undefined; http: number }> {
  const provider = faker(ctx).helpers.arrayElement(['google', 'microsoft'] as const);
  trail.begin(`connect by OAuth (${provider})`);
  const init = await api.post(`/v1/accounts/oauth/${provider}/init`);
  trail.note(init);
  if (init.status >= 300 || typeof init.body?.state !== 'string') fail(msg`setup: POST /v1/accounts/oauth/${provider}/init answered ${init.status} without a state`, init);
  const consent = await ctx.control!.request('POST', `/oauth/${provider}/consent`, { state: init.body.state, emailAddress: prefixedAddress(faker(ctx), ctx.prefix, `${provider}.example.test`) }, { allowError: true });
  trail.note(consent);
  const id = consent.body?.accountId;
  return { id: typeof id === 'string' ? id : undefined, http: consent.status };
}

async function run(ctx: CheckContext, level: RuleLevel, variant: Variant): Promise<void> {
  const useSinks = variant === 'sinks';
  if (useSinks && !mailSinks(ctx)) skip('needs the mail sinks (profile features.sinks), which were not started for this run');
  const size = runSize(ctx.depth, !!ctx.control, ctx.profile.rateLimit);
  const pool = workspaces(ctx);
  await checkModel(
    ctx,
    `mailbox (3.2, ${variant === 'sinks' ? 'working credentials on the sinks' : variant === 'oauth' ? 'connected by OAuth' : 'unreachable servers'})`,
    commands(ctx, size.maxCommands, variant),
    async (cmds) => {
      const ws = await pool.next();
      const trail = new Trail(level);
      if (variant === 'oauth') {
        const c = await connectOAuth(ctx, ws.api, trail);
        const real: Real = { ctx, api: ws.api, trail, id: c.id ?? '00000000-0000-4000-8000-000000000000', creds: { servers: UNREACHABLE_SERVERS, username: '', password: undefined } };
        const back = c.id ? await read(real) : { readBack: undefined, readHttp: 0 };
        const model: Model = { s: trail.judge(M.connectedByOAuth({ http: c.http, ...back })) };
        if (!c.id) return;
        try {
          await fc.asyncModelRun(() => ({ model, real }), cmds);
        } finally {
          if (!model.s.removed) await ws.api.delete(`/v1/accounts/${real.id}`);
        }
        return;
      }
      const creds = await credentials(ctx, useSinks);
      trail.begin(`create (${useSinks ? 'sink credentials' : 'unreachable servers'})`);
      const input = mailboxInput(faker(ctx), ctx.prefix, creds.servers, creds.emailAddress
        ? { emailAddress: creds.emailAddress, smtpUsername: creds.username, imapUsername: creds.username, smtpPassword: creds.password, imapPassword: creds.password }
        : {});
      const res = await ws.api.post('/v1/accounts', { accounts: [input] });
      trail.note(res);
      const id = res.body?.accounts?.[0]?.id;
      const real: Real = { ctx, api: ws.api, trail, id: typeof id === 'string' ? id : '00000000-0000-4000-8000-000000000000', creds };
      const back = typeof id === 'string' ? await read(real) : { readBack: undefined, readHttp: 0 };
      const model: Model = { s: trail.judge(M.created({ http: res.status, bodyStatus: res.body?.accounts?.[0]?.status, ...back })) };
      if (typeof id !== 'string') return;
      try {
        await fc.asyncModelRun(() => ({ model, real }), cmds);
      } finally {
        if (!model.s.removed) await ws.api.delete(`/v1/accounts/${real.id}`);
        // The sink users stay: the sinks belong to this conformance run and stop with it, and
        // removing a Dovecot user takes about half a second.
      }
    },
    // Verification against real servers makes each drain cost a few hundred ms: fewer runs.
    useSinks ? { ...size, numRuns: Math.max(2, Math.ceil(size.numRuns / 2)) } : size,
  );
}

const MUST_CLAUSES = [
  'STATE-ACCT-STATES', 'STATE-ACCT-CREATE-INACTIVE', 'STATE-ACCT-CREATE-VERIFY', 'STATE-ACCT-PAUSE-ACTIVE-ONLY', 'STATE-ACCT-PAUSE-INACTIVE',
  'STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE', 'STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-RESUME-FAILED-RECHECK', 'STATE-ACCT-PATCH-CREDS-ROTATE',
  'STATE-ACCT-PATCH-CREDS-REVERIFY', 'STATE-ACCT-DELETE-REMOVED', 'STATE-ACCT-VERIFY-MAPPING-PROFILE', 'ACCT-PAUSE-400-NOT-ACTIVE', 'ACCT-CREATE-START-INACTIVE',
];

const base = { features: ['op:accounts.get' as const], budget: 160, shallowerAt: SHALLOWER_AT };

export const MAILBOX_MODEL_CHECKS: Check[] = [
  {
    ...base,
    id: 'STATE-MODEL/mailbox',
    title: 'MUST follow the mailbox state machine of 3.2 under random command sequences (pause, resume, credential PATCH, delete, drain)',
    clauses: MUST_CLAUSES,
    level: 'MUST',
    run: (ctx) => run(ctx, 'MUST', 'unreachable'),
  },
  {
    ...base,
    id: 'STATE-MODEL/mailbox-sinks',
    title: 'MUST follow the mailbox state machine of 3.2 with working credentials on the kit\'s mail sinks (verification may succeed)',
    clauses: MUST_CLAUSES,
    level: 'MUST',
    features: ['op:accounts.get', 'sinks'],
    depth: 'default',
    run: (ctx) => run(ctx, 'MUST', 'sinks'),
  },
  {
    ...base,
    id: 'STATE-MODEL/mailbox-oauth',
    title: 'MUST turn an OAuth mailbox revoked when its grant is withdrawn and keep it revoked until reconnected, while following the rest of 3.2',
    clauses: ['STATE-ACCT-OAUTH-REVOKED', 'STATE-ACCT-REVOKED-RECONNECT', 'STATE-ACCT-STATES', 'STATE-ACCT-PAUSE-ACTIVE-ONLY', 'STATE-ACCT-PAUSE-INACTIVE', 'STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE', 'STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-DELETE-REMOVED'],
    level: 'MUST',
    features: ['op:accounts.get', 'control', 'oauth'],
    depth: 'default',
    run: (ctx) => run(ctx, 'MUST', 'oauth'),
  },
  {
    ...base,
    id: 'STATE-MODEL-READINGS/mailbox',
    title: 'SHOULD keep the status of a settled mailbox on a PATCH without credentials and on a refused pause',
    clauses: ['STATE-ACCT-PATCH-NO-CREDS-NO-REVERIFY'],
    level: 'SHOULD',
    depth: 'default',
    run: (ctx) => run(ctx, 'SHOULD', 'unreachable'),
  },
];
