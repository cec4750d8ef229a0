import type { Clause } from './types.ts';

// Part 9: versioning.
export const CLAUSES_PART9: readonly Clause[] = [
  { id: 'VER-V1-PREFIX', section: '9', level: 'MUST', text: 'All paths carry the prefix /v1.' },
  { id: 'VER-UNKNOWN-404', section: '9', level: 'SHOULD', text: 'A path outside the interface (another version such as /v2, or an unknown path under /v1) is a resource absent: 404 not_found in the error envelope.' },
];
