import type { Clause } from './types.ts';

// Part 4.7, the Lead Finder rows (GET /v1/lead-searches, GET /v1/lead-searches/{id}). Ids: LF-.
const M = (id: string, text: string): Clause => ({ id, section: '4.7', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.7', text, level: 'SHOULD' });
const P = (id: string, text: string): Clause => ({ id, section: '4.7', text, level: 'PROFILE' });

export const CLAUSES_PART4_LEADFINDER: readonly Clause[] = [
  M('LF-LIST-SCOPE', 'GET /v1/lead-searches requires scope leadfinder:read.'),
  M('LF-LIST-ANSWER', 'GET /v1/lead-searches answers `{ data: [search list item], meta }`.'),
  M('LF-LIST-CURSOR', 'GET /v1/lead-searches query: cursor.'),
  M('LF-LIST-PAGESIZE', 'GET /v1/lead-searches query: page size 1 to 100 (example 50).'),
  P('LF-LIST-PARAMS-PROFILE', 'GET /v1/lead-searches query: cursor and page size; their names, like those of the other lists (4.3), are not shown (profile).'),
  M('LF-LIST-NO-DRAFTS', 'GET /v1/lead-searches: in-progress chat drafts are not listed.'),
  M('LF-LIST-WORKSPACE', 'The key identifies the workspace (part 5): only the caller\'s workspace\'s searches are listed.'),
  M('LF-GET-SCOPE', 'GET /v1/lead-searches/{id} requires scope leadfinder:read.'),
  M('LF-GET-ANSWER', 'GET /v1/lead-searches/{id} answers the lead search with progress counters.'),
  M('LF-GET-OTHER-WORKSPACE-404', 'A search id of another workspace is a resource absent from the caller\'s workspace (parts 5 and 7): 404.'),
];
