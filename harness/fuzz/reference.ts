// Fuzz targets of the reference target: its public port and its control port, each driven from
// its own route table (so a new route is fuzzed without being listed here). Every answer must be
// below 500 and, when an error, the spec's envelope; a probe workspace the fuzz never sees keeps
// its records (campaigns, workspaces) and still answers.
import { CONTROL_ROUTES, MAX_BODY_BYTES, ROUTES, startReference, type ReferenceHandle } from '../reference/index.ts';
import { Finding, type FuzzTarget } from './core.ts';
import { httpInput, KNOWN_ID, playHttp, VALID_AUTH, type HttpInput } from './http.ts';
import type { HttpAnswer } from './wire.ts';

/** Field names of the spec's bodies and of the control API's, so generated bodies reach validation and handlers. */
const FIELDS = [
  'name', 'accounts', 'emailAddress', 'firstName', 'lastName', 'smtpHost', 'smtpPort', 'smtpUsername', 'smtpPassword', 'imapHost', 'imapPort',
  'imapUsername', 'imapPassword', 'imapAllowInvalidCert', 'leads', 'email', 'companyName', 'customFields', 'sequences', 'steps', 'subject', 'body',
  'delayDays', 'variants', 'schedule', 'timezone', 'days', 'from', 'to', 'dailyLimit', 'launch', 'campaignId', 'leadId', 'accountIds', 'scopes',
  'status', 'operation', 'leadIds', 'tags', 'tagIds', 'isUnread', 'accountId', 'warmup', 'maxEmailsPerDay', 'sendingGapMinutes', 'signature',
  'seconds', 'timeoutMs', 'organizationId', 'query', 'searchMode', 'maxResults', 'progress', 'errorMessage', 'discoveryFinished', 'apiAccess',
  'limits', 'used', 'plan', 'state', 'type', 'value', 'color', 'emailsPerDay', 'stopOnReply', 'trackOpens',
];

type Req = HttpInput & { kind: 'request' };

/** The spec's envelope on an error answer (tracking paths and HEAD carry none). */
function envelopeProblem(input: Req, a: HttpAnswer): string | null {
  if (a.status < 400 || input.method === 'HEAD' || input.path.startsWith('/t/')) return null;
  let e: Record<string, unknown> | undefined;
  try {
    e = (JSON.parse(a.body.toString('utf8')) as { error?: Record<string, unknown> }).error;
  } catch {
    return `error body is not JSON: ${a.body.toString('utf8').slice(0, 120)}`;
  }
  if (!e || typeof e !== 'object') return 'no error object';
  if (e.status !== a.status) return `envelope status ${String(e.status)} != ${a.status}`;
  for (const f of ['type', 'code', 'message', 'requestId']) if (typeof e[f] !== 'string') return `envelope without ${f}`;
  return null;
}

interface RefState {
  ref: ReferenceHandle;
  fuzzKey: string;
  knownIds: string[];
}

async function json(url: string, method: string, auth: string, body?: unknown): Promise<{ status: number; body: any }> {
  const r = await fetch(url, { method, headers: { authorization: auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) }, body: body === undefined ? undefined : JSON.stringify(body) });
  const text = await r.text();
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = text;
  }
  return { status: r.status, body: parsed };
}

async function startState(): Promise<RefState> {
  // The fuzz key's own id is not among the known ids: revoking it would leave only 401s to fuzz.
  // A raised rate limit (outside the spec, as for capacity runs) lets fuzzed bodies reach the handlers instead of 429s.
  const ref = await startReference({ log: () => {}, rateLimit: { requests: 1_000_000, windowMs: 60_000 } });
  const ctl = `Bearer ${ref.controlToken}`;
  const ws = await json(`${ref.controlUrl}/workspaces`, 'POST', ctl, { name: 'fuzz' });
  const fuzzKey = ws.body.apiKey as string;
  const camp = await json(`${ref.baseUrl}/v1/campaigns`, 'POST', `Bearer ${fuzzKey}`, { name: 'fuzzed' });
  const knownIds = [ws.body.organizationId, camp.body?.campaign?.id].filter((x): x is string => typeof x === 'string');
  return { ref, fuzzKey, knownIds };
}

const pick = (ids: string[], s: string) => ids[s.length % ids.length]!;

function fuzzTarget(server: string, st: RefState, port: () => number, routes: readonly { method: string; path: string }[], auth: string, probe: (tag: string) => Promise<void>): FuzzTarget<HttpInput> {
  return {
    server,
    arbitrary: httpInput({ routes, fields: FIELDS, hugeBytes: MAX_BODY_BYTES + 1 }),
    exec: (input) =>
      playHttp(input, {
        port,
        fill: (s) => s.split(VALID_AUTH).join(auth).split(KNOWN_ID).join(pick(st.knownIds, s)),
        judge: envelopeProblem,
        timeoutMs: 10_000,
      }),
    probe,
    heapBound: { mb: 48, why: 'the reference keeps its records in SQLite on disk; the heap holds only per-window rate buckets and connections' },
  };
}

export interface ReferenceFuzz {
  targets: FuzzTarget<HttpInput>[];
  stop(): Promise<void>;
}

/** Starts one reference and returns its two fuzz targets (public port, control port). */
export async function referenceTargets(): Promise<ReferenceFuzz> {
  const st = await startState();
  const { ref } = st;
  const ctl = `Bearer ${ref.controlToken}`;
  // Probe records: a workspace the fuzz never learns of, its campaigns, and workspaces made through control.
  const probeWs = await json(`${ref.controlUrl}/workspaces`, 'POST', ctl, { name: 'probe' });
  const probeKey = `Bearer ${probeWs.body.apiKey as string}`;
  const campaigns: string[] = [];
  const workspaces: string[] = [];
  const publicProbe = async (tag: string) => {
    const c = await json(`${ref.baseUrl}/v1/campaigns`, 'POST', probeKey, { name: tag });
    if (c.status < 200 || c.status > 299) throw new Finding(`a valid POST /v1/campaigns answered ${c.status}: ${JSON.stringify(c.body).slice(0, 200)}`);
    campaigns.push(c.body.campaign.id);
    const list = await json(`${ref.baseUrl}/v1/campaigns?limit=100`, 'GET', probeKey);
    const seen = new Set((list.body?.data ?? []).map((x: { id: string }) => x.id));
    const lost = campaigns.filter((id) => !seen.has(id));
    if (list.status !== 200 || lost.length) throw new Finding(`GET /v1/campaigns answered ${list.status}; campaigns lost: ${lost.join(', ')}`);
  };
  const controlProbe = async (tag: string) => {
    const w = await json(`${ref.controlUrl}/workspaces`, 'POST', ctl, { name: tag });
    if (w.status !== 201) throw new Finding(`a valid control POST /workspaces answered ${w.status}`);
    workspaces.push(w.body.apiKey);
    for (const key of workspaces) {
      const r = await json(`${ref.baseUrl}/v1/workspace`, 'GET', `Bearer ${key}`);
      if (r.status !== 200) throw new Finding(`a workspace made through control is lost (GET /v1/workspace answered ${r.status})`);
    }
  };
  const port = (u: string) => () => Number(new URL(u).port);
  return {
    targets: [
      fuzzTarget('reference-public', st, port(ref.baseUrl), ROUTES, `Bearer ${st.fuzzKey}`, publicProbe),
      fuzzTarget('reference-control', st, port(ref.controlUrl), CONTROL_ROUTES, ctl, controlProbe),
    ],
    stop: () => ref.stop(),
  };
}
