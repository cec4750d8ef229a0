import { describe, expect, it } from 'vitest';
import { acceptedCredentials, ALL_SCOPES, covers, GRANULAR_SCOPES, isSubset, READ_SCOPES, SCOPE_GROUPS, type Scope } from './scopes.ts';
import { acceptedBy, endpoint, ENDPOINTS } from './endpoints.ts';

describe('covers (spec part 5)', () => {
  it('a granular scope covers itself and nothing else', () => {
    for (const held of GRANULAR_SCOPES)
      for (const req of GRANULAR_SCOPES) expect(covers([held], req), `${held} -> ${req}`).toBe(held === req);
  });
  it('domain wildcards cover every action of their domain only', () => {
    expect(covers(['campaigns:all'], 'campaigns:lifecycle')).toBe(true);
    expect(covers(['campaigns:all'], 'campaigns:read')).toBe(true);
    expect(covers(['campaigns:all'], 'leads:write')).toBe(false);
    expect(covers(['emails:all'], 'emails:send')).toBe(true);
    expect(covers(['accounts:all'], 'metrics:read')).toBe(false);
  });
  it('all:read covers every read scope, never write, send or lifecycle', () => {
    for (const req of GRANULAR_SCOPES) expect(covers(['all:read'], req), req).toBe(READ_SCOPES.includes(req));
    expect(READ_SCOPES).toEqual(['campaigns:read', 'leads:read', 'emails:read', 'accounts:read', 'metrics:read', 'leadfinder:read', 'usage:read']);
  });
  it('all:all covers everything except apikeys:manage', () => {
    for (const req of GRANULAR_SCOPES) expect(covers(['all:all'], req), req).toBe(req !== 'apikeys:manage');
  });
  it('no wildcard covers apikeys:manage', () => {
    for (const held of ALL_SCOPES) if (held !== 'apikeys:manage') expect(covers([held], 'apikeys:manage'), held).toBe(false);
  });
  it('the subset rule follows coverage', () => {
    expect(isSubset(['campaigns:read'], ['all:all'])).toBe(true);
    expect(isSubset(['campaigns:all'], ['all:all'])).toBe(true);
    expect(isSubset(['all:read'], ['all:all'])).toBe(true);
    expect(isSubset(['all:all'], ['all:read'])).toBe(false);
    expect(isSubset(['campaigns:all'], ['campaigns:read', 'campaigns:write'])).toBe(false);
    expect(isSubset(['campaigns:all'], ['campaigns:read', 'campaigns:write', 'campaigns:lifecycle'])).toBe(true);
    expect(isSubset(['apikeys:manage'], ['all:all'])).toBe(false);
  });
});

describe('accepted credentials per endpoint (part 5, "Scopes accepted per endpoint group")', () => {
  const sorted = (xs: readonly string[]) => [...xs].sort();
  it('each group row reads as the spec writes it', () => {
    expect(sorted(acceptedCredentials('accounts:write', 'mailbox-write'))).toEqual(sorted(['accounts:write', 'accounts:all', 'all:all']));
    // "mailbox reads add accounts:read and all:read": the write credentials read mailboxes too.
    expect(sorted(acceptedCredentials('accounts:read', 'mailbox-read'))).toEqual(sorted(['accounts:write', 'accounts:all', 'all:all', 'accounts:read', 'all:read']));
    expect(sorted(acceptedCredentials('campaigns:write', 'campaign-write'))).toEqual(sorted(['campaigns:write', 'campaigns:all', 'all:all']));
    expect(sorted(acceptedCredentials('campaigns:lifecycle', 'lifecycle'))).toEqual(sorted(['campaigns:lifecycle', 'campaigns:all', 'all:all']));
    expect(sorted(acceptedCredentials('emails:write', 'email-delete'))).toEqual(sorted(['emails:write', 'emails:all', 'all:all']));
    expect(sorted(acceptedCredentials('leads:read', 'reads'))).toEqual(sorted(['leads:read', 'leads:all', 'all:read', 'all:all']));
    // A domain without a wildcard: the read scope, all:read, all:all.
    expect(sorted(acceptedCredentials('metrics:read', 'reads'))).toEqual(sorted(['metrics:read', 'all:read', 'all:all']));
  });
  it('the mailbox reads accept accounts:write; no other read accepts a write scope', () => {
    for (const id of ['accounts.verification', 'accounts.list', 'accounts.get', 'accounts.oauthStatus']) {
      expect(endpoint(id).group, id).toBe('mailbox-read');
      expect(acceptedBy(endpoint(id)), id).toContain('accounts:write');
      expect(acceptedBy(endpoint(id)), id).toContain('accounts:read');
    }
    for (const e of ENDPOINTS.filter((x) => x.group === 'reads'))
      expect(acceptedBy(e).filter((c) => !c.endsWith(':read') && !c.endsWith(':all')), e.id).toEqual([]);
  });
  it('every other group agrees with the wildcard rules; an endpoint outside the groups follows them', () => {
    for (const e of ENDPOINTS) {
      const byRules = ALL_SCOPES.filter((c) => covers([c], e.scope));
      const extra: Scope[] = e.group === 'mailbox-read' ? ['accounts:write'] : [];
      expect(sorted(acceptedBy(e)), e.id).toEqual(sorted([...byRules, ...extra]));
    }
  });
  it('each endpoint of a group requires a scope its group accepts, and every group has endpoints', () => {
    for (const e of ENDPOINTS) if (e.group) expect(acceptedBy(e), e.id).toContain(e.scope);
    for (const g of Object.keys(SCOPE_GROUPS)) expect(ENDPOINTS.some((e) => e.group === g), g).toBe(true);
  });
  it('GET endpoints of reads or mailbox reads; writes and lifecycle are not reads', () => {
    for (const e of ENDPOINTS.filter((x) => x.group === 'reads' || x.group === 'mailbox-read')) expect(e.method, e.id).toBe('GET');
    for (const e of ENDPOINTS.filter((x) => x.group && x.group !== 'reads' && x.group !== 'mailbox-read')) expect(e.method, e.id).not.toBe('GET');
    for (const e of ENDPOINTS.filter((x) => x.method === 'GET' && x.scope !== 'apikeys:manage')) expect(e.group, e.id).toMatch(/reads|mailbox-read/);
  });
});
