import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { REPORT_FILES, writeReports } from './index.ts';
import { redactAuthValue, scrubEvents, scrubText } from './scrub.ts';
import { makeInput, PLANTED } from './fixture.test-helper.ts';

const dir = mkdtempSync(join(tmpdir(), 'report-secrets-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('no secret in any written file', () => {
  it('the planted secrets are in the input (so this test can fail)', () => {
    const raw = JSON.stringify(makeInput());
    for (const s of Object.values(PLANTED)) expect(raw).toContain(s);
  });

  it('writeReports scrubs every file it writes', async () => {
    const { files } = await writeReports(dir, makeInput());
    expect(files.map((f) => f.slice(dir.length + 1)).sort()).toEqual([...REPORT_FILES].sort());
    expect(readdirSync(dir).sort()).toEqual([...REPORT_FILES].sort()); // no temp files left behind
    for (const f of files) {
      const text = readFileSync(f, 'utf8');
      for (const [name, secret] of Object.entries(PLANTED)) {
        expect(text.includes(secret), `${name} leaked into ${f}`).toBe(false);
        expect(text.includes(encodeURIComponent(secret)), `${name} (url-encoded) leaked into ${f}`).toBe(false);
      }
      expect(text).not.toMatch(/Bearer ok_/);
    }
    const results = JSON.parse(readFileSync(join(dir, 'results.json'), 'utf8'));
    expect(results.profile).toEqual({
      baseUrl: 'http://127.0.0.1:4010',
      workspaces: [{ apiKey: '[REDACTED]' }],
      control: { url: 'http://127.0.0.1:4011', token: '[REDACTED]' },
    });
  });

  it('Authorization becomes "Bearer [REDACTED]" in headers and curl lines', async () => {
    const har = JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8'));
    const auth = har.log.entries.flatMap((e: { request: { headers: { name: string; value: string }[] } }) =>
      e.request.headers.filter((h) => h.name.toLowerCase() === 'authorization').map((h) => h.value),
    );
    expect(new Set(auth)).toEqual(new Set(['Bearer [REDACTED]']));
    const curls: string[] = har.log.entries.map((e: { _curl: string }) => e._curl);
    expect(curls.filter((c) => /authorization/i.test(c)).every((c) => c.includes("Authorization: Bearer [REDACTED]'"))).toBe(true);
    expect(curls.join('\n')).toContain('"smtpPassword":"[REDACTED]"');
  });

  it('the created key echoed in a response body is redacted, other fields kept', () => {
    const har = JSON.parse(readFileSync(join(dir, 'traffic.har'), 'utf8'));
    const e = har.log.entries.find((x: { _exchangeId: string }) => x._exchangeId === 'x000005');
    expect(JSON.parse(e.response.content.text)).toEqual({ id: 'key_9', name: 'k', scopes: ['all:all'], key: '[REDACTED]' });
  });
});

