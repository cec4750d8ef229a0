import type { Clause } from './types.ts';

// Part 4.1: conventions (JSON, bearer, Idempotency-Key, cursor pagination).
export const CLAUSES_PART4_CONVENTIONS: readonly Clause[] = [
  { id: 'CONV-JSON-BODIES', section: '4.1', level: 'MUST', text: 'Request and response bodies are JSON.' },
  { id: 'CONV-SUCCESS-STATUS', section: '4.1', level: 'PROFILE', text: 'Success status codes other than 201 for POST /v1/accounts: not shown.' },
  { id: 'CONV-WILDCARD-ACCEPTED', section: '4.1', level: 'MUST', text: 'Scope requirements are listed per endpoint; any wildcard covering the granular scope is also accepted (part 5).' },
  { id: 'IDEM-MAX-255', section: '4.1', level: 'MUST', text: 'Optional header Idempotency-Key (string, max 255 chars) on state-changing endpoints.' },
  { id: 'IDEM-OVERLONG-400', section: '4.1', level: 'SHOULD', text: 'An Idempotency-Key over 255 characters is an invalid parameter: 400 validation_failed (part 7: "body or parameters invalid").' },
  { id: 'IDEM-REPLAY', section: '4.1', level: 'MUST', text: 'A retry with the same Idempotency-Key replays the original response.' },
  { id: 'IDEM-REPLAY-NO-EFFECT', section: '4.1', level: 'MUST', text: 'A replayed request does not take effect again (the original response is replayed, nothing new is created).' },
  { id: 'IDEM-REUSED-422', section: '4.1', level: 'MUST', text: 'The same Idempotency-Key with a different body gives 422 idempotency_key_reused.' },
  { id: 'IDEM-INFLIGHT-409', section: '4.1', level: 'MUST', text: 'The same Idempotency-Key while the first request is still processing gives 409 conflict.' },
  { id: 'IDEM-CONCURRENT-ONE-EFFECT', section: '4.1', level: 'MUST', text: 'Concurrent requests with one Idempotency-Key take effect once: the others get a replay of the original response or 409 conflict.' },
  { id: 'IDEM-WORKSPACE-SCOPED', section: '4.1', level: 'MUST', text: 'A retry replays the original response to its own caller: the same Idempotency-Key sent from another workspace is a request of that workspace (the key identifies the workspace, part 5), never a replay of another workspace\'s response.' },
  { id: 'IDEM-KEY-ROTATION-SHARED', section: '4.1', level: 'SHOULD', text: 'The Idempotency-Key space is the workspace\'s (the API key identifies the workspace and keys rotate, part 5): a retry sent with another key of the same workspace replays the original response.' },
  { id: 'PAGE-SHAPE', section: '4.1', level: 'MUST', text: 'List endpoints use cursor pagination and return { data: [...], meta: { hasMore: boolean, nextCursor: string } }.' },
  { id: 'PAGE-NEWEST-FIRST', section: '4.1', level: 'MUST', text: 'List endpoints return items newest first.' },
  { id: 'PAGE-STABLE', section: '4.1', level: 'MUST', text: 'List endpoints are stable under concurrent changes: a walk returns each item that exists throughout it exactly once.' },
  { id: 'PAGE-CURSOR-FROM-META', section: '4.1', level: 'MUST', text: 'The next-page cursor is opaque and is taken from meta.nextCursor; omit it for the first page.' },
  { id: 'PAGE-HASMORE-CONSISTENT', section: '4.1', level: 'MUST', text: 'meta.hasMore tells whether another page exists; when true, meta.nextCursor leads to it; a walk ends with hasMore false.' },
  { id: 'PAGE-CURSOR-GARBAGE', section: '4.1', level: 'SHOULD', text: 'A cursor that was never issued (garbage) is an invalid parameter: 400 validation_failed, never a silent first page.' },
  { id: 'PAGE-PARAM-NAMES', section: '4.3', level: 'PROFILE', text: 'Names of the list query parameters for the cursor, the page size and the status filter: not shown.' },
];
