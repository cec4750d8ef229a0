// A realistic synthetic run for the report tests (not a test file itself).
import type { BaselineEntry, CheckEndEvent, ExchangeEvent, Level, RunEvent, Verdict } from '../ground/events.ts';
import type { Clause } from '../ground/spec-model/clauses/types.ts';
import type { CheckInfo, ReportInput } from './results.ts';

/** Secrets planted in the stream as if the client had failed to redact them. */
export const PLANTED = {
  bearer: 'ok_live_PLANTEDbearerSECRET0001',
  createdKey: 'ok_live_PLANTEDcreatedKEY0002',
  password: 'hunter2-PLANTED-password',
  smtpPassword: 'PLANTED-smtp-pass-0003',
  controlToken: 'PLANTEDcontrolTOKEN0004',
  queryToken: 'PLANTEDqueryTOKEN0005',
} as const;

export const BASE = 'http://127.0.0.1:4010';

export const CLAUSES: Clause[] = [
  { id: 'VER-PREFIX', section: '9', level: 'MUST', text: 'Every path starts with /v1.' },
  { id: 'AUTH-401-MISSING', section: '5', level: 'MUST', text: 'A request without Authorization gets 401 unauthenticated.' },
  { id: 'IDEM-REUSED-422', section: '4.1', level: 'MUST', text: 'The same Idempotency-Key with another body gets 422 idempotency_key_reused.' },
  { id: 'PAGE-LIMIT-MAX', section: '4.1', level: 'MUST', text: 'Page size is at most 100.' },
  { id: 'ERR-REQUESTID', section: '7', level: 'MUST', text: 'Every error carries a uuid requestId & "status" <equal> to the HTTP status.' },
  { id: 'RATE-REMAINING', section: '8', level: 'SHOULD', text: 'X-RateLimit-Remaining counts down.' },
  { id: 'LIST-PARAM-CURSOR', section: '4.1', level: 'PROFILE', text: 'The cursor parameter is the one the profile declares.' },
  { id: 'ANLT-WINDOW', section: '2.10', level: 'PROFILE', text: 'Analytics window parameters (not shown).' },
  { id: 'USAGE-PERCENT', section: '2.9', level: 'MUST', text: 'usagePercentage is used / limit * 100.' },
  { id: 'KEY-SUBSET', section: '5', level: 'MUST', text: 'A key can only create keys whose scopes are a subset of its own.' },
];

export const CHECKS: CheckInfo[] = [
  { id: 'AUTH-401-MISSING/GET /v1/workspace', title: 'MUST answer 401 without Authorization', clauses: ['AUTH-401-MISSING'], level: 'MUST' },
  // A check that needs the control API is Extended: AUTH-401-MISSING is proven both ways.
  { id: 'AUTH-401-MISSING/GET /v1/usage', title: 'MUST answer 401 without Authorization', clauses: ['AUTH-401-MISSING'], level: 'MUST', features: ['control'] },
  { id: 'IDEM-REUSED/POST /v1/campaigns', title: 'MUST answer 422 on a reused key with another body', clauses: ['IDEM-REUSED-422', 'ERR-REQUESTID'], level: 'MUST' },
  { id: 'IDEM-REUSED/POST /v1/api-keys', title: 'MUST answer 422 on a reused key with another body', clauses: ['IDEM-REUSED-422'], level: 'MUST' },
  { id: 'PAGE-LIMIT-101/GET /v1/api-keys', title: 'MUST reject limit=101', clauses: ['PAGE-LIMIT-MAX'], level: 'MUST' },
  { id: 'PAGE-LIMIT-FULL/GET /v1/campaigns', title: 'MUST reject every limit over 100', clauses: ['PAGE-LIMIT-MAX'], level: 'MUST' },
  { id: 'ERR-ENVELOPE/GET /v1/nope', title: 'MUST answer the error envelope', clauses: ['ERR-REQUESTID'], level: 'MUST' },
  { id: 'RATE-REMAINING-COUNTDOWN', title: 'SHOULD count X-RateLimit-Remaining down', clauses: ['RATE-REMAINING'], level: 'SHOULD' },
  { id: 'LIST-CURSOR/GET /v1/campaigns', title: 'PROFILE cursor parameter works', clauses: ['LIST-PARAM-CURSOR'], level: 'PROFILE' },
  { id: 'USAGE-PERCENT/GET /v1/usage', title: 'MUST compute usagePercentage', clauses: ['USAGE-PERCENT'], level: 'MUST', features: ['control', 'twoWorkspaces'] },
  { id: 'KEY-SUBSET/POST /v1/api-keys', title: 'MUST refuse a key wider than its creator', clauses: ['KEY-SUBSET'], level: 'MUST', features: ['control:workspace-keys'] },
];

let seq = 0;
function at(ms: number): string {
  return new Date(Date.UTC(2026, 0, 2, 3, 4, 5) + ms).toISOString();
}

