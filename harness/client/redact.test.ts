import { describe, expect, it } from 'vitest';
import { Redactor, REDACTED } from './redact.ts';
import { toCurl, truncateBody, MAX_BODY_BYTES, Recorder } from './recorder.ts';
import type { RunEvent } from '../ground/events.ts';

const KEY = 'sk_live_0123456789abcdefXYZ';

describe('Redactor', () => {
  it('redacts Authorization values of any scheme, keeping the scheme word', () => {
    const r = new Redactor();
    const h = r.headers({ Authorization: `Bearer ${KEY}`, 'Proxy-Authorization': 'Basic dXNlcjpwYXNz', 'X-Other': 'fine' });
    expect(h).toEqual({ authorization: 'Bearer [REDACTED]', 'proxy-authorization': 'Basic [REDACTED]', 'x-other': 'fine' });
    expect(r.headers({ authorization: 'bearer abc' }).authorization).toBe('bearer [REDACTED]');
    expect(r.headers({ authorization: KEY }).authorization).toBe(REDACTED);
    expect(r.headers({ authorization: '' }).authorization).toBe('');
    expect(r.headers({ authorization: 'Bearer' }).authorization).toBe('Bearer');
    expect(r.headers({ authorization: 'Bearer   ' }).authorization).toBe('Bearer   ');
    expect(r.headers({ authorization: 'Bearer a b' }).authorization).toBe('Bearer [REDACTED]');
    expect(r.headers({ 'x-api-key': 'whatever' })['x-api-key']).toBe(REDACTED);
  });

  it('replaces registered secrets everywhere, also URL-encoded and JSON-escaped', () => {
    const r = new Redactor();
    const pw = 'p@ss w"ord/1';
    r.add(KEY);
    r.add(pw);
    expect(r.text(`key=${KEY}; again ${KEY}`)).toBe(`key=${REDACTED}; again ${REDACTED}`);
    expect(r.text(`/x?p=${encodeURIComponent(pw)}`)).toBe(`/x?p=${REDACTED}`);
    expect(r.text(JSON.stringify({ note: `said ${pw}` }))).not.toContain('w\\"ord');
    expect(r.headers({ 'x-echo': `k ${KEY}` })['x-echo']).toBe(`k ${REDACTED}`);
  });

  it('secrets with pattern characters are matched literally; of two overlapping, the longer wins; added later, still caught', () => {
    const r = new Redactor();
    r.add('a.b*c+d(e)|f');
    r.add('pw$1^[x]');
    expect(r.text('x a.b*c+d(e)|f y')).toBe(`x ${REDACTED} y`);
    expect(r.text('aXbbcdde|f and pw$1^[x]')).toBe(`aXbbcdde|f and ${REDACTED}`);
    r.add('secret-token-1');
    r.add('secret-token-12345');
    expect(r.text('k=secret-token-12345;')).toBe(`k=${REDACTED};`);
    r.add('added-after-first-use');
    expect(r.text('x added-after-first-use')).toBe(`x ${REDACTED}`);
  });

  it('does not register secrets shorter than 6 characters', () => {
    const r = new Redactor();
    r.add('abc12');
    r.add('');
    r.add(null);
    expect(r.text('abc12 stays')).toBe('abc12 stays');
    r.add('abc123');
    expect(r.text('abc123 goes')).toBe(`${REDACTED} goes`);
  });

  it('scrubs JSON fields by name; `key` only when its string value is longer than 16', () => {
    const r = new Redactor();
    const out = r.json({
      password: 'hunter2hunter2',
      nested: [{ smtpPassword: 'a-smtp-secret', imapPassword: 'an-imap-secret', apiKey: 'x-api-key-value' }],
      secret: 's3cr3t-value',
      token: 'tok-value-1',
      key: 'short-key-name',
      other: { key: 'k_0123456789abcdef0' },
      password2: 'not-a-field-name-we-know',
      numeric: { password: 12345 },
      empty: { password: '' },
    }) as any;
    expect(out.password).toBe(REDACTED);
    expect(out.nested[0]).toEqual({ smtpPassword: REDACTED, imapPassword: REDACTED, apiKey: REDACTED });
    expect(out.secret).toBe(REDACTED);
    expect(out.token).toBe(REDACTED);
    expect(out.key).toBe('short-key-name');
    expect(out.other.key).toBe(REDACTED);
    expect(out.password2).toBe('not-a-field-name-we-know');
    expect(out.numeric.password).toBe(12345);
    expect(out.empty.password).toBe('');
    // values redacted by name become registered secrets: their echoes are caught too
    expect(r.text('login failed for hunter2hunter2')).toBe(`login failed for ${REDACTED}`);
  });

  it('body(): JSON text is scrubbed and stays JSON; untouched JSON is kept byte for byte; other text by replacement', () => {
    const r = new Redactor();
    r.add(KEY);
    const scrubbed = r.body('{ "name": "a",\n  "password": "hunter2hunter2" }', 'application/json');
    expect(JSON.parse(scrubbed)).toEqual({ name: 'a', password: REDACTED });
    const pretty = '{\n  "name": "a"\n}';
    expect(r.body(pretty, 'application/json')).toBe(pretty);
    expect(r.body(`{"msg":"bad key ${KEY}"}`)).toBe(`{"msg":"bad key ${REDACTED}"}`);
    // hunter2hunter2 was registered when the password field above was scrubbed
    expect(r.body(`plain text ${KEY} and hunter2hunter2 and hunter3`, 'text/plain')).toBe(`plain text ${REDACTED} and ${REDACTED} and hunter3`);
    expect(r.body('{not json', 'application/json')).toBe('{not json');
  });

  it('body(): JSON nested too deep to re-serialize is redacted by text replacement, never thrown on', () => {
    const deep = `{"password":"hunter2hunter2","x":${'['.repeat(20_000)}${']'.repeat(20_000)}}`;
    const out = new Redactor().body(deep, 'application/json');
    expect(out).not.toContain('hunter2hunter2');
    expect(out).toContain(REDACTED);
  });

  it('a secret holding a lone surrogate (hostile input) is redacted and breaks nothing else', () => {
    const r = new Redactor();
    r.body('{"password":"hunter2\ud800hunter2"}', 'application/json');
    expect(r.text('echo hunter2\ud800hunter2 and more')).toBe(`echo ${REDACTED} and more`);
  });

  it('url(): sensitive query parameters and registered secrets', () => {
    const r = new Redactor();
    r.add(KEY);
    expect(r.url(`http://h/v1/keys/${KEY}?token=abcdefgh&limit=5`)).toBe(`http://h/v1/keys/${REDACTED}?token=${encodeURIComponent(REDACTED)}&limit=5`);
    expect(r.text('abcdefgh')).toBe(REDACTED);
  });

  it('`state` is the OAuth state, but a status filter named state keeps its enum word (no "inactive" hidden)', () => {
    const r = new Redactor();
    expect(r.url('http://h/v1/campaigns?state=active&per_page=5')).toBe('http://h/v1/campaigns?state=active&per_page=5');
    expect(r.text('"status":"inactive"')).toBe('"status":"inactive"');
    const handle = 'st_9a8b7c6d5e4f3a2b1c0d';
    expect(r.url(`http://h/v1/accounts/oauth/google/status?state=${handle}`)).not.toContain(handle);
    expect(r.text(`opened ${handle}`)).toBe(`opened ${REDACTED}`);
  });
});

