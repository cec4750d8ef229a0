// Client of the conformance control API v1 (docs/ARCHITECTURE.md, "Control API v1"), implementing ControlClient.
// Every call is recorded (kind 'control': not counted in stats.requests), the token is
// registered with the redactor (curl lines use $OUTREACH_CONTROL_TOKEN), and the apiKey of a
// created workspace is registered too (curl lines use $OUTREACH_API_KEY).
// A non-2xx answer is thrown as a ControlError carrying status, body and exchange id, unless a
// caller of request() passes { allowError: true }.

import type { ControlClient, DrainResult } from '../ground/check.ts';
import type { ApiRequest, ApiResponse } from '../ground/api-client.ts';
import type { TypedFailure } from '../ground/failure.ts';
import { DEFAULT_TIMEOUT_MS, KIT_USER_AGENT, TransportError, sendOnce } from './client.ts';
import { CONTROL_TOKEN_ENV, DEFAULT_KEY_ENV, Recorder } from './recorder.ts';
import { DrainCoalescer } from './drains.ts';

/** A drain's bound when the kit gives none: the contract's default. */
const DRAIN_DEFAULT_MS = 30_000;
/**
 * What the kit waits for a drain beyond the bounds of the drains it has in flight (which a target
 * that serializes drains may run before it): other clients' drains queued there, the network.
 */
const DRAIN_QUEUE_MARGIN_MS = 30_000;

export class ControlError extends Error {
  constructor(
    message: string,
    public readonly status: number,
    public readonly body: unknown,
    public readonly exchangeId: string,
    /** What was asked, its ids left out: the method and the path's first segment ("PUT /campaigns"). */
    public readonly call?: string,
  ) {
    super(message);
    this.name = 'ControlError';
  }

  /** Its cause as data (harness/ground/failure.ts): the status and what was asked, not the path's ids. */
  get typed(): TypedFailure {
    return { kind: 'control', fields: { status: this.status, ...(this.call ? { call: this.call } : {}) } };
  }
}

export interface ControlClientOptions {
  baseUrl: string;
  token: string;
  recorder: Recorder;
  checkId?: string;
  userAgent?: string;
  timeoutMs?: number;
  /** The shared result of the GET /capabilities probe (internal: forCheck passes it on). */
  capabilities?: { current: Promise<readonly string[]> | undefined };
  /** The run's drains, coalesced across its checks (internal: forCheck passes it on). */
  drains?: DrainCoalescer;
  /** What the kit waits for a drain beyond the bounds in flight; default DRAIN_QUEUE_MARGIN_MS (tests shorten it). */
  drainQueueMarginMs?: number;
}

export interface ControlWorkspace {
  organizationId: string;
  name: string;
  timezone: string;
  apiKey: string;
  apiKeyId: string;
}

export interface ConformanceControlClient extends ControlClient {
  readonly baseUrl: string;
  request(method: string, path: string, body?: unknown, opts?: { allowError?: boolean; timeoutMs?: number }): Promise<ApiResponse>;
  /** The same control client, exchanges attributed to this check id. */
  forCheck(checkId: string): ConformanceControlClient;
  /** How many drains this client asked for ended with work left or unanswered (a slow target). */
  slowDrains(): number;
}

