import { z } from 'zod';

// ---------------------------------------------------------------------------------------------
// Primitives
// ---------------------------------------------------------------------------------------------

/**
 * Whether a field that may be absent (but whose nullability the spec does not state) may be
 * `null` in the MUST-level schemas. True: both readings of 2 pass the MUST schemas; the strict
 * one (omit, never null) is held at SHOULD level by `unstatedNulls()`.
 */
export const ABSENT_MAY_BE_NULL: boolean = true;

/** A field that may be omitted (and, if ABSENT_MAY_BE_NULL, be null); typed when present. */
export function absent<T extends z.ZodType>(schema: T) {
  return ABSENT_MAY_BE_NULL ? schema.nullable().optional() : schema.optional();
}

/** Any UUID (8-4-4-4-12 hex digits, any version or variant, either case). */
export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const uuid = z.string().regex(UUID_RE, { message: 'must be a UUID string' });

/**
 * ISO 8601 date-time: YYYY-MM-DDThh:mm:ss, optional fraction (milliseconds or more digits),
 * and `Z` or a numeric offset ±hh:mm. A real calendar date is required (no Feb 30).
 */
export const ISO_TIMESTAMP_RE =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(\.\d{1,9})?(Z|[+-](\d{2}):(\d{2}))$/;

export function isIsoTimestamp(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const m = ISO_TIMESTAMP_RE.exec(value);
  if (!m) return false;
  const [y, mo, d, h, mi, s] = [m[1], m[2], m[3], m[4], m[5], m[6]].map(Number) as number[];
  if (mo! < 1 || mo! > 12 || h! > 23 || mi! > 59 || s! > 59) return false;
  const day = new Date(Date.UTC(y!, mo! - 1, d!));
  if (day.getUTCMonth() !== mo! - 1 || day.getUTCDate() !== d!) return false;
  if (m[8] !== 'Z' && (Number(m[9]) > 23 || Number(m[10]) > 59)) return false;
  return !Number.isNaN(Date.parse(value));
}

export const isoTimestamp = z.string().refine(isIsoTimestamp, { message: 'must be an ISO 8601 timestamp' });

/** IANA time zone name ("Europe/Paris", "UTC"), known to the runtime's ICU data. */
export function isIanaTimezone(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  // Names only: an offset such as "+02:00" is not an IANA zone name.
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(value)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}
export const ianaTimezone = z.string().refine(isIanaTimezone, { message: 'must be an IANA time zone name' });

/** "#rgb", "#rrggbb" (and the alpha forms "#rgba", "#rrggbbaa"). */
export const HEX_COLOR_RE = /^#(?:[0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/i;
export const hexColor = z.string().regex(HEX_COLOR_RE, { message: 'must be a hex color' });

/** RFC 5322 msg-id: "<" id-left "@" id-right ">". */
export const MESSAGE_ID_RE = /^<[^<>\s@]+@[^<>\s@]+>$/;
export const messageId = z.string().regex(MESSAGE_ID_RE, { message: 'must be an RFC 5322 Message-ID (<left@right>)' });

// For the files of this folder only: index.ts does not export them.
export const int = () => z.number().int();
export const count = () => z.number().int().min(0);
