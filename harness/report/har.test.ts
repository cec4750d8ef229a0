import { describe, expect, it } from 'vitest';
import { renderReports } from './index.ts';
import type { Har } from './har.ts';
import { makeInput } from './fixture.test-helper.ts';

describe('traffic.har', () => {
  const { files } = renderReports(makeInput());
  const har = JSON.parse(files['traffic.har']) as Har;
  const entry = (id: string) => har.log.entries.find((e) => e._exchangeId === id)!;

  it('is HAR 1.2 with the kit as creator and every exchange, in time order', () => {
    expect(har.log.version).toBe('1.2');
    expect(har.log.creator).toEqual({ name: 'outreach-conformance', version: '0.1.0' });
    expect(har.log.entries.map((e) => e._exchangeId)).toEqual(['x000001', 'x000002', 'x000003', 'x000004', 'x000005']);
    const times = har.log.entries.map((e) => Date.parse(e.startedDateTime));
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  });

  it('every entry has the required HAR fields', () => {
    for (const e of har.log.entries) {
      expect(new Date(e.startedDateTime).toISOString()).toBe(e.startedDateTime);
      expect(typeof e.time).toBe('number');
      expect(e.request).toMatchObject({ httpVersion: expect.any(String), cookies: [], headersSize: -1 });
      expect(Array.isArray(e.request.headers)).toBe(true);
      expect(Array.isArray(e.request.queryString)).toBe(true);
      expect(typeof e.request.bodySize).toBe('number');
      expect(e.response).toMatchObject({ status: expect.any(Number), statusText: expect.any(String), cookies: [], redirectURL: expect.any(String) });
      expect(e.response.content).toMatchObject({ size: expect.any(Number), mimeType: expect.any(String) });
      expect(e.cache).toEqual({});
      expect(e.timings).toMatchObject({ send: expect.any(Number), wait: expect.any(Number), receive: expect.any(Number) });
      expect(e._checkId).toEqual(expect.any(String));
    }
  });

  it('maps request and response, with the check id in _checkId', () => {
    const e = entry('x000003');
    expect(e._checkId).toBe('IDEM-REUSED/POST /v1/campaigns');
    expect(e.request.method).toBe('POST');
    expect(e.request.url).toBe('http://127.0.0.1:4010/v1/campaigns');
    expect(e.request.headers).toContainEqual({ name: 'Idempotency-Key', value: 'idem-abc' });
    expect(e.request.headers).toContainEqual({ name: 'authorization', value: 'Bearer [REDACTED]' });
    expect(e.request.postData?.mimeType).toBe('application/json');
    expect(JSON.parse(e.request.postData!.text)).toEqual({ name: 'other', password: '[REDACTED]' });
    expect(e.response.status).toBe(201);
    expect(e.response.statusText).toBe('Created');
    expect(e.response.content.mimeType).toBe('application/json');
    expect(e.response.content.size).toBe(Buffer.byteLength(e.response.content.text!));
    expect(JSON.parse(e.response.content.text!).name).toBe('<script>alert("pwned")</script>');
    expect(e.time).toBe(4);
    expect(e.timings.wait).toBe(4);
  });

  it('parses the query string and keeps a secret query parameter redacted', () => {
    const e = entry('x000002');
    expect(e.request.queryString).toEqual([{ name: 'token', value: '[REDACTED]' }]);
  });

  it('a transport failure is status 0 with _error', () => {
    const e = entry('x000004');
    expect(e.response.status).toBe(0);
    expect(e._error).toBe('ECONNRESET');
    expect(e.request.postData).toBeUndefined();
  });
});
