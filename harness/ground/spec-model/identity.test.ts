import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SPEC_IDENTITY, compareSpecFile, describeComparison, sha256Of } from './identity.ts';

// The spec beside the project (absent in a plain clone of the kit: then skipped).
const SHARED_SPEC = resolve(dirname(fileURLToPath(import.meta.url)), '../../../../shared/spec/outreach-api-v1.md');

describe('spec identity', () => {
  it('is a sha256 and a version', () => {
    expect(SPEC_IDENTITY.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(SPEC_IDENTITY.version).toBe('1');
  });

  it.skipIf(!existsSync(SHARED_SPEC))('matches the spec text the catalog was written from', () => {
    expect(sha256Of(readFileSync(SHARED_SPEC))).toBe(SPEC_IDENTITY.sha256);
  });

  it('compares a given file and says whether it matches', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oc-spec-'));
    const other = join(dir, 'other.md');
    await writeFile(other, '# another spec\n');
    const c = await compareSpecFile(other);
    expect(c).toMatchObject({ path: other, matches: false, sha256: sha256Of('# another spec\n') });
    expect(describeComparison(c)).toMatch(/DIFFERS/);
    if (existsSync(SHARED_SPEC)) expect((await compareSpecFile(SHARED_SPEC)).matches).toBe(true);
  });
});