export function exchange(partial: Partial<ExchangeEvent> & { checkId?: string }): ExchangeEvent {
  seq++;
  const id = partial.id ?? `x${String(seq).padStart(6, '0')}`;
  return {
    type: 'exchange',
    id,
    startedAt: at(seq * 10),
    durationMs: 4,
    request: { method: 'GET', url: `${BASE}/v1/workspace`, headers: { authorization: 'Bearer [REDACTED]' } },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"id":"ws_1"}' },
    curl: `curl -sS '${BASE}/v1/workspace' -H 'Authorization: Bearer [REDACTED]'`,
    ...partial,
  };
}

function end(checkId: string, verdict: Verdict, extra: Partial<CheckEndEvent> = {}): CheckEndEvent {
  const info = CHECKS.find((c) => c.id === checkId);
  return {
    type: 'check-end',
    checkId,
    title: info?.title ?? checkId,
    clauses: info?.clauses ?? [],
    level: (info?.level ?? 'MUST') as Level,
    verdict,
    durationMs: 12,
    requests: 1,
    ...extra,
  };
}

export function makeInput(opts: { withMutation?: boolean; withRunEnd?: boolean; baseline?: BaselineEntry[] } = {}): ReportInput {
  seq = 0;
  const xss = '<script>alert("pwned")</script>';
  const idem1 = exchange({
    id: 'x000002',
    startedAt: at(20),
    checkId: 'IDEM-REUSED/POST /v1/campaigns',
    request: {
      method: 'POST',
      url: `${BASE}/v1/campaigns?token=${PLANTED.queryToken}`,
      headers: { Authorization: `Bearer ${PLANTED.bearer}`, 'Idempotency-Key': 'idem-abc', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'oc-run1-campaign', smtpPassword: PLANTED.smtpPassword }),
    },
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: '{"id":"camp_1","name":"oc-run1-campaign"}' },
    curl: `curl -sS -X POST '${BASE}/v1/campaigns?token=${PLANTED.queryToken}' -H 'Authorization: Bearer ${PLANTED.bearer}' -H 'Idempotency-Key: idem-abc' --data-raw '{"name":"oc-run1-campaign","smtpPassword":"${PLANTED.smtpPassword}"}'`,
  });
  const idem2 = exchange({
    id: 'x000003',
    startedAt: at(30),
    checkId: 'IDEM-REUSED/POST /v1/campaigns',
    request: {
      method: 'POST',
      url: `${BASE}/v1/campaigns`,
      headers: { authorization: `Bearer ${PLANTED.bearer}`, 'Idempotency-Key': 'idem-abc', 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'other', password: PLANTED.password }),
    },
    response: {
      status: 201,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ id: 'camp_2', name: xss, note: 'a & b ]]> c \u0001\u0008 end', big: 'y'.repeat(20_000) }),
    },
    curl: `curl -sS -X POST '${BASE}/v1/campaigns' -H 'Authorization: Bearer ${PLANTED.bearer}' --data-raw '{"name":"other","password":"${PLANTED.password}"}'`,
  });
  const keyCreate = exchange({
    id: 'x000005',
    startedAt: at(50),
    checkId: 'KEY-SUBSET/POST /v1/api-keys',
    request: { method: 'POST', url: `${BASE}/v1/api-keys`, headers: { authorization: 'Bearer [REDACTED]' }, body: '{"name":"k","scopes":["all:all"]}' },
    // The target created a key it should have refused, and echoed the secret.
    response: { status: 201, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id: 'key_9', name: 'k', scopes: ['all:all'], key: PLANTED.createdKey }) },
  });
  const events: RunEvent[] = [
    {
      type: 'run-start',
      runId: '2026-01-02T03-04-05Z-abc123',
      startedAt: at(0),
      kit: { name: 'outreach-conformance', version: '0.1.0' },
      spec: { version: '1.0.0', sha256: 'a'.repeat(64) },
      target: { baseUrl: BASE, name: 'reference', embedded: true },
      depth: 'default',
      profile: { baseUrl: BASE, workspaces: [{ apiKey: PLANTED.bearer }], control: { url: 'http://127.0.0.1:4011', token: PLANTED.controlToken } },
      ...(opts.baseline ? { baseline: { file: 'known.json', entries: opts.baseline } } : {}),
    },
    { type: 'check-start', checkId: 'AUTH-401-MISSING/GET /v1/workspace', at: at(1) },
    exchange({ id: 'x000001', startedAt: at(10), checkId: 'AUTH-401-MISSING/GET /v1/workspace', request: { method: 'GET', url: `${BASE}/v1/workspace`, headers: {} }, response: { status: 401, headers: {}, body: '{"error":{"status":401}}' } }),
    end('AUTH-401-MISSING/GET /v1/workspace', 'pass', { evidence: ['x000001'] }),
    end('AUTH-401-MISSING/GET /v1/usage', 'pass'),
    { type: 'check-start', checkId: 'IDEM-REUSED/POST /v1/campaigns', at: at(2) },
    idem1,
    idem2,
    end('IDEM-REUSED/POST /v1/campaigns', 'fail', {
      message: `expected 422 idempotency_key_reused, got 201 <b>&</b> (key ${PLANTED.bearer})`,
      evidence: [idem1.id, idem2.id],
      requests: 2,
      durationMs: 40,
    }),
    end('IDEM-REUSED/POST /v1/api-keys', 'pass'),
    end('PAGE-LIMIT-101/GET /v1/api-keys', 'skip', { message: 'the profile declares no operation "apikeys.list"' }),
    // PAGE-LIMIT-FULL: no check-end at all (depth 'full' only)
    { type: 'check-start', checkId: 'ERR-ENVELOPE/GET /v1/nope', at: at(3) },
    exchange({ id: 'x000004', startedAt: at(40), checkId: 'ERR-ENVELOPE/GET /v1/nope', request: { method: 'GET', url: `${BASE}/v1/nope`, headers: {} }, error: 'ECONNRESET', response: undefined }),
    end('ERR-ENVELOPE/GET /v1/nope', 'error', { message: 'TypeError: Cannot read properties of undefined (reading "status")\n    at check.ts:12' }),
    end('RATE-REMAINING-COUNTDOWN', 'fail', { message: 'X-RateLimit-Remaining stayed at 120 over 3 requests', evidence: [] }),
    end('LIST-CURSOR/GET /v1/campaigns', 'pass'),
    end('USAGE-PERCENT/GET /v1/usage', 'pass'),
    keyCreate,
    end('KEY-SUBSET/POST /v1/api-keys', 'pass', { evidence: [keyCreate.id] }),
  ];
  if (opts.withRunEnd !== false) {
    events.push({ type: 'run-end', finishedAt: at(5_000), stats: { requests: 5, unplanned429: 1, plannedMs: 4_000, actualMs: 5_000 } });
  }
  // Copies: a test may push a check or a clause without touching the next test's input.
  const input: ReportInput = { events, clauses: [...CLAUSES], checks: [...CHECKS] };
  if (opts.withMutation !== false) {
    input.mutation = {
      score: 0.75,
      mutants: [
        { id: 'idem-ignore-body', clauses: ['IDEM-REUSED-422'], killed: true, killedBy: ['IDEM-REUSED/POST /v1/campaigns'] },
        { id: 'auth-accept-missing', clauses: ['AUTH-401-MISSING'], killed: true, killedBy: ['AUTH-401-MISSING/GET /v1/workspace', 'AUTH-401-MISSING/GET /v1/usage'] },
        { id: 'page-limit-200', clauses: ['PAGE-LIMIT-MAX'], killed: false, killedBy: [] },
        { id: 'err-no-requestid', clauses: ['ERR-REQUESTID'], killed: true, killedBy: ['ERR-ENVELOPE/GET /v1/nope'] },
      ],
    };
  }
  return input;
}

