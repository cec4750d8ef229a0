// A failure as data: what kind of rule broke and the fields that say how, apart from the prose a
// person reads. Two checks that fail for one cause on different endpoints or resources carry the
// same kind and fields, so the report groups them by these (harness/report/failure-groups.ts)
// without reading the prose back; the message keeps the endpoint and ids for the person.
// The shaped assertions (suites/lib/expect.ts) throw these; a bare `fail(message)` has none.

export type FailureKind =
  /** the answer's HTTP status was not the one expected */
  | 'status'
  /** an error answer broke part 7's envelope */
  | 'envelope'
  /** an error answer carried another code than the one expected */
  | 'error-code'
  /** a body did not match the spec model's schema */
  | 'schema';

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