describe('scrub rules', () => {
  const ex = (over: Partial<ExchangeEvent>): ExchangeEvent => ({
    type: 'exchange',
    id: 'x1',
    startedAt: '2026-01-01T00:00:00.000Z',
    durationMs: 1,
    request: { method: 'GET', url: 'http://h/v1/x', headers: {} },
    curl: '',
    ...over,
  });

  it('keeps the auth scheme; malformed header evidence stays readable', () => {
    expect(redactAuthValue('Bearer abcdef123456')).toBe('Bearer [REDACTED]');
    expect(redactAuthValue('Basic dXNlcjpwYXNz')).toBe('Basic [REDACTED]');
    expect(redactAuthValue('Bearer')).toBe('Bearer');
    expect(redactAuthValue('Bearer ')).toBe('Bearer ');
    expect(redactAuthValue('ok_live_rawkeywithoutscheme')).toBe('[REDACTED]');
    expect(redactAuthValue('')).toBe('');
  });

  it('redacts secret-named JSON fields at any depth, `key` only when it looks like a secret', () => {
    const [out] = scrubEvents([
      ex({
        response: {
          status: 200,
          headers: {},
          body: JSON.stringify({ data: [{ imapPassword: 'p@ss w0rd!', key: 'created_desc', nested: { apiKey: 'k'.repeat(20), token: 'tok-0123456789' } }, { key: 'sk_live_0123456789abcdef', password: 12345, secret: '' }] }),
        },
      }),
    ]) as [ExchangeEvent];
    expect(JSON.parse(out.response!.body!)).toEqual({
      data: [{ imapPassword: '[REDACTED]', key: 'created_desc', nested: { apiKey: '[REDACTED]', token: '[REDACTED]' } }, { key: '[REDACTED]', password: 12345, secret: '' }],
    });
  });

  it('leaves a body untouched (byte for byte) when there is nothing to redact', () => {
    const body = '{ "id" : "a",\n  "name": "b" }';
    const [out] = scrubEvents([ex({ response: { status: 200, headers: {}, body } })]) as [ExchangeEvent];
    expect(out.response!.body).toBe(body);
  });

  it('redacts a truncated (unparseable) JSON body by pattern', () => {
    const body = '{"name":"x","password":"tr\\"icky-secret-1","more":"…cut';
    const [out] = scrubEvents([ex({ response: { status: 200, headers: {}, body } })]) as [ExchangeEvent];
    expect(out.response!.body).toBe('{"name":"x","password":"[REDACTED]","more":"…cut');
  });

  it('redacts credential headers and secret query parameters', () => {
    const [out] = scrubEvents([
      ex({
        request: { method: 'GET', url: 'http://h/v1/x?limit=5&apiKey=abc%2Bdef12345&token=', headers: { 'X-Api-Key': 'abc', Cookie: 'sid=1' } },
        response: { status: 200, headers: { 'set-cookie': 'sid=2' } },
      }),
    ]) as [ExchangeEvent];
    expect(out.request.url).toBe('http://h/v1/x?limit=5&apiKey=%5BREDACTED%5D&token=');
    expect(out.request.headers).toEqual({ 'X-Api-Key': '[REDACTED]', Cookie: '[REDACTED]' });
    expect(out.response!.headers).toEqual({ 'set-cookie': '[REDACTED]' });
  });

  it('erases a removed secret wherever else it appears (messages, other bodies, profile)', () => {
    const secret = 'ok_test_9f8e7d6c5b4a3210';
    const events: RunEvent[] = [
      ex({ id: 'a', request: { method: 'GET', url: 'http://h/v1/x', headers: { authorization: `Bearer ${secret}` } } }),
      ex({ id: 'b', response: { status: 400, headers: {}, body: `plain text mentioning ${secret}` } }),
      { type: 'check-end', checkId: 'c', title: 't', clauses: [], level: 'MUST', verdict: 'fail', message: `key ${secret} was accepted`, durationMs: 1, requests: 1 },
    ];
    const text = JSON.stringify(scrubEvents(events));
    expect(text).not.toContain(secret);
    expect(text).toContain('key [REDACTED] was accepted');
    expect(JSON.stringify(events)).toContain(secret); // the input is not modified
  });

  it('keeps { env } references in the profile, redacts inline secrets', () => {
    const all = scrubEvents([
      {
        type: 'run-start',
        runId: 'r',
        startedAt: '2026-01-01T00:00:00.000Z',
        kit: { name: 'k', version: '1' },
        spec: { version: '1', sha256: 'x' },
        target: { baseUrl: 'http://h', embedded: false },
        depth: 'quick',
        profile: {
          workspaces: [{ apiKey: { env: 'OUTREACH_KEY_A' } }, { apiKey: 'ok_inline_secret_value' }],
          control: { token: { env: 'CTL' } },
          operations: { 'apikeys.create': { result: { id: 'id', secret: 'key' } }, 'x.y': { result: { token: 'data.apiKey.secretValue' } } },
        },
      },
      ex({ response: { status: 200, headers: {}, body: '{"echo":"ok_inline_secret_value"}' } }),
    ]);
    const out = all[0];
    expect(out).toMatchObject({ profile: { workspaces: [{ apiKey: { env: 'OUTREACH_KEY_A' } }, { apiKey: '[REDACTED]' }], control: { token: { env: 'CTL' } } } });
    // Field names of the profile are paths, not secrets: kept however they are named.
    expect((out as any).profile.operations).toEqual({ 'apikeys.create': { result: { id: 'id', secret: 'key' } }, 'x.y': { result: { token: 'data.apiKey.secretValue' } } });
    expect(JSON.stringify(all)).not.toContain('ok_inline_secret_value');
  });

  it('the OAuth state is a secret: in the init answer, its authorization URL and the status URL', () => {
    const state = 'st_9a8b7c6d5e4f3a2b1c0d';
    const out = scrubEvents([
      ex({
        id: 'init',
        request: { method: 'POST', url: 'http://h/v1/accounts/oauth/google/init', headers: {} },
        response: { status: 200, headers: {}, body: JSON.stringify({ authorizationUrl: `https://accounts.example/o?state=${state}&x=1`, state, expiresInSeconds: 600 }) },
      }),
      ex({ id: 'status', request: { method: 'GET', url: `http://h/v1/accounts/oauth/google/status?state=${state}`, headers: {} } }),
    ]);
    expect(JSON.stringify(out)).not.toContain(state);
    expect(JSON.parse((out[0] as ExchangeEvent).response!.body!)).toMatchObject({ state: '[REDACTED]', expiresInSeconds: 600 });
  });

  it('a status filter named state is not a secret: its enum word stays everywhere', () => {
    const out = scrubEvents([
      ex({ id: 'list', request: { method: 'GET', url: 'http://h/v1/campaigns?state=scheduled', headers: {} }, response: { status: 200, headers: {}, body: JSON.stringify({ data: [{ status: 'scheduled' }] }) } }),
    ]);
    expect((out[0] as ExchangeEvent).request.url).toBe('http://h/v1/campaigns?state=scheduled');
    expect(JSON.parse((out[0] as ExchangeEvent).response!.body!)).toEqual({ data: [{ status: 'scheduled' }] });
  });

  it('a curl line with shell-escaped JSON still loses the secret (erased by value)', () => {
    const [out] = scrubEvents([
      ex({
        request: { method: 'POST', url: 'http://h/v1/accounts', headers: {}, body: '{"accounts":[{"smtpPassword":"pa55-w0rd-xyz"}]}' },
        curl: 'curl -X POST http://h/v1/accounts --data "{\\"accounts\\":[{\\"smtpPassword\\":\\"pa55-w0rd-xyz\\"}]}"',
      }),
    ]) as [ExchangeEvent];
    expect(out.curl).not.toContain('pa55-w0rd-xyz');
    expect(out.curl).toContain('[REDACTED]');
  });

  it("keeps the client's runnable curl lines intact", () => {
    const curl = `curl -sS -g -i -X POST 'http://h/v1/campaigns' -H 'authorization: Bearer '"$OUTREACH_API_KEY" -H 'content-type: application/json' --data-raw '{"name":"x","password":"[REDACTED]"}'`;
    const [out] = scrubEvents([ex({ curl, request: { method: 'POST', url: 'http://h/v1/campaigns', headers: { authorization: 'Bearer [REDACTED]' } } })]) as [ExchangeEvent];
    expect(out.curl).toBe(curl);
    expect(out.request.headers.authorization).toBe('Bearer [REDACTED]');
  });

  it('is idempotent, and a no-op on an already clean stream', () => {
    const once = scrubEvents(makeInput().events);
    expect(scrubEvents(once)).toEqual(once);
    const clean = makeInput().events.filter((e) => e.type !== 'run-start' && !(e.type === 'exchange' && ['x000002', 'x000003', 'x000005'].includes(e.id)) && e.type !== 'check-end');
    expect(scrubEvents(clean)).toEqual(clean);
  });

  it('scrubText handles free text with header lines and JSON fields', () => {
    expect(scrubText(`curl -H 'authorization: Bearer abcdefghijkl' --data '{"secret":"s3cr3t-value"}'`)).toBe(
      `curl -H 'authorization: Bearer [REDACTED]' --data '{"secret":"[REDACTED]"}'`,
    );
  });
});
