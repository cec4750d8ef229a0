import { z } from 'zod';
import type { ApiResponse } from '../../harness/ground/api-client.ts';
import type { Profile } from '../../harness/ground/profile-schema.ts';
import { errorEnvelopeFor, listOf, schemaByName } from '../../harness/ground/spec-model/schemas/index.ts';
import { getPath } from '../../harness/ground/operations.ts';
import { fail, failTyped } from '../../harness/ground/check.ts';
import { issuePath, type RuleText } from '../../harness/ground/failure.ts';
export { msg } from '../../harness/ground/failure.ts';

// Assertions a check makes about one response. Each failure names what was expected, what came,
// and points at the exchange (the report shows it with a curl line); the shaped ones also throw
// their kind and fields as data (harness/ground/failure.ts), which the report groups by.

export function is2xx(res: ApiResponse): boolean {
  return res.status >= 200 && res.status < 300;
}

export function expectStatus(res: ApiResponse, expected: number | '2xx', what: string): void {
  const ok = expected === '2xx' ? is2xx(res) : res.status === expected;
  if (!ok) failTyped({ kind: 'status', fields: { expected, got: res.status } }, `${what}: expected HTTP ${expected}, got ${res.status} ${snippet(res)}`, res);
}

export function expect2xx(res: ApiResponse, what: string): void {
  expectStatus(res, '2xx', what);
}

/**
 * Problems of an error answer against part 7 (envelope, status repeated, table type/code). The
 * code of a 400 business-rule refusal is not shown: without the profile's businessRuleErrorCode a
 * 400's code is not held here (a check expecting validation_failed names it to expectError).
 */
export function envelopeProblems(res: ApiResponse, profile: Profile): string[] {
  // Read only for a 400, the one status it bears on: a failure message names the profile values read.
  const business = res.status === 400 ? profile.names.businessRuleErrorCode : undefined;
  const extra = business ? [business] : 'any';
  if (res.body === undefined) return [`body is not JSON (${res.headers['content-type'] ?? 'no content-type'}): ${res.text.slice(0, 120)}`];
  const parsed = errorEnvelopeFor(res.status, { extra400Codes: extra }).safeParse(res.body);
  return parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
}

/** A problem without the body text it quotes: the cause two answers share. */
export const problemCause = (p: string) => p.replace(/^(body is not JSON \([^)]*\)):.*$/s, '$1');

/** The answer is an error of this HTTP status, in the envelope, with the table's type and code. */
export function expectError(res: ApiResponse, status: number, profile: Profile, what: string, code?: string): void {
  expectStatus(res, status, what);
  const problems = envelopeProblems(res, profile);
  if (problems.length) failTyped({ kind: 'envelope', fields: { status, problems: problems.map(problemCause) } }, `${what}: the ${status} answer breaks the error envelope: ${problems.join('; ')}`, res);
  if (code && res.body.error.code !== code) failTyped({ kind: 'error-code', fields: { status, expected: code, got: String(res.body.error.code) } }, `${what}: expected error code ${code}, got ${res.body.error.code}`, res);
}

/** The body matches the spec model's schema (by name or given). */
export function expectSchema(res: ApiResponse, schema: string | z.ZodType, what: string): void {
  const s = typeof schema === 'string' ? schemaByName(schema) : schema;
  const parsed = s.safeParse(res.body);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 6).map((i) => `${i.path.join('.') || '(body)'}: ${i.message}`);
    const causes = [...new Set(parsed.error.issues.map((i) => `${issuePath(i.path)}: ${i.message}`))].sort();
    failTyped({ kind: 'schema', fields: { schema: typeof schema === 'string' ? schema : '(given)', issues: causes } }, `${what}: the body does not match the spec's shape: ${issues.join('; ')}`, res);
  }
}

/**
 * The answer is a page of 4.1: its items (at the path the profile names for a referenced list) an
 * array, and meta { hasMore, nextCursor } beside them. Items are not read: a referenced list's item shape is the profile's.
 */
export function expectPage(res: ApiResponse, itemsPath: string, what: string): void {
  expectSchema({ ...res, body: { data: getPath(res.body, itemsPath), meta: res.body?.meta } }, listOf(z.looseObject({})), `${what} (a page of 4.1)`);
}

/** The condition holds, else the check fails with the message (written as msg`...`, its cause is data). */
export function expectThat(condition: unknown, message: string | RuleText, ...evidence: (ApiResponse | undefined)[]): asserts condition {
  if (!condition) fail(message, ...evidence);
}

export function snippet(res: ApiResponse): string {
  const t = res.text.replace(/\s+/g, ' ').trim();
  return t ? `(${t.length > 160 ? `${t.slice(0, 160)}...` : t})` : '(empty body)';
}
