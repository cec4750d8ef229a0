import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile, profileForReport, resolveSecret } from './profile.ts';
import { KitError } from '../ground/errors.ts';
import { REDACTED, Redactor } from '../client/redact.ts';

describe('profile loading', () => {
  it('the shipped reference profile is valid', async () => {
    const p = await loadProfile(DEFAULT_PROFILE_PATH);
    expect(p.embedded).toBe(true);
    expect(p.rateLimit).toEqual({ requests: 120, windowSeconds: 60 });
  });
  it('a bad field is named in the error', () => {
    expect(() => parseProfile({ name: 'x', baseUrl: 'not a url', names: {} })).toThrow(/baseUrl/);
    try {
      parseProfile({ name: 'x', baseUrl: 'http://127.0.0.1:1', workspaces: [{ apiKey: 'a' }, { apiKey: 'b' }], names: { list: { cursor: 'c' } } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(KitError);
      expect((e as Error).message).toMatch(/names\.list\.pageSize/);
      expect((e as Error).message).toMatch(/names\.leadsSearchParam/);
    }
  });
  it('a target without a control API needs two workspaces', () => {
    const names = { list: { cursor: 'c', pageSize: 'l', status: 's', tags: 't' }, leadsSearchParam: 'q', analytics: { start: 'a', end: 'b', excludeOutOfOffice: 'o' }, mutate: { operation: 'op', status: 'st' } };
    expect(() => parseProfile({ name: 'x', baseUrl: 'http://127.0.0.1:1', workspaces: [{ apiKey: 'a' }], names })).toThrow(/workspaces: give at least two/);
    expect(parseProfile({ name: 'x', baseUrl: 'http://127.0.0.1:1', workspaces: [{ apiKey: 'a' }, { apiKey: { env: 'B' } }], names }).workspaces).toHaveLength(2);
  });
  it('secrets come from the environment with a clear error when missing', () => {
    expect(resolveSecret({ env: 'K' }, 'workspaces.0.apiKey', { K: 'sekret' })).toBe('sekret');
    expect(() => resolveSecret({ env: 'NOPE_X' }, 'workspaces.0.apiKey', {})).toThrow(/workspaces\.0\.apiKey reads environment variable NOPE_X/);
  });

  it('reports keep field names and hide every secret value', async () => {
    const reference = await loadProfile(DEFAULT_PROFILE_PATH);
    const profile = parseProfile({
      ...reference,
      embedded: false,
      baseUrl: 'http://127.0.0.1:1',
      workspaces: [{ apiKey: 'ock_inline_key_aaaaaaaaaaaaaaaa', apiKeyId: 'k1' }, { apiKey: { env: 'OC_KEY_B' } }],
      control: { baseUrl: 'http://127.0.0.1:2', token: 'control-token-zzzzzzzz' },
      name: 'staging ock_inline_key_aaaaaaaaaaaaaaaa',
    });
    const redactor = new Redactor();
    const shown = profileForReport(profile, redactor, { OC_KEY_B: 'env-key-bbbbbbbbbbbb' }) as any;
    const text = JSON.stringify(shown);
    // Paths and names stay: `secret` here names the response field holding the key.
    expect(shown.operations['apikeys.create'].result.secret).toBe('key');
    expect(shown.operations['apikeys.create'].result.id).toBe('id');
    expect(shown.workspaces[0]).toEqual({ apiKey: REDACTED, apiKeyId: 'k1' });
    expect(shown.workspaces[1].apiKey).toEqual({ env: 'OC_KEY_B' });
    expect(shown.control).toEqual({ baseUrl: 'http://127.0.0.1:2', token: REDACTED });
    for (const secret of ['ock_inline_key_aaaaaaaaaaaaaaaa', 'control-token-zzzzzzzz']) expect(text).not.toContain(secret);
    // Registered, so an echo anywhere later in the run is caught too.
    expect(redactor.text('x env-key-bbbbbbbbbbbb control-token-zzzzzzzz')).toBe(`x ${REDACTED} ${REDACTED}`);
  });
});
