import { createServer } from 'node:net';
import type { ApiClient } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectSchema, expectThat, msg } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import type { MailSink } from '../../../harness/sinks/index.ts';
import { NEEDS_VERIFICATION_STATUS, WARMUP_OFF, expectBusiness400, mustGetMailbox, opRequest, settle, sinkMailbox, verificationStatus, verificationWaitMs, verified, walk } from './lib.ts';

// Background verification of mailboxes against the kit's mail sinks (3.2, 2.4, 2.1). The target
// connects to the sink's SMTP (EHLO, STARTTLS, AUTH) and IMAP (LOGIN); the sink records every
// AUTH attempt, so the checks see over the wire that a verification ran. Which status each
// outcome gives is "not shown" (3.2): checks read it from declarations.verificationStatus (PROFILE)
// and skip without it. Pausing needs a mailbox that is `active` (4.2), the spec's own word.

function authAttempts(sink: MailSink, user: string) {
  return sink.attempts({ kind: 'auth', user });
}

async function create(ctx: CheckContext, api: ApiClient, input: Record<string, unknown>): Promise<{ id: string; res: any }> {
  const res = await api.post('/v1/accounts', { accounts: [input] });
  expectThat(res.status === 201 && res.body?.accounts?.length === 1, msg`setup: POST /v1/accounts did not create the sink mailbox: ${res.status} ${res.text.slice(0, 200)}`, res);
  return { id: res.body.accounts[0].id, res };
}

/**
 * A mailbox connected to a sink user and verified; skips when it does not become active (4.2 pause
 * needs `active`). Warmup off: a new AUTH after a resume is then the re-verification, not a warmup send.
 */
async function activeMailbox(ctx: CheckContext, api: ApiClient) {
  const m = await sinkMailbox(ctx);
  const { id } = await create(ctx, api, { ...m.input, ...WARMUP_OFF });
  const settled = await settle(ctx, api, id, (x) => x?.status === 'active');
  if (settled.body.status !== 'active') skip(`a mailbox with working SMTP and IMAP credentials at the kit's sinks is ${settled.body.status} after verification, not active`);
  return { ...m, id, address: m.input.emailAddress as string, status: settled.body.status as string };
}

async function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, host, () => {
      const a = s.address();
      const port = typeof a === 'object' && a ? a.port : 0;
      s.close(() => resolve(port));
    });
  });
}

const FEATURES = ['sinks', 'imap', 'op:accounts.get'] as const;

