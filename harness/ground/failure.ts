// A failure as data: what kind of rule broke and the fields that say how, apart from the prose a
// person reads. Two checks that fail for one cause on different endpoints or resources carry the
// same kind and fields, so the report groups them by these (harness/report/failure-groups.ts)
// without reading the prose back; the message keeps the endpoint and ids for the person.
// The shaped assertions (suites/lib/expect.ts) throw these, and so does any assertion whose
// message is written as a rule (msg`...`): its template, the values left out, is its cause.
// A message built any other way has none, and the report falls back to reading its prose.

export type FailureKind =
  /** the answer's HTTP status was not the one expected */
  | 'status'
  /** an error answer broke part 7's envelope */
  | 'envelope'
  /** an error answer carried another code than the one expected */
  | 'error-code'
  /** a body did not match the spec model's schema */
  | 'schema'
  /** a value the check read broke the rule its message states (fields.rule: the message's template) */
  | 'value';

export type FailureFields = Readonly<Record<string, string | number | readonly string[]>>;

export interface TypedFailure {
  kind: FailureKind;
  /** What makes two instances one cause: never an endpoint, id, seed or time. */
  fields: FailureFields;
}

/** A schema issue's path with its array positions as `*`: `data.3.id` and `data.0.id` are one cause. */
export const issuePath = (path: readonly PropertyKey[]): string => path.map((p) => (typeof p === 'number' ? '*' : String(p))).join('.') || '(body)';

/** The grouping key of a typed failure: its kind and fields, in a stable order. */
export function failureKey(f: TypedFailure): string {
  return JSON.stringify([f.kind, Object.entries(f.fields).sort(([a], [b]) => a.localeCompare(b))]);
}

/** An assertion's message written as a rule: the text a person reads, and the rule it states with the values left out. */
export interface RuleText {
  readonly text: string;
  /** The template: the literal parts joined by `…`, so instances with other values are one cause. */
  readonly rule: string;
}

/** Tags a message template as a rule: msg`${what}: the status must be ${want}, got ${got}`. */
export function msg(strings: TemplateStringsArray, ...values: unknown[]): RuleText {
  let text = strings[0]!;
  for (let i = 0; i < values.length; i++) text += String(values[i]) + strings[i + 1]!;
  return { text, rule: strings.join('…') };
}

export const isRuleText = (m: unknown): m is RuleText => typeof m === 'object' && m !== null && typeof (m as RuleText).rule === 'string' && typeof (m as RuleText).text === 'string';

/** A failure's message as text, and its typed cause where it was written as a rule. */
export function messageOf(m: string | RuleText): { text: string; typed?: TypedFailure } {
  return typeof m === 'string' ? { text: m } : { text: m.text, typed: { kind: 'value', fields: { rule: m.rule } } };
}
