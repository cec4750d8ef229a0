import { describe, expect, it } from 'vitest';
import { DEFAULT_PROFILE_PATH, KitError, loadProfile, parseProfile, resolveSecret } from './profile.ts';

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
});