/** Endpoints of the one-cause failures below; the last has its own clause set. */
export const ONE_CAUSE_ENDPOINTS = ['GET /v1/campaigns', 'PATCH /v1/accounts/{id}', 'DELETE /v1/emails/{id}', 'GET <accounts.list>', 'POST /v1/campaigns/{id}/start'];

/**
 * The run of makeInput() plus what one broken rule does to a target: a requestId that is not a
 * uuid fails the 401 check of every endpoint (one cause as data, messages differing by endpoint,
 * ids and seeds), and the same failure on a check of another clause (another cause).
 */
export function manyFailuresInput(): ReportInput {
  const input = makeInput();
  const events: RunEvent[] = [];
  ONE_CAUSE_ENDPOINTS.forEach((ep, i) => {
    const id = `AUTH-401-MISSING/${ep}`;
    const clauses = i === ONE_CAUSE_ENDPOINTS.length - 1 ? ['ERR-REQUESTID'] : ['AUTH-401-MISSING', 'ERR-REQUESTID'];
    input.checks.push({ id, title: 'MUST answer 401 without Authorization', clauses, level: 'MUST' });
    const x = exchange({ checkId: id, request: { method: ep.split(' ')[0]!, url: `${BASE}/v1/x/${i}`, headers: {} }, response: { status: 401, headers: {}, body: `{"error":{"requestId":"req_${i}a9f3c2e1d"}}` } });
    const message = `${ep} with no Authorization header: the 401 answer breaks the error envelope: error.requestId: must be a UUID string, got "req_${i}a9f3c2e1d" for oc1a2b3c-ws-${i} at 2026-01-02T03:04:0${i}.000Z (check seed ${1_000_000 + i * 7919}, run seed 4242)`;
    events.push(x, { type: 'check-end', checkId: id, title: 'MUST answer 401 without Authorization', clauses, level: 'MUST', verdict: 'fail', message, failure: { kind: 'envelope', fields: { status: 401, problems: ['error.requestId: must be a UUID string'] } }, evidence: [x.id], durationMs: 3, requests: 1 });
  });
  const endAt = input.events.findIndex((e) => e.type === 'run-end');
  input.events.splice(endAt < 0 ? input.events.length : endAt, 0, ...events);
  return input;
}
