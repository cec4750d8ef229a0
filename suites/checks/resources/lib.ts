import fc from 'fast-check';
import type { ApiClient, ApiRequest, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Profile } from '../../../harness/ground/profile-schema.ts';
import type { ReferencedOperationId } from '../../../harness/ground/spec-model/referenced-operations.ts';
import type { CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { CheckFailure, fail, skip, msg } from '../../../harness/ground/check.ts';
import { envelopeProblems, expectError, expectPage, expectThat, is2xx, snippet } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { createCampaign, faker, listLeads, walk, walkPages } from '../../lib/recipes.ts';
import { mailboxInput, prefixedAddress, type MailboxServers } from '../../../fixtures/factories/index.ts';
import { fillPath, getPath, itemOf, resultPath } from '../../../harness/ground/operations.ts';
import type { MailSink, SinkCredentials } from '../../../harness/sinks/index.ts';
import { mailSinks } from '../../lib/sinks.ts';
import { VerificationPace } from '../../lib/verification-pace.ts';

// Helpers shared by the resource checks (parts 2 to 4). Everything goes over the wire; names the
// spec leaves "not shown" come from ctx.profile.

export { fc };

/** The referenced operation from the profile, or skip the check with the reason. */
export function op(ctx: CheckContext, id: ReferencedOperationId) {
  const o = ctx.profile.operations[id];
  if (!o) skip(`needs the referenced operation "${id}" in the profile (operations.${id})`);
  return o;
}

export function opRequest(ctx: CheckContext, id: ReferencedOperationId, params: Record<string, string>, extra: Partial<ApiRequest> = {}): ApiRequest {
  const o = op(ctx, id);
  return { method: o.method, path: fillPath(o.path, params), ...extra };
}

/** Reads one mailbox through the referenced "accounts.get". */
export async function getMailbox(ctx: CheckContext, api: ApiClient, id: string): Promise<ApiResponse> {
  return itemOf(op(ctx, 'accounts.get'), await api.request(opRequest(ctx, 'accounts.get', { id })));
}

/** Reads one mailbox; a non-2xx answer fails the check. */
export async function mustGetMailbox(ctx: CheckContext, api: ApiClient, id: string): Promise<any> {
  const res = await getMailbox(ctx, api, id);
  if (!is2xx(res)) fail(msg`reading mailbox ${id} answered ${res.status} ${snippet(res)}`, res);
  return res;
}

/** 400 validation_failed in the envelope with non-empty string details. */
export function expectValidation400(res: ApiResponse, ctx: CheckContext, what: string): void {
  expectError(res, 400, ctx.profile, what, 'validation_failed');
  const d = res.body?.error?.details;
  expectThat(Array.isArray(d) && d.length > 0 && d.every((x: unknown) => typeof x === 'string'), msg`${what}: a validation failure must carry error.details (non-empty array of strings), got ${JSON.stringify(d)}`, res);
}

/** A 400 business-rule refusal (code: the profile's, when declared; any table-conformant envelope otherwise). */
/** A business-rule refusal (part 7): 400 in the envelope, with the code the profile declares (if it does). */
export function expectBusiness400(res: ApiResponse, ctx: CheckContext, what: string): void {
  expectError(res, 400, ctx.profile, what, ctx.profile.names.businessRuleErrorCode);
}

/** A refusal: any 4xx in the envelope other than 401/403/404 (the spec says "rejected"). */
export function expectRejected(res: ApiResponse, ctx: CheckContext, what: string): void {
  expectThat(res.status >= 400 && res.status < 500 && ![401, 403, 404, 429].includes(res.status), msg`${what}: expected a refusal (400, 409 or 422), got ${res.status} ${snippet(res)}`, res);
  const p = envelopeProblems(res, ctx.profile);
  expectThat(p.length === 0, msg`${what}: the ${res.status} answer breaks the error envelope: ${p.join('; ')}`, res);
}

/**
 * A daily quota's refusal (the 13th test email of a workspace, one past a mailbox's
 * maxEmailsPerDay): part 8 gives the quota, not the status of its refusal, so a refusal as
 * expectRejected takes it, or 429 rate_limited in the envelope with its Retry-After (part 7), are
 * each correct.
 */
export function expectQuotaRefused(res: ApiResponse, ctx: CheckContext, what: string): void {
  if (res.status !== 429) return expectRejected(res, ctx, what);
  const p = envelopeProblems(res, ctx.profile);
  expectThat(p.length === 0, msg`${what}: the 429 answer breaks the error envelope: ${p.join('; ')}`, res);
  expectThat(/^\s*\d+\s*$/.test(res.headers['retry-after'] ?? '') || !Number.isNaN(Date.parse(res.headers['retry-after'] ?? '')), msg`${what}: a 429 must carry a Retry-After header (part 7), got ${JSON.stringify(res.headers['retry-after'])}`, res);
}

/**
 * The answer to a batch of one invalid mailbox element: either 400 validation_failed (the target
 * validated the whole body first) or a success with nothing created and the element in `errors`.
 * 4.2 states 201 for the batch; a batch that connected nothing may answer another 2xx (4.1 leaves
 * POST /v1/accounts' other success statuses open), so any 2xx is read by its body.
 */
export function expectElementRejected(res: ApiResponse, ctx: CheckContext, what: string): void {
  if (res.status === 400) return expectValidation400(res, ctx, what);
  expectThat(is2xx(res), msg`${what}: expected 400 validation_failed or a success with the element in errors, got ${res.status} ${snippet(res)}`, res);
  const b = res.body ?? {};
  expectThat(Array.isArray(b.accounts) && b.accounts.length === 0, msg`${what}: the invalid element was created (${JSON.stringify(b.accounts?.map((a: any) => a.id))})`, res);
  expectThat(Array.isArray(b.errors) && b.errors.length === 1, msg`${what}: the invalid element must be reported in errors, got ${JSON.stringify(b.errors)}`, res);
  expectThat(b.summary?.failed === 1 && b.summary?.created === 0, msg`${what}: summary must count it as failed, got ${JSON.stringify(b.summary)}`, res);
}

/** The answer to a batch whose elements are all valid: 201 and every element created. */
export function expectAllCreated(res: ApiResponse, n: number, what: string): any[] {
  expectThat(res.status === 201, msg`${what}: expected 201, got ${res.status} ${snippet(res)}`, res);
  const accounts = res.body?.accounts;
  expectThat(Array.isArray(accounts) && accounts.length === n, msg`${what}: expected ${n} mailbox(es) created, got ${Array.isArray(accounts) ? accounts.length : 'none'}; errors ${JSON.stringify(res.body?.errors)?.slice(0, 300)}`, res);
  return accounts;
}

/** A valid mailbox element (unreachable servers unless given). */
export function mbx(ctx: CheckContext, overrides: Record<string, unknown> = {}, servers?: MailboxServers) {
  return mailboxInput(faker(ctx), ctx.prefix, servers, overrides);
}

/** An email address of exactly `length` characters, prefixed and unique. */
export function addressOfLength(ctx: CheckContext, length: number): string {
  const local = `${ctx.prefix}${faker(ctx).string.alphanumeric({ length: 8, casing: 'lower' })}`.slice(0, 60);
  let domain = '';
  const need = length - local.length - 1 - '.test'.length;
  // labels of at most 63 characters separated by dots
  while (domain.length < need) {
    const room = need - domain.length;
    if (domain.length > 0) {
      if (room < 2) break;
      domain += '.';
      domain += 'd'.repeat(Math.min(63, room - 1));
    } else domain += 'd'.repeat(Math.min(63, room));
  }
  const out = `${local}@${domain}.test`;
  if (out.length !== length) throw new Error(`addressOfLength(${length}) made ${out.length}`);
  return out;
}

/** A host name of exactly `length` characters (labels of at most 63). */
export function hostOfLength(length: number): string {
  const labels: string[] = [];
  let total = 0;
  while (total < length) {
    const room = length - total - (labels.length ? 1 : 0);
    const n = Math.min(63, room);
    if (n <= 0) break;
    labels.push('h'.repeat(n));
    total += n + (labels.length > 1 ? 1 : 0);
  }
  const out = labels.join('.');
  if (out.length !== length) return 'h'.repeat(length);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Campaigns and leads
// ---------------------------------------------------------------------------------------------

export async function campaignWithLeads(ctx: CheckContext, api: ApiClient, n: number, steps = 1) {
  const { id, res } = await createCampaign(ctx, api, { leads: n, steps });
  const leads = await listLeads(ctx, api, id);
  if (leads.length !== n) fail(msg`setup: the campaign created with ${n} leads lists ${leads.length}`, res);
  return { id, res, leads };
}

export function leadAddress(ctx: CheckContext, tag = ''): string {
  return prefixedAddress(faker(ctx), `${ctx.prefix}${tag}`, 'leads.example.test');
}

/** The mutate body with the profile's names for the operation and the status fields. */
export function mutateBody(profile: Profile, operation: string | number, rest: Record<string, unknown> = {}, status?: string): Record<string, unknown> {
  const n = profile.names.mutate;
  return { [n.operation]: operation, ...rest, ...(status !== undefined ? { [n.status]: status } : {}) };
}

export async function readLead(ctx: CheckContext, api: ApiClient, cid: string, leadId: string): Promise<any | undefined> {
  const o = op(ctx, 'leads.list');
  const all = (await walk(ctx.profile, api, fillPath(o.path, { id: cid }), resultPath(o, 'items'))) as any[];
  return all.find((l) => l.id === leadId);
}

export async function allLeads(ctx: CheckContext, api: ApiClient, cid: string): Promise<any[]> {
  const o = op(ctx, 'leads.list');
  return (await walk(ctx.profile, api, fillPath(o.path, { id: cid }), resultPath(o, 'items'))) as any[];
}

/** Every lead of a campaign, each page of the walk held to 4.1's page shape (meta beside the items). */
export async function allLeadsPaged(ctx: CheckContext, api: ApiClient, cid: string): Promise<any[]> {
  const o = op(ctx, 'leads.list');
  const pages = await walkPages(ctx.profile, api, fillPath(o.path, { id: cid }), resultPath(o, 'items'));
  for (const p of pages) expectPage(p.res, resultPath(o, 'items'), `GET ${o.path}`);
  return pages.flatMap((p) => p.items);
}

// ---------------------------------------------------------------------------------------------
// Control API
// ---------------------------------------------------------------------------------------------

export function control(ctx: CheckContext) {
  if (!ctx.control) skip('needs the conformance-control API');
  return ctx.control;
}

export async function createTag(ctx: CheckContext, ws: Workspace, name: string): Promise<{ id: string; name: string; color: string }> {
  if (!ws.organizationId) skip('the workspace has no organizationId (control API)');
  const r = await control(ctx).request('POST', `/workspaces/${ws.organizationId}/tags`, { name: `${ctx.prefix}${name}`, color: '#1a2b3c' });
  return r.body;
}

export async function setTags(ctx: CheckContext, kind: 'accounts' | 'campaigns', id: string, tagIds: string[]) {
  await control(ctx).request('PUT', `/${kind}/${id}/tags`, { tagIds });
}

// ---------------------------------------------------------------------------------------------
// Sinks and background verification
// ---------------------------------------------------------------------------------------------

export function sinks(ctx: CheckContext): MailSink {
  const sinks = mailSinks(ctx);
  if (!sinks) skip('needs the mail sinks (profile features.sinks), which were not started for this run');
  return sinks;
}

/** A mailbox create field that keeps warmup from sending through the mailbox's login: for checks that count every attempt at the login (2.3 `enabled`). */
export const WARMUP_OFF = { warmup: { enabled: false } } as const;

/** A sink user and the mailbox element that connects to it (STARTTLS port, plain IMAP). */
export async function sinkMailbox(ctx: CheckContext, needImap = true): Promise<{ sink: MailSink; creds: SinkCredentials; input: Record<string, unknown> }> {
  const sink = sinks(ctx);
  if (needImap && !sink.imap) skip(sink.imapUnavailableReason ?? 'the IMAP sink is unavailable');
  const address = prefixedAddress(faker(ctx), ctx.prefix, 'sink.outreach.test');
  const creds = await sink.addUser(address);
  const imap = creds.imap ?? { host: sink.smtp.host, port: 9, username: address, password: creds.password };
  const input = {
    ...mbx(ctx),
    emailAddress: address,
    smtpHost: ctx.profile.sinks?.host ?? creds.smtp.host,
    smtpPort: sink.smtp.port,
    smtpUsername: creds.smtp.username,
    smtpPassword: creds.smtp.password,
    imapHost: ctx.profile.sinks?.host ?? imap.host,
    imapPort: imap.port,
    imapUsername: imap.username,
    imapPassword: imap.password,
    imapAllowInvalidCert: true,
  };
  return { sink, creds, input };
}

const UNSETTLED = new Set(['inactive', 'checking']);

/** What verificationStatus() needs of the profile: every check that calls it lists it (harness/ground/check.ts `decl:`). */
export const NEEDS_VERIFICATION_STATUS = 'decl:declarations.verificationStatus' as const;

/**
 * The mailbox status a verification outcome gives (3.2: "Mapping of verification outcomes to
 * status values: not shown"): the profile's declaration; a check that needs it lists
 * NEEDS_VERIFICATION_STATUS (the runner skips it before it runs when undeclared).
 */
export function verificationStatus(ctx: CheckContext, outcome: 'succeeded' | 'failed'): string {
  const d = ctx.profile.declarations.verificationStatus;
  if (!d) skip('the profile does not declare declarations.verificationStatus (the mailbox status after a verification succeeds or fails)');
  return d[outcome];
}

/** 3.2: "Newly connected mailboxes start inactive". */
const START_STATUS = 'inactive';

/**
 * Has the mailbox reached a verification outcome? The declared statuses, else any status but
 * inactive/checking. Where the declared failure is the status a mailbox starts in (3.2 leaves the
 * mapping open), a poll without the control API's drain cannot tell a failed verification from one
 * not yet run: only the success settles it, and a failure shows as the wait running out.
 */
export function verified(ctx: Pick<CheckContext, 'profile' | 'control'>): (m: any) => boolean {
  const d = ctx.profile.declarations.verificationStatus;
  if (!d) return (m) => !UNSETTLED.has(m?.status);
  if (d.failed === START_STATUS && !ctx.control) return (m) => m?.status === d.succeeded;
  return (m) => m?.status === d.succeeded || m?.status === d.failed;
}

/**
 * How long a check waits for a mailbox's background verification to end (3.2 sets no bound). With
 * the control API its drain runs the verification at once. Without it the target's own time rules:
 * the reference verifies within a second or two, a deployment whose verification or network is
 * slower many times that (`reference --slow 10` waits 9 s before it starts one).
 */
export function verificationWaitMs(ctx: Pick<CheckContext, 'control'>): number {
  return ctx.control ? 10_000 : 30_000;
}

/**
 * Drives background work (control drain) and polls the mailbox (accounts.get) until it reaches a
 * verification outcome (by default), or verificationWaitMs passes. Returns the last answer.
 */
export async function settle(ctx: CheckContext, api: ApiClient, id: string, done: (m: any) => boolean = verified(ctx)): Promise<ApiResponse> {
  const t0 = Date.now();
  const until = t0 + verificationWaitMs(ctx);
  // Without the control API the target verifies in its own time: the sink seeing the mailbox log in says when.
  const pace = new VerificationPace(ctx.control ? undefined : mailSinks(ctx));
  for (;;) {
    if (ctx.control) await drainAll(ctx.control, 2000, api.organizationId).catch(() => false);
    const last: ApiResponse = await mustGetMailbox(ctx, api, id);
    if (done(last.body)) {
      // The target's own time (no control API drained it): the progress line reads its engine's pace from it.
      if (!ctx.control) ctx.targetWork?.('mailbox-settle', Date.now() - t0);
      return last;
    }
    if (Date.now() > until) return last;
    await pace.pause(last.body?.smtp?.username); // 2.1: the mailbox answers smtp { host, port, username }
  }
}

/** Runs a fast-check property; a failure becomes a CheckFailure with the seed and the counterexample. */
export async function property<T>(ctx: CheckContext, arb: fc.Arbitrary<T>, predicate: (v: T) => Promise<void>, runs: { default: number; full: number }) {
  let lastFailure: CheckFailure | undefined;
  const numRuns = ctx.depth === 'full' ? runs.full : runs.default;
  const result = await fc.check(
    fc.asyncProperty(arb, async (v) => {
      try {
        await predicate(v);
        return true;
      } catch (e) {
        if (e instanceof CheckFailure) {
          lastFailure = e;
          return false;
        }
        throw e;
      }
    }),
    { seed: ctx.seed, numRuns, endOnFailure: true },
  );
  if (result.failed) {
    if (!lastFailure && result.errorInstance) throw result.errorInstance;
    throw new CheckFailure(`${lastFailure?.message ?? 'property failed'} (fast-check seed ${result.seed}, counterexample ${JSON.stringify(result.counterexample)?.slice(0, 300)})`, lastFailure?.evidence ?? [], lastFailure?.typed);
  }
}

export { getPath, walk, fillPath, resultPath };
