import { describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { failureSites } from './failure-sites.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

describe('typed failures', () => {
  const sites = failureSites(ROOT);

  it('finds the assertion sites of the checks', () => {
    expect(sites.length).toBeGreaterThan(500);
    expect(sites.some((s) => s.call === 'expectThat' && s.typed)).toBe(true);
  });

  // The report groups a typed failure by its cause as data; prose is read back only for the rest.
  it('at least 90 % of assertion sites throw a typed failure; the rest are listed', () => {
    const untyped = sites.filter((s) => !s.typed);
    const share = 1 - untyped.length / sites.length;
    expect(share, `${untyped.length} of ${sites.length} sites untyped:\n${untyped.map((s) => `${s.file}:${s.line} ${s.call}`).join('\n')}`).toBeGreaterThanOrEqual(0.9);
  });
});
