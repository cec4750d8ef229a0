import { describe, expect, it } from 'vitest';
import { ALL_SCOPES, covers, GRANULAR_SCOPES, isSubset, READ_SCOPES } from './scopes.ts';

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