export const VERIFICATION_CHECKS: Check[] = [
  {
    id: 'VERIF-SINK/imap-self-signed',
    title: 'a mailbox whose IMAP server has a self-signed certificate verifies with imapAllowInvalidCert and not without it; the flag set later by PATCH (an imap* field: verification re-run) lets it verify',
    clauses: ['ACCT-IN-IMAPALLOWINVALIDCERT-BEHAVIOUR', 'ACCT-IN-IMAPPASSWORD-NEVER-RETURNED'],
    level: 'MUST',
    features: ['sinks', 'imap', 'op:accounts.get', NEEDS_VERIFICATION_STATUS],
    budget: 60,
    async run(ctx) {
      const ok = verificationStatus(ctx, 'succeeded');
      const ws = await ctx.workspace();
      let refused = '';
      for (const allow of [true, false]) {
        const { sink, input } = await sinkMailbox(ctx);
        const secure = (sink.imap as { securePort?: number } | null)?.securePort;
        if (!secure) skip('the IMAP sink offers no implicit-TLS port');
        const res = await ws.api.post('/v1/accounts', { accounts: [{ ...input, imapPort: secure, imapAllowInvalidCert: allow }] });
        expect2xx(res, 'POST /v1/accounts');
        const settled = await settle(ctx, ws.api, res.body.accounts[0].id);
        if (allow) expectThat(settled.body?.status === ok, msg`with imapAllowInvalidCert true the mailbox must accept the sink's self-signed IMAP certificate and become ${ok}; it is ${settled.body?.status}`, settled);
        else expectThat(settled.body?.status !== ok, msg`with imapAllowInvalidCert false the mailbox accepted a self-signed IMAP certificate and became ${ok}`, settled);
        if (!allow) refused = res.body.accounts[0].id;
        // The IMAP failure it reports never quotes the IMAP login it tried.
        expectThat(!settled.text.includes(String(input.imapPassword)), msg`the mailbox answer after its IMAP verification carries the IMAP password given`, settled);
      }
      // The flag is a PATCH field too (4.2), and an imap* one: the re-run verification honours it.
      expect2xx(await ws.api.patch(`/v1/accounts/${refused}`, { imapAllowInvalidCert: true }), 'PATCH /v1/accounts/{id} { imapAllowInvalidCert: true }');
      const later = await settle(ctx, ws.api, refused, (m) => m?.status === ok);
      expectThat(later.body?.status === ok, msg`imapAllowInvalidCert set true by PATCH must let the re-run verification accept the self-signed IMAP certificate and make the mailbox ${ok}; it is ${later.body?.status}`, later);
    },
  },
  {
    id: 'VERIF-SINK/background',
    title: "MUST verify a new mailbox in the background: it connects to the mailbox's SMTP server and authenticates, and the outcome shows on the mailbox",
    // ACCT-CREATE-START-INACTIVE, STATE-ACCT-CREATE-INACTIVE: this mailbox's servers answer at once, so an inline verification would show here (ACCT-CREATE/shape's do not answer).
    clauses: ['STATE-ACCT-CREATE-VERIFY', 'SVC-ACCT-BACKGROUND-VERIFY', 'VERIF-ENDPOINT-LASTVERIFIEDAT', 'ACCT-VERIF-ANSWER', 'SVC-ACCT-CONNECT-SMTP', 'VERIF-ENDPOINT-SMTP', 'VERIF-ENDPOINT-OVERALL', 'VERIF-ENDPOINT-IMAP', 'VERIF-ENDPOINT-DNS', 'ACCT-CREATE-START-INACTIVE', 'STATE-ACCT-CREATE-INACTIVE'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 30,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      const user = input.smtpUsername as string;
      const { id, res } = await create(ctx, ws.api, input);
      expectThat(res.body.accounts[0].status === 'inactive', msg`a new mailbox starts inactive, got ${res.body.accounts[0].status}`, res);
      const settled = await settle(ctx, ws.api, id);
      const tried = authAttempts(sink, user);
      expectThat(tried.length > 0, msg`no SMTP AUTH attempt from ${user} reached the sink within ${verificationWaitMs(ctx) / 1000} s: the mailbox was not verified in the background (status ${settled.body.status})`, settled);
      expectThat(tried.some((a) => a.session.ehlo !== null), msg`the verification authenticated without EHLO`);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      expect2xx(v, 'GET /v1/accounts/{id}/verification');
      // The answer after a verification ran (ACCT-VERIF/shape reads it while pending): overallStatus, smtp and imap { status, error }, dns.
      expectSchema(v, 'VerificationResult', 'GET /v1/accounts/{id}/verification');
      expectThat(typeof v.body.lastVerifiedAt === 'string', msg`after a verification ran, lastVerifiedAt must be set, got ${JSON.stringify(v.body.lastVerifiedAt)}`, v);
      // The outcome shows: the status or overallStatus moved from the create answer, or reached a
      // declared outcome (the values themselves, `pending` included, are only seen in 2.4).
      const created = res.body.accounts[0];
      const d = ctx.profile.declarations.verificationStatus;
      const shows = (d && [d.succeeded, d.failed].includes(settled.body.status)) || settled.body.status !== created.status || settled.body.verification?.overallStatus !== created.verification?.overallStatus;
      expectThat(shows, msg`the outcome must show on the mailbox: status ${settled.body.status} and verification.overallStatus ${settled.body.verification?.overallStatus} are as they were at create`, settled, v);
    },
  },
  {
    id: 'EVT/polling',
    title: "SHOULD make a background outcome visible to polling on every read that shows it: a new mailbox's verification shows on the mailbox, in the mailbox listing and on its verification endpoint",
    clauses: ['EVT-POLLING'],
    level: 'SHOULD',
    features: [...FEATURES, 'op:accounts.list'],
    budget: 30,
    async run(ctx) {
      // Part 6 shows no events: the outcome of background work is only ever learnt by polling.
      const ws = await ctx.workspace();
      const { input } = await sinkMailbox(ctx);
      const { id, res } = await create(ctx, ws.api, input);
      const created = res.body.accounts[0];
      const d = ctx.profile.declarations.verificationStatus;
      const outcome = (m: any) => (d ? [d.succeeded, d.failed].includes(m?.status) : m?.status !== created.status || m?.verification?.overallStatus !== created.verification?.overallStatus);
      const settled = await settle(ctx, ws.api, id, outcome);
      expectThat(outcome(settled.body), msg`polling the mailbox for ${verificationWaitMs(ctx) / 1000} s should show the outcome of its verification, it still reads status ${settled.body?.status}, verification.overallStatus ${settled.body?.verification?.overallStatus}`, settled);
      const o = ctx.profile.operations['accounts.list']!;
      const listed = ((await walk(ctx.profile, ws.api, o.path, o.result.items ?? 'data')) as any[]).find((m) => m.id === id);
      expectThat(listed, msg`the mailbox ${id} should be listed by ${o.method} ${o.path}`);
      expectThat(listed.status === settled.body.status, msg`the mailbox listing should show the outcome of the verification, as the mailbox does (status ${settled.body.status}), it lists status ${listed.status}`, settled);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      expect2xx(v, 'GET /v1/accounts/{id}/verification');
      expectThat(typeof v.body?.lastVerifiedAt === 'string', msg`after the outcome shows on the mailbox, its verification endpoint should show when it was verified, lastVerifiedAt is ${JSON.stringify(v.body?.lastVerifiedAt)}`, v);
    },
  },
  {
    id: 'VERIF-SINK/active',
    title: 'a mailbox with good SMTP and IMAP credentials gets the declared status with statusMessage null (profile: outcome mapping)',
    // The mailbox read after its verification ran is held to 2.1 (Mailbox schema): its verification object, its status,
    // and its warmup (a target may start warmup, writing phase and startedAt, only once the mailbox is verified).
    clauses: ['STATE-ACCT-VERIFY-MAPPING-PROFILE', 'ACCT-STATUSMESSAGE-NULL-HEALTHY', 'ACCT-STATUSMESSAGE-NULLABLE', 'VERIF-MAILBOX-OVERALL', 'VERIF-MAILBOX-SMTP-IMAP', 'VERIF-MAILBOX-DNS', 'ACCT-VERIFICATION-OBJECT', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES', 'WARMUP-READONLY-TYPES'],
    level: 'MUST',
    features: [...FEATURES, NEEDS_VERIFICATION_STATUS],
    budget: 30,
    async run(ctx) {
      const ok = verificationStatus(ctx, 'succeeded');
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      const { id } = await create(ctx, ws.api, input);
      const m = await settle(ctx, ws.api, id);
      expectSchema(m, 'Mailbox', 'GET mailbox after verification');
      expectThat(m.body.status === ok, msg`good credentials must give ${ok} (profile) within ${verificationWaitMs(ctx) / 1000} s, got ${m.body.status} (${JSON.stringify(m.body.statusMessage)})`, m);
      expectThat(m.body.statusMessage === null, msg`a healthy mailbox has statusMessage null, got ${JSON.stringify(m.body.statusMessage)}`, m);
      expectThat(authAttempts(sink, input.smtpUsername as string).some((a) => a.outcome === 'accepted'), msg`the sink saw no accepted AUTH from the mailbox`);
      // verification.smtp/imap values (2.4: "values seen: active, not_checked") are not asserted: seen, not stated.
    },
  },
  {
    id: 'VERIF-SINK/smtp-auth-refused',
    title: 'a mailbox whose SMTP server refuses AUTH (535) becomes failed with the provider reason in statusMessage (profile: outcome mapping); the right password PATCHed in is the one its re-verification logs in with, and healthy again its statusMessage is null',
    clauses: [
      'STATE-ACCT-VERIFY-MAPPING-PROFILE', 'STATE-ACCT-FAILED-STATUSMESSAGE', 'ACCT-STATUSMESSAGE-FIELDS', 'VERIF-ENDPOINT-SMTP', 'STATE-ACCT-CREATE-VERIFY', 'VERIF-MAILBOX-SMTP-IMAP', 'VERIF-MAILBOX-DNS', 'ACCT-VERIFICATION-OBJECT', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES', 'ACCT-VERIF-ANSWER', 'VERIF-ENDPOINT-OVERALL', 'VERIF-ENDPOINT-IMAP', 'VERIF-ENDPOINT-DNS', 'ACCT-PATCH-CREDS-ROTATE', 'STATE-ACCT-PATCH-CREDS-ROTATE', 'ACCT-STATUSMESSAGE-NULLABLE', 'VERIF-MAILBOX-OVERALL', 'ACCT-STATUSMESSAGE-NULL-HEALTHY',
    ],
    level: 'MUST',
    features: [...FEATURES, NEEDS_VERIFICATION_STATUS],
    budget: 45,
    async run(ctx) {
      const failed = verificationStatus(ctx, 'failed');
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      const user = input.smtpUsername as string;
      const { id } = await create(ctx, ws.api, { ...input, smtpPassword: `${input.smtpPassword}-wrong` });
      const m = await settle(ctx, ws.api, id);
      const refused = authAttempts(sink, user).filter((a) => a.outcome === 'rejected' && a.reply?.code === 535);
      expectThat(refused.length > 0, msg`the sink did not refuse an AUTH from ${user} with 535 (attempts: ${JSON.stringify(authAttempts(sink, user).map((a) => [a.outcome, a.reply?.code]))})`, m);
      expectSchema(m, 'Mailbox', 'GET mailbox after a refused AUTH');
      expectThat(m.body.status === failed, msg`a refused SMTP AUTH must give ${failed} (profile), got ${m.body.status}`, m);
      const sm = m.body.statusMessage;
      expectThat(sm !== null && sm.responseCode === 535, msg`statusMessage must hold the provider's refusal (responseCode 535), got ${JSON.stringify(sm)}`, m);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      expect2xx(v, 'GET /v1/accounts/{id}/verification');
      // After a failed verification the answer keeps its 2.4 shape: imap { status, error } even where SMTP failed first.
      expectSchema(v, 'VerificationResult', 'GET /v1/accounts/{id}/verification after a refused SMTP AUTH');
      expectThat(v.body?.smtp?.error !== null && v.body?.smtp?.error !== undefined, msg`verification smtp.error must say why, got ${JSON.stringify(v.body?.smtp)}`, v);
      // The right password PATCHed in: the verification it re-runs logs in with it (3.2 credentials rotated), not with the login it had.
      const n0 = authAttempts(sink, user).length;
      const p = await ws.api.patch(`/v1/accounts/${id}`, { smtpPassword: input.smtpPassword });
      expect2xx(p, 'PATCH /v1/accounts/{id} { smtpPassword } (the right one)');
      const since = () => authAttempts(sink, user).slice(n0);
      const accepted = () => since().some((a) => a.outcome === 'accepted');
      // Settled once it reads healthy again, or once a new attempt without a login has an outcome.
      const ok = verificationStatus(ctx, 'succeeded');
      const after = await settle(ctx, ws.api, id, (x) => x?.status === ok || (since().length > 0 && !accepted() && x?.status !== 'checking'));
      expectThat(accepted(), msg`after the right SMTP password was PATCHed in, the re-verification must log in with it: the new AUTH attempts were ${since().map((a) => `${a.outcome} ${a.reply?.code ?? ''}`).join(', ') || 'none'}`, p);
      // Healthy again: statusMessage is null (2.1), not the refusal it had.
      if (after.body?.status === ok) expectThat(after.body.statusMessage === null, msg`the mailbox verified well again (${ok}): a healthy mailbox has statusMessage null, it keeps ${JSON.stringify(after.body.statusMessage)}`, after);
    },
  },
  {
    id: 'VERIF-SINK/imap-refused-then-resume',
    title: 'a refused IMAP login gives failed; resume re-checks the failed mailbox (checking) and it becomes active once the login works, its statusMessage null again (profile: outcome mapping, resume)',
    clauses: ['STATE-ACCT-VERIFY-MAPPING-PROFILE', 'VERIF-ENDPOINT-IMAP', 'STATE-ACCT-RESUME-CHECKING', 'STATE-ACCT-RESUME-FAILED-RECHECK', 'ACCT-STATUSMESSAGE-NULL-HEALTHY'],
    level: 'MUST',
    features: [...FEATURES, 'op:accounts.resume', NEEDS_VERIFICATION_STATUS],
    budget: 60,
    async run(ctx) {
      const [ok, failed] = [verificationStatus(ctx, 'succeeded'), verificationStatus(ctx, 'failed')];
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      const address = input.emailAddress as string;
      await sink.faults.imapLogin(address, 'wrong-password');
      try {
        // Warmup off: a new AUTH after the resume is then the re-verification, not a warmup send.
        const { id } = await create(ctx, ws.api, { ...input, ...WARMUP_OFF });
        const m = await settle(ctx, ws.api, id);
        expectThat(m.body.status === failed, msg`a refused IMAP login must give ${failed} (profile), got ${m.body.status}`, m);
        const v = await ws.api.get(`/v1/accounts/${id}/verification`);
        expectThat(v.body?.imap?.error !== null && v.body?.imap?.error !== undefined, msg`verification imap.error must say why, got ${JSON.stringify(v.body?.imap)}`, v);
        await sink.faults.imapLogin(address, null);
        const before = authAttempts(sink, input.smtpUsername as string).length;
        const r = await ws.api.request(opRequest(ctx, 'accounts.resume', { id }));
        expect2xx(r, 'resume of a failed mailbox');
        const right = await mustGetMailbox(ctx, ws.api, id);
        const rechecking = right.body.status === 'checking' || authAttempts(sink, input.smtpUsername as string).length > before;
        expectThat(rechecking, msg`resume of a failed mailbox must re-check it (checking), got ${right.body.status}`, right);
        const after = await settle(ctx, ws.api, id);
        expectThat(authAttempts(sink, input.smtpUsername as string).length > before, msg`resume did not re-run the verification (no new AUTH reached the sink)`, after);
        expectThat(after.body.status === ok, msg`after resume with a working login the mailbox must become ${ok} (profile), got ${after.body.status}`, after);
        // Healthy again: the failure it had is no longer its statusMessage (2.1: null when healthy).
        expectThat(after.body.statusMessage === null, msg`the mailbox is healthy again (${ok}), so statusMessage must be null, got ${JSON.stringify(after.body.statusMessage)}`, after);
      } finally {
        await sink.faults.imapLogin(address, null);
      }
    },
  },
  {
    id: 'VERIF-SINK/unreachable',
    title: 'a mailbox whose SMTP host does not answer becomes failed with a verification error (profile: outcome mapping)',
    clauses: ['STATE-ACCT-VERIFY-MAPPING-PROFILE', 'VERIF-ENDPOINT-SMTP', 'ACCT-STATUSMESSAGE-NULLABLE', 'VERIF-MAILBOX-SMTP-IMAP', 'VERIF-MAILBOX-DNS', 'ACCT-VERIFICATION-OBJECT', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES'],
    level: 'MUST',
    features: [...FEATURES, NEEDS_VERIFICATION_STATUS],
    budget: 30,
    async run(ctx) {
      const failed = verificationStatus(ctx, 'failed');
      const ws = await ctx.workspace();
      const { input } = await sinkMailbox(ctx);
      const port = await freePort(ctx.profile.sinks?.host ?? '127.0.0.1');
      const { id } = await create(ctx, ws.api, { ...input, smtpPort: port });
      const m = await settle(ctx, ws.api, id);
      expectSchema(m, 'Mailbox', 'GET mailbox after an unreachable SMTP host');
      expectThat(m.body.status === failed, msg`an SMTP host nobody answers on (port ${port}) must give ${failed} (profile), got ${m.body.status}`, m);
      const v = await ws.api.get(`/v1/accounts/${id}/verification`);
      expectThat(v.body?.smtp?.error !== null && v.body?.smtp?.error !== undefined, msg`verification smtp.error must say why, got ${JSON.stringify(v.body?.smtp)}`, v);
    },
  },
  {
    id: 'VERIF-SINK/rotate',
    title: 'MUST re-run verification with the new credentials when a PATCH rotates smtp*/imap* fields',
    clauses: ['ACCT-PATCH-CREDS-ROTATE', 'STATE-ACCT-PATCH-CREDS-REVERIFY', 'STATE-ACCT-PATCH-CREDS-ROTATE', 'SVC-ACCT-MANAGE'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 60,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      const user = input.smtpUsername as string;
      // Warmup off (2.3): a warmup send logs in as the same SMTP user; its AUTH read as a
      // re-verification would let a target that never re-verifies pass.
      const { id } = await create(ctx, ws.api, { ...input, ...WARMUP_OFF });
      await settle(ctx, ws.api, id, (m) => authAttempts(sink, user).length > 0 && !['inactive', 'checking'].includes(m?.status));
      const n0 = authAttempts(sink, user).length;
      const p1 = await ws.api.patch(`/v1/accounts/${id}`, { smtpPassword: `${input.smtpPassword}-rotated-wrong` });
      expect2xx(p1, 'PATCH /v1/accounts/{id} { smtpPassword }');
      await settle(ctx, ws.api, id, (m) => authAttempts(sink, user).length > n0 && !['inactive', 'checking'].includes(m?.status));
      const after1 = authAttempts(sink, user).slice(n0);
      expectThat(after1.length > 0, msg`no verification ran after the SMTP password was rotated (no new AUTH reached the sink within ${verificationWaitMs(ctx) / 1000} s)`, p1);
      expectThat(after1.some((a) => a.outcome === 'rejected'), msg`the re-verification did not use the new (wrong) password: every new AUTH was ${after1.map((a) => a.outcome).join(', ')}`, p1);
      const n1 = authAttempts(sink, user).length;
      const p2 = await ws.api.patch(`/v1/accounts/${id}`, { smtpPassword: input.smtpPassword });
      expect2xx(p2, 'PATCH /v1/accounts/{id} { smtpPassword } (the right one)');
      await settle(ctx, ws.api, id, (m) => authAttempts(sink, user).length > n1 && !['inactive', 'checking'].includes(m?.status));
      const after2 = authAttempts(sink, user).slice(n1);
      expectThat(after2.some((a) => a.outcome === 'accepted'), msg`after rotating back to the right password no AUTH was accepted (${after2.map((a) => a.outcome).join(', ') || 'no attempt'})`, p2);
    },
  },
  {
    id: 'VERIF-SINK/rotate-status',
    title: 'rotating to a refused password gives the declared failure status, rotating back the declared success status (profile: outcome mapping)',
    clauses: ['STATE-ACCT-VERIFY-MAPPING-PROFILE', 'STATE-ACCT-PATCH-CREDS-REVERIFY'],
    level: 'MUST',
    features: [...FEATURES, NEEDS_VERIFICATION_STATUS],
    budget: 60,
    async run(ctx) {
      const [ok, failed] = [verificationStatus(ctx, 'succeeded'), verificationStatus(ctx, 'failed')];
      const ws = await ctx.workspace();
      const { input } = await sinkMailbox(ctx);
      const { id } = await create(ctx, ws.api, input);
      const first = await settle(ctx, ws.api, id, (m) => m?.status === ok);
      expectThat(first.body.status === ok, msg`good credentials must give ${ok} (profile), got ${first.body.status}`, first);
      expect2xx(await ws.api.patch(`/v1/accounts/${id}`, { imapPassword: `${input.imapPassword}-wrong` }), 'PATCH /v1/accounts/{id} { imapPassword }');
      const bad = await settle(ctx, ws.api, id, (m) => m?.status === failed);
      expectThat(bad.body.status === failed, msg`a rotated IMAP password the server refuses must give ${failed} (profile), got ${bad.body.status}`, bad);
      expect2xx(await ws.api.patch(`/v1/accounts/${id}`, { imapPassword: input.imapPassword }), 'PATCH /v1/accounts/{id} { imapPassword } (the right one)');
      const good = await settle(ctx, ws.api, id, (m) => m?.status === ok);
      expectThat(good.body.status === ok, msg`rotating back to the right password must give ${ok} (profile), got ${good.body.status}`, good);
    },
  },
  {
    id: 'VERIF-SINK/no-reverify',
    title: 'SHOULD NOT re-run verification nor change the status for a PATCH without smtp*/imap* fields',
    clauses: ['STATE-ACCT-PATCH-NO-CREDS-NO-REVERIFY'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 30,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { sink, input } = await sinkMailbox(ctx);
      // Warmup off (2.3): a warmup send logs in with the same SMTP user, and one going out in the
      // middle of the check read as a re-verification (a false failure, on a slow target more often).
      const { id } = await create(ctx, ws.api, { ...input, ...WARMUP_OFF });
      const first = await settle(ctx, ws.api, id);
      const before = first.body.status;
      if (!verified(ctx)(first.body)) skip(`the mailbox's first verification had not ended after ${verificationWaitMs(ctx) / 1000} s (status ${before}): a later change could not be told from a re-verification`);
      const n0 = authAttempts(sink, input.smtpUsername as string).length;
      const p = await ws.api.patch(`/v1/accounts/${id}`, { firstName: 'Unrelated', maxEmailsPerDay: 20 });
      expect2xx(p, 'PATCH /v1/accounts/{id} { firstName, maxEmailsPerDay }');
      expectThat(p.body.status === before, msg`a PATCH of settings changed the status from ${before} to ${p.body.status}`, p);
      if (ctx.control) await drainAll(ctx.control, 2000, ws.api.organizationId);
      const m = await mustGetMailbox(ctx, ws.api, id);
      expectThat(m.body.status === before && authAttempts(sink, input.smtpUsername as string).length === n0, msg`a PATCH without credentials re-ran verification (status ${m.body.status}, ${authAttempts(sink, input.smtpUsername as string).length - n0} new AUTH)`, m);
    },
  },
  {
    id: 'VERIF-SINK/pause',
    title: 'MUST pause an active mailbox to inactive, keep it inactive until a resume, and refuse a second pause with 400',
    // The pause answer is held to the Mailbox schema: a paused mailbox's status is one of 2.1's (inactive, 3.2).
    // ERR-BUSINESS-400: part 7 names this very refusal (pausing a mailbox that is not active) among the business rules answered 400.
    clauses: ['ACCT-PAUSE-RETURNS-MAILBOX', 'STATE-ACCT-PAUSE-INACTIVE', 'STATE-ACCT-PAUSE-NO-AUTO-REACTIVATE', 'ACCT-PAUSE-400-NOT-ACTIVE', 'STATE-ACCT-PAUSE-ACTIVE-ONLY', 'STATE-ACCT-RESUME-CHECKING', 'SVC-ACCT-MANAGE', 'ACCT-STATUS-ENUM', 'STATE-ACCT-STATES', 'ERR-BUSINESS-CODE', 'ERR-BUSINESS-400'],
    level: 'MUST',
    features: [...FEATURES, 'op:accounts.resume'],
    budget: 40,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id, sink, input } = await activeMailbox(ctx, ws.api);
      const p = await ws.api.post(`/v1/accounts/${id}/pause`);
      expect2xx(p, 'POST /v1/accounts/{id}/pause of an active mailbox');
      expectSchema(p, 'Mailbox', 'POST /v1/accounts/{id}/pause');
      expectThat(p.body.id === id && p.body.status === 'inactive', msg`pause must answer the mailbox, inactive; got ${p.body.status}`, p);
      if (ctx.control) await drainAll(ctx.control, 2000, ws.api.organizationId);
      await new Promise((r) => setTimeout(r, 1000));
      const later = await mustGetMailbox(ctx, ws.api, id);
      expectThat(later.body.status === 'inactive', msg`a paused mailbox became ${later.body.status} without a resume`, later);
      expectBusiness400(await ws.api.post(`/v1/accounts/${id}/pause`), ctx, 'pausing a paused (inactive) mailbox');
      const n0 = authAttempts(sink, input.smtpUsername as string).length;
      expect2xx(await ws.api.request(opRequest(ctx, 'accounts.resume', { id })), 'resume of a paused mailbox');
      const right = await mustGetMailbox(ctx, ws.api, id);
      const after = await settle(ctx, ws.api, id);
      expectThat(right.body.status === 'checking' || authAttempts(sink, input.smtpUsername as string).length > n0, msg`resume of an inactive mailbox must re-check it (checking and re-verification), got ${right.body.status} and no new AUTH`, right, after);
    },
  },
];