describe('toCurl', () => {
  it('quotes single quotes safely and writes methods, headers and body', () => {
    const line = toCurl({ method: 'POST', url: 'http://h/v1/x?a=1', headers: { 'content-type': 'application/json', 'idempotency-key': "k'1" }, body: `{"n":"it's"}` });
    expect(line).toBe(`curl -sS -g -i -X POST 'http://h/v1/x?a=1' -H 'content-type: application/json' -H 'idempotency-key: k'\\''1' --data-raw '{"n":"it'\\''s"}'`);
  });

  it('GET has no -X, HEAD uses -I, an empty header is sent with ";"', () => {
    expect(toCurl({ method: 'GET', url: 'http://h/', headers: { 'x-empty': '' } })).toBe(`curl -sS -g -i 'http://h/' -H 'x-empty;'`);
    expect(toCurl({ method: 'HEAD', url: 'http://h/', headers: {} })).toBe(`curl -sS -g -I 'http://h/'`);
  });

  it('an already-redacted Authorization becomes the $OUTREACH_API_KEY variable', () => {
    const line = toCurl({ method: 'GET', url: 'http://h/', headers: { authorization: 'Bearer [REDACTED]' } });
    expect(line).toBe(`curl -sS -g -i 'http://h/' -H 'authorization: Bearer '"$OUTREACH_API_KEY"`);
    expect(toCurl({ method: 'GET', url: 'http://h/', headers: { authorization: 'Bearer [REDACTED]' } }, { authEnvVar: 'T' })).toContain(`"$T"`);
  });

  it('with a redactor: env-var secrets become variables, other secrets [REDACTED]', () => {
    const r = new Redactor();
    r.add(KEY, 'OUTREACH_API_KEY');
    const line = toCurl(
      { method: 'POST', url: `http://h/v1/k/${KEY}`, headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ password: 'hunter2hunter2', k: KEY }) },
      { redactor: r },
    );
    expect(line).not.toContain(KEY);
    expect(line).not.toContain('hunter2');
    expect(line).toContain(`'http://h/v1/k/'"$OUTREACH_API_KEY"`);
    expect(line).toContain(`-H 'authorization: Bearer '"$OUTREACH_API_KEY"`);
    expect(line).toContain(`--data-raw '{"password":"[REDACTED]","k":"'"$OUTREACH_API_KEY"'"}'`);
    // an unregistered credential is never written
    expect(toCurl({ method: 'GET', url: 'http://h/', headers: { authorization: 'Bearer not-registered-1' } }, { redactor: r })).toContain(`'authorization: Bearer [REDACTED]'`);
  });
});

