// A failure as data: what kind of rule broke and the fields that say how, apart from the prose a
// person reads. Two checks that fail for one cause on different endpoints or resources carry the
// same kind and fields, so the report groups them by these (harness/report/failure-groups.ts)
// without reading the prose back; the message keeps the endpoint and ids for the person.
// The shaped assertions (suites/lib/expect.ts) throw these, and so does any assertion whose
// message is written as a rule (msg`...`): its template, the values left out, is its cause.
// What ends a check without a verdict has one too: a request the target never answered
// (`transport`, thrown by the client), a control API that refused (`control`), and the kit's own
// error (`kit`, the runner's reading of any other throw). A message built any other way has
// none, and the report groups it by its text alone.

export type FailureKind =
  /** the answer's HTTP status was not the one expected (fields.during: `setup` where it was a check's setup) */
  | 'status'
  /** an error answer broke part 7's envelope */
  | 'envelope'
  /** an error answer carried another code than the one expected */
  | 'error-code'
  /** a body did not match the spec model's schema */
  | 'schema'
  /** a value the check read broke the rule its message states (fields.rule: the message's template) */
  | 'value'
  /** a request got no answer (fields.failure: `timeout` or the socket's error code) */
  | 'transport'
  /** the conformance-control API refused a call (fields.status, fields.call: the method and the path's first segment) */
  | 'control'
  /** the kit itself threw (fields.name, fields.message: the error as thrown) */
  | 'kit';

export type FailureFields = Readonly<Record<string, string | number | readonly string[]>>;

export interface TypedFailure {
  kind: FailureKind;
  /** What makes two instances one cause: never an endpoint, id, seed or time. */
  fields: FailureFields;
  /**
   * The findings it names that failures of other clauses may name too (an envelope problem, a
   * schema issue), where `fields` does not hold them: an assertion over many answers keeps them
   * here. Not part of its key; the report joins failures that share one into a root cause.
   */
  details?: readonly string[];
}

/** A schema issue's path with its array positions as `*`: `data.3.id` and `data.0.id` are one cause. */
export const issuePath = (path: readonly PropertyKey[]): string => path.map((p) => (typeof p === 'number' ? '*' : String(p))).join('.') || '(body)';

/** The cause of a throw that is not a check's verdict: its own where it carries one (`typed`), else the kit's error as thrown. */
export function errorCause(e: unknown): TypedFailure {
  const own = (e as { typed?: unknown } | undefined)?.typed;
  if (isTypedFailure(own)) return own;
  return e instanceof Error ? { kind: 'kit', fields: { name: e.name, message: e.message } } : { kind: 'kit', fields: { name: 'thrown', message: String(e) } };
}

const isTypedFailure = (t: unknown): t is TypedFailure => typeof t === 'object' && t !== null && typeof (t as TypedFailure).kind === 'string' && typeof (t as TypedFailure).fields === 'object';

/** The grouping key of a typed failure: its kind and fields, in a stable order. */
export function failureKey(f: TypedFailure): string {
  return JSON.stringify([f.kind, Object.entries(f.fields).sort(([a], [b]) => a.localeCompare(b))]);
}

/** An assertion's message written as a rule: the text a person reads, and the rule it states with the values left out. */
export interface RuleText {
  readonly text: string;
  /** The template: the literal parts joined by `…`, so instances with other values are one cause. */
  readonly rule: string;
  /** The findings its values name (TypedFailure.details). */
  readonly details?: readonly string[];
}

/** Tags a message template as a rule: msg`${what}: the status must be ${want}, got ${got}`. */
export function msg(strings: TemplateStringsArray, ...values: unknown[]): RuleText {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += String(values[i]) + strings[i + 1]!;
  return { text, rule: strings.join('…') };
}

/** A rule that names findings other failures may share: msg`...` with its TypedFailure.details. */
export const naming = (rule: RuleText, details: readonly string[]): RuleText => ({ ...rule, details: [...new Set(details)].sort() });

/**
 * Rules reported together ("a | b"): the text joins their texts (then `more`, what was left out),
 * the rule their rules, so the set of rules broken is the cause.
 */
export const joinRules = (rules: readonly RuleText[], more = ''): RuleText => ({ text: rules.map((r) => r.text).join(' | ') + more, rule: rules.map((r) => r.rule).join(' | ') });

export const isRuleText = (m: unknown): m is RuleText => typeof m === 'object' && m !== null && typeof (m as RuleText).rule === 'string' && typeof (m as RuleText).text === 'string';

/** A failure's message as text, and its typed cause where it was written as a rule. */
export function messageOf(m: string | RuleText): { text: string; typed?: TypedFailure } {
  return typeof m === 'string' ? { text: m } : { text: m.text, typed: { kind: 'value', fields: { rule: m.rule }, ...(m.details?.length ? { details: m.details } : {}) } };
}
