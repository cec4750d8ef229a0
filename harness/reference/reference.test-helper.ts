// Helpers for the reference target's own tests: real HTTP against a started instance.
import { startReference, type ReferenceHandle } from './index.ts';
import { HoldRegistry } from './switches/holds.test-helper.ts';

export interface Res {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface CallOpts {
  body?: unknown;
  raw?: string;
  /** Authorization header value; null = none. Default: `Bearer <key>`. */
  auth?: string | null;
  idem?: string;
  headers?: Record<string, string>;
}

export interface Workspace {
  orgId: string;
  key: string;
  keyId: string;
}

export class Env {
  /** `holds`: the hold on idempotent requests this reference was started with (Env.start gives one). */
  constructor(
    readonly ref: ReferenceHandle,
    readonly holds = new HoldRegistry(),
  ) {}

  static async start(mutants: string[] = [], opts: { backgroundTimer?: boolean } = {}): Promise<Env> {
    const holds = new HoldRegistry();
    return new Env(await startReference({ mutants, log: () => {}, backgroundTimer: opts.backgroundTimer ?? false, holds }), holds);
  }

  /** POST /work/drain (runs background work due now, e.g. mailbox verification). */
  drain(): Promise<Res> {
    return this.ctl('POST', '/work/drain', {});
  }

  /** Control extension: record that an email went to the lead / that the lead replied. */
  async leadEvent(leadId: string, type: 'contacted' | 'replied'): Promise<void> {
    const r = await this.ctl('POST', `/leads/${leadId}/events`, { type });
    if (r.status !== 200) throw new Error(`control POST /leads/${leadId}/events: ${r.status} ${r.text}`);
  }

  stop(): Promise<void> {
    return this.ref.stop();
  }

  private async send(url: string, method: string, headers: Record<string, string>, body?: string): Promise<Res> {
    const r = await fetch(url, { method, headers, body });
    const text = await r.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    return { status: r.status, headers: r.headers, body: parsed, text };
  }

  /** A call to the public API with `key`. */
  call(key: string | null, method: string, path: string, o: CallOpts = {}): Promise<Res> {
    const headers: Record<string, string> = { ...o.headers };
    const auth = o.auth === undefined ? (key === null ? null : `Bearer ${key}`) : o.auth;
    if (auth !== null) headers.authorization = auth;
    if (o.idem !== undefined) headers['idempotency-key'] = o.idem;
    let body: string | undefined;
    if (o.raw !== undefined) body = o.raw;
    else if (o.body !== undefined) body = JSON.stringify(o.body);
    if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/json';
    return this.send(this.ref.baseUrl + path, method, headers, body);
  }

  ctl(method: string, path: string, body?: unknown, token = this.ref.controlToken): Promise<Res> {
    const headers: Record<string, string> = { authorization: `Bearer ${token}` };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.send(this.ref.controlUrl + path, method, headers, body === undefined ? undefined : JSON.stringify(body));
  }

  async workspace(body: Record<string, unknown> = {}): Promise<Workspace> {
    const r = await this.ctl('POST', '/workspaces', body);
    if (r.status !== 201) throw new Error(`control POST /workspaces: ${r.status} ${r.text}`);
    return { orgId: r.body.organizationId, key: r.body.apiKey, keyId: r.body.apiKeyId };
  }

  /** A new key of `ws` with `scopes` (created through POST /v1/api-keys). */
  async key(ws: Workspace, scopes: string[]): Promise<{ id: string; key: string }> {
    const r = await this.call(ws.key, 'POST', '/v1/api-keys', { body: { name: `k-${scopes.join('+')}`, scopes } });
    if (r.status !== 201) throw new Error(`POST /v1/api-keys: ${r.status} ${r.text}`);
    return { id: r.body.id, key: r.body.key };
  }

  /** A key made by "the dashboard" (control API extension): any scopes, apikeys:manage included. */
  async dashboardKey(ws: Workspace, scopes: string[]): Promise<{ id: string; key: string }> {
    const r = await this.ctl('POST', `/workspaces/${ws.orgId}/keys`, { name: 'dash', scopes });
    if (r.status !== 201) throw new Error(`control POST keys: ${r.status} ${r.text}`);
    return { id: r.body.id, key: r.body.key };
  }

  async campaign(ws: Workspace, body: Record<string, unknown> = {}): Promise<any> {
    const r = await this.call(ws.key, 'POST', '/v1/campaigns', { body: { name: 'c', ...body } });
    if (r.status !== 201) throw new Error(`POST /v1/campaigns: ${r.status} ${r.text}`);
    return r.body.campaign;
  }

  async mailbox(ws: Workspace, overrides: Record<string, unknown> = {}): Promise<any> {
    const r = await this.call(ws.key, 'POST', '/v1/accounts', { body: { accounts: [mailboxInput(overrides)] } });
    if (r.status !== 201 || r.body.accounts.length !== 1) throw new Error(`POST /v1/accounts: ${r.status} ${r.text}`);
    return r.body.accounts[0];
  }
}

let seq = 0;
export function mailboxInput(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  seq++;
  const n = `${Date.now().toString(36)}${seq}${Math.random().toString(36).slice(2, 6)}`;
  return {
    emailAddress: `sender-${n}@example.test`, firstName: 'Ada', lastName: 'Lovelace',
    smtpHost: 'smtp.example.test', smtpPort: 587, smtpUsername: `sender-${n}`, smtpPassword: 's3cret-smtp',
    imapHost: 'imap.example.test', imapPort: 993, imapUsername: `sender-${n}`, imapPassword: 's3cret-imap',
    ...overrides,
  };
}

export const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** Asserts-free envelope check used by tests: returns a list of problems. */
export function envelopeProblems(r: Res): string[] {
  const p: string[] = [];
  const e = r.body?.error;
  if (!e) return ['no error object'];
  if (e.status !== r.status) p.push(`status ${e.status} != ${r.status}`);
  if (typeof e.type !== 'string' || typeof e.code !== 'string' || typeof e.message !== 'string') p.push('type/code/message');
  if (!UUID_V4.test(String(e.requestId))) p.push('requestId not uuid v4');
  if (!String(r.headers.get('content-type')).startsWith('application/json')) p.push('content-type');
  return p;
}
