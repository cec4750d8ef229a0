// zod schemas of every resource, input and response of parts 2, 4 and 7 of the spec
// (the Outreach Email Service API v1 spec), written from the spec text: one file per resource
// (its part-2 section with the part-4 bodies and answers of its endpoints), the shared
// primitives and envelopes, and this entry, the one module the kit imports.
//
// House rules of these files:
// - Response objects never reject extra fields (z.looseObject): the spec does not forbid them.
//   Every stated field's type, enum and nullability is enforced.
// - Input schemas (bodies a check sends) use z.object: they describe a valid request.
// - Where the spec says "not shown" (element shapes, bounds, defaults, value sets) the schema is
//   permissive (z.unknown() / z.string()) and a comment says so; it never invents a constraint.
// - Where the spec states "or null" the field is required and nullable. A field whose value can
//   legitimately be absent but whose nullability the spec does not state (e.g. a lead's
//   `lastContactedAt` before any contact) is `absent()`: omitted or null, typed when present.
//   The strict reading of 2 ("`null` is used for an absent optional value where stated": no
//   null elsewhere) is a SHOULD (clause RES-NULL-ONLY-WHERE-STATED), checked with
//   `unstatedNulls()` (nulls.ts), so a null there warns instead of failing a MUST.

// Named, not `export *`: int() and count() stay inside the folder.
export {
  ABSENT_MAY_BE_NULL, absent, UUID_RE, uuid, ISO_TIMESTAMP_RE, isIsoTimestamp, isoTimestamp, isIanaTimezone,
  ianaTimezone, HEX_COLOR_RE, hexColor, MESSAGE_ID_RE, messageId,
} from './primitives.ts';
export * from './envelopes.ts';
export * from './accounts.ts';
export * from './campaigns.ts';
export * from './leads.ts';
export * from './emails.ts';
export * from './lead-searches.ts';
export * from './workspace.ts';
export * from './analytics.ts';
export * from './nulls.ts';
export * from './by-name.ts';
