import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { DEFAULT_PROFILE_PATH, loadProfile, parseProfile, placeholders, resolveSecret } from './profile.ts';
import { profileForReport } from '../runner/profile-report.ts';
import { KitError } from './errors.ts';
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
  it('refuses a value observed.fields marks "not found" (a placeholder is not a declaration), naming each with its value; "declared" confirms one', async () => {
    // As written (no defaults filled in): `emails.list` gives no `fields` there.
    const reference = JSON.parse(await readFile(DEFAULT_PROFILE_PATH, 'utf8'));
    const init = {
      ...reference,
      embedded: false,
      baseUrl: 'http://127.0.0.1:1',
      control: { baseUrl: 'http://127.0.0.1:2', token: { env: 'OC_CONTROL' } },
      observed: {
        fields: {
          '/names/list/pageSize': 'observed',
          '/names/analytics/start': 'not found',
          '/names/mutate/operation': 'not found',
          '/operations/emails.list/fields': 'not found', // not in the file: nothing asserted
          '/control/token': 'not found',
        },
      },
    };
    const refusal = (() => {
      try {
        parseProfile(init, 'my.json');
      } catch (e) {
        return e as Error;
      }
    })();
    expect(refusal).toBeInstanceOf(KitError);
    const lines = refusal!.message.split('\n');
    expect(lines[0]).toMatch(/^profile my\.json holds values its own observed\.fields marks "not found"/);
    expect(lines.slice(1, -1)).toEqual(['  /names/analytics/start = "startDate"', '  /names/mutate/operation = "operation"', '  /control/token = (a secret, not shown)']);
    expect(lines.at(-1)).toMatch(/set it to your target's value and mark it "declared" in observed\.fields, or remove its entry/);
    expect(refusal!.message).not.toContain('OC_CONTROL');
    const confirmed = { ...init, observed: { fields: { ...init.observed.fields, '/names/analytics/start': 'declared', '/names/mutate/operation': 'declared', '/control/token': 'declared' } } };
    expect(parseProfile(confirmed).names.analytics.start).toBe('startDate');
    // A field marked "not found" that the file leaves out asserts nothing.
    expect(placeholders({ observed: { fields: { '/declarations/variantIdPath': 'not found' } } })).toEqual([]);
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
