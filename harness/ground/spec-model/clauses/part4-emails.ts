import type { Clause } from './types.ts';

// Part 4.5 "Emails". Ids: EMAIL-.
const M = (id: string, text: string): Clause => ({ id, section: '4.5', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.5', text, level: 'SHOULD' });

export const CLAUSES_PART4_EMAILS: readonly Clause[] = [
  M('EMAIL-GET-SCOPE', 'GET /v1/emails/{id} requires scope emails:read.'),
  M('EMAIL-GET-ANSWER', 'GET /v1/emails/{id} answers the email with `body`.'),
  M('EMAIL-GET-ONLY-BODY', 'GET /v1/emails/{id} is the only endpoint returning a body (no other answer carries `body`).'),
  M('EMAIL-GET-503-UNREADABLE', 'GET /v1/emails/{id}: 503 if the stored body cannot be read now.'),
  M('EMAIL-GET-200-REAL-CONTENT', 'GET /v1/emails/{id}: a 200 always carries real content (the stored body, never a placeholder).'),
  M('EMAIL-GET-413', 'GET /v1/emails/{id}: 413 `body_too_large` when the message is too large to return inline.'),
  S('EMAIL-GET-BODY-MATCHES', 'Reading: `body.text`/`body.html` hold the text and HTML parts of the message as received or sent.'),
  M('EMAIL-DELETE-SCOPE', 'DELETE /v1/emails/{id} requires scope emails:write.'),
  M('EMAIL-DELETE-ANSWER', 'DELETE /v1/emails/{id} answers `{ id, deleted: true }`.'),
  M('EMAIL-DELETE-HIDDEN', 'DELETE /v1/emails/{id}: the email stops appearing in listings.'),
  M('EMAIL-DELETE-SERVER-UNTOUCHED', 'DELETE /v1/emails/{id}: the copy on the mail server is untouched.'),
  S('EMAIL-DELETE-GET-404', 'Reading: after the delete, GET /v1/emails/{id} answers 404.'),
  S('EMAIL-OTHER-WORKSPACE-404', 'Reading: an email id of another workspace answers 404 on both email endpoints.'),
];