describe('Recorder', () => {
  it('numbers exchanges x000001.. , redacts, truncates and counts', () => {
    const events: RunEvent[] = [];
    const rec = new Recorder({ emit: (e) => events.push(e) }, new Redactor());
    rec.redactor.add(KEY, 'OUTREACH_API_KEY');
    const big = 'a'.repeat(MAX_BODY_BYTES + 10);
    const base = { startedAt: new Date(0), durationMs: 1.23456 };
    const e1 = rec.record({ ...base, checkId: 'C1', request: { method: 'GET', url: `http://h/${KEY}`, headers: { Authorization: `Bearer ${KEY}` } }, response: { status: 200, headers: { 'Content-Type': 'text/plain' }, body: big } });
    const e2 = rec.record({ ...base, kind: 'control', request: { method: 'GET', url: 'http://c/clock', headers: {} }, error: `boom ${KEY}` });
    expect([e1.id, e2.id]).toEqual(['x000001', 'x000002']);
    expect(events).toEqual([e1, e2]);
    expect(e1.checkId).toBe('C1');
    expect(e1.request.url).toBe(`http://h/${REDACTED}`);
    expect(e1.request.headers).toEqual({ authorization: 'Bearer [REDACTED]' });
    expect(e1.response!.headers).toEqual({ 'content-type': 'text/plain' });
    expect(e1.response!.body!.length).toBeLessThan(MAX_BODY_BYTES + 100);
    expect(e1.response!.body).toContain('[truncated: 65546 bytes in total');
    expect(e2.error).toBe(`boom ${REDACTED}`);
    expect(e2.response).toBeUndefined();
    expect(JSON.stringify(events)).not.toContain(KEY);
    expect(rec.stats).toEqual({ requests: 1, unplanned429: 0, controlRequests: 1 });
    expect(rec.requestsFor('C1')).toBe(1);
  });

  it('truncateBody keeps short bodies and cuts long ones at 64 KiB', () => {
    expect(truncateBody('hello')).toBe('hello');
    const s = 'é'.repeat(40_000); // 80 000 bytes
    const t = truncateBody(s);
    expect(Buffer.byteLength(t.split('\n...[truncated')[0]!)).toBeLessThanOrEqual(MAX_BODY_BYTES);
    expect(t).toContain('80000 bytes in total');
  });
});