export function createControlClient(opts: ControlClientOptions): ConformanceControlClient {
  const { recorder } = opts;
  recorder.redactor.add(opts.token, CONTROL_TOKEN_ENV);
  const ctx = {
    baseUrl: opts.baseUrl,
    recorder,
    checkId: opts.checkId,
    kind: 'control' as const,
    userAgent: opts.userAgent ?? KIT_USER_AGENT,
    authValue: `Bearer ${opts.token}`,
    defaultTimeoutMs: opts.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };

  async function request(method: string, path: string, body?: unknown, o: { allowError?: boolean; timeoutMs?: number } = {}): Promise<ApiResponse> {
    const req: ApiRequest = {
      method: method.toUpperCase() as ApiRequest['method'],
      path,
      ...(body !== undefined ? { body } : {}),
      ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
    };
    const res = await sendOnce(ctx, req);
    if ((res.status < 200 || res.status > 299) && !o.allowError) {
      const detail = res.body?.error?.message ?? res.text.slice(0, 500);
      throw new ControlError(
        recorder.redactor.text(`control API ${req.method} ${path} answered ${res.status}: ${detail} (exchange ${res.exchangeId})`),
        res.status,
        recorder.redactor.json(res.body ?? res.text),
        res.exchangeId,
        `${req.method} /${path.split('/')[1] ?? ''}`,
      );
    }
    return res;
  }

  const expectField = <T>(res: ApiResponse, field: string, what: string): T => {
    const v = res.body?.[field];
    if (v === undefined) {
      throw new ControlError(`control API ${what} answered ${res.status} without "${field}" (exchange ${res.exchangeId})`, res.status, recorder.redactor.json(res.body), res.exchangeId);
    }
    return v as T;
  };

  const toDate = (res: ApiResponse, what: string): Date => {
    const s = expectField<string>(res, 'now', what);
    const d = new Date(s);
    if (Number.isNaN(d.getTime())) throw new ControlError(`control API ${what}: "now" is not a date: ${String(s)}`, res.status, res.body, res.exchangeId);
    return d;
  };

  // GET /capabilities is probed once per client family (forCheck shares it).
  const probe = opts.capabilities ?? { current: undefined as Promise<readonly string[]> | undefined };
  async function extensions(): Promise<readonly string[]> {
    probe.current ??= (async () => {
      const res = await request('GET', '/capabilities', undefined, { allowError: true });
      if (res.status === 404) return [];
      const ext = res.body?.extensions;
      if (res.status !== 200 || !Array.isArray(ext) || !ext.every((x: unknown) => typeof x === 'string')) {
        throw new ControlError(`control API GET /capabilities answered ${res.status} without { version, extensions: string[] } (exchange ${res.exchangeId})`, res.status, recorder.redactor.json(res.body ?? res.text), res.exchangeId);
      }
      return ext as string[];
    })();
    return probe.current;
  }

  const drains = opts.drains ?? new DrainCoalescer();
  let slow = 0;
  /**
   * One POST /work/drain. The kit waits for the drain's own bound and for those of the run's
   * other drains in flight (a target that serializes drains runs them first), plus a margin; a
   * drain still unanswered then is a slow target (`complete: false`), as is one that took its
   * whole bound: either may have left work.
   */
  async function sendDrain(timeoutMs: number | undefined, organizationId: string | undefined): Promise<DrainResult> {
    const body = { ...(timeoutMs !== undefined ? { timeoutMs } : {}), ...(organizationId !== undefined ? { organizationId } : {}) };
    const wait = Math.max(ctx.defaultTimeoutMs, drains.boundsInFlight(DRAIN_DEFAULT_MS) + (opts.drainQueueMarginMs ?? DRAIN_QUEUE_MARGIN_MS));
    let res: ApiResponse;
    const ended = (processed: number, complete: boolean): DrainResult => {
      drains.note(complete);
      return { processed, complete, ...(drains.untold() ? { untold: true } : {}) };
    };
    try {
      res = await request('POST', '/work/drain', body, { timeoutMs: wait });
    } catch (e) {
      if (e instanceof TransportError && e.timedOut) return ended(0, false);
      throw e;
    }
    const processed = Number(expectField<number>(res, 'processed', 'POST /work/drain'));
    return ended(processed, res.durationMs < (timeoutMs ?? DRAIN_DEFAULT_MS));
  }

  return {
    baseUrl: opts.baseUrl,
    request,
    extensions,
    async createWorkspace(input = {}) {
      const res = await request('POST', '/workspaces', input);
      const ws = res.body as ControlWorkspace;
      expectField(res, 'apiKey', 'POST /workspaces');
      expectField(res, 'organizationId', 'POST /workspaces');
      recorder.redactor.add(ws.apiKey, DEFAULT_KEY_ENV);
      return { organizationId: ws.organizationId, name: ws.name, timezone: ws.timezone, apiKey: ws.apiKey, apiKeyId: ws.apiKeyId };
    },
    async patchWorkspace(organizationId, input) {
      const res = await request('PATCH', `/workspaces/${encodeURIComponent(organizationId)}`, input);
      return res.body;
    },
    async now() {
      return toDate(await request('GET', '/clock'), 'GET /clock');
    },
    async advance(seconds) {
      return toDate(await request('POST', '/clock/advance', { seconds }), 'POST /clock/advance');
    },
    async drain(timeoutMs, organizationId) {
      const scoped = organizationId !== undefined && (await extensions()).includes('scoped-drain');
      const r = await drains.drain(scoped ? organizationId : '', timeoutMs, (t) => sendDrain(t, scoped ? organizationId : undefined));
      if (!r.complete) slow++;
      return r;
    },
    slowDrains: () => slow,
    forCheck(checkId: string) {
      return createControlClient({ ...opts, checkId, capabilities: probe, drains });
    },
  };
}

/** What a control API announced (GET /capabilities), or why it could not be asked. */
export type AnnouncedExtensions = { extensions: readonly string[] } | { unknown: string };

/**
 * Asks the control API at `endpoint` which optional extensions it offers (GET /capabilities; a
 * 404 means none), within `timeoutMs`. Unreachable or malformed: `unknown` says why (redacted:
 * the token never appears in it). The planners take the list; a run asks its own client.
 */
export async function announcedExtensions(endpoint: { baseUrl: string; token: string }, timeoutMs = 5000): Promise<AnnouncedExtensions> {
  const recorder = new Recorder({ emit: () => {} });
  const client = createControlClient({ baseUrl: endpoint.baseUrl, token: endpoint.token, recorder, timeoutMs });
  try {
    return { extensions: await client.extensions() };
  } catch (e) {
    return { unknown: recorder.redactor.text(e instanceof Error ? e.message : String(e)) };
  }
}
