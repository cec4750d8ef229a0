import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';

// Which spec text the model (clauses, schemas, endpoints) was written from. A constant of the
// model, not a file read at run time: the kit reports the same identity from any clone.

export const SPEC_IDENTITY = {
  title: 'Outreach Email Service API Specification',
  version: '1',
  /** sha256 of the spec text (outreach-api-v1.md) the clause catalog was written from. */
  sha256: '0e85c05c606ec803312e549c990217c7d19c1f08a1efc881ca606b53d7e83215',
} as const;

/** A spec file given by the user (`run --spec FILE`), compared with the model's spec. */
export interface SpecFileComparison {
  path: string;
  sha256: string;
  matches: boolean;
}

export function sha256Of(text: string | Buffer): string {
  return createHash('sha256').update(text).digest('hex');
}

export async function compareSpecFile(path: string): Promise<SpecFileComparison> {
  const sha256 = sha256Of(await readFile(path));
  return { path, sha256, matches: sha256 === SPEC_IDENTITY.sha256 };
}

export function describeComparison(c: SpecFileComparison): string {
  return c.matches
    ? `spec ${c.path} matches the spec this kit was written from (sha256 ${c.sha256.slice(0, 12)})`
    : `spec ${c.path} DIFFERS from the spec this kit was written from (sha256 ${c.sha256.slice(0, 12)}, kit ${SPEC_IDENTITY.sha256.slice(0, 12)}): checks follow the kit's version`;
}
