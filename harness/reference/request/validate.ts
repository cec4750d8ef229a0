// Small validation helpers: collect every problem as "path: message" and throw one
// 400 validation_failed with all of them as `details` (spec part 7).
import { validationFailed } from './errors.ts';

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (v: unknown): v is string => typeof v === 'string' && UUID_RE.test(v);
export const EMAIL_RE = /^[^\s@<>(),;:"\[\]]+@[^\s@<>(),;:"\[\]]+\.[^\s@<>(),;:"\[\]]+$/;
export const isEmail = (v: unknown): v is string => typeof v === 'string' && v.length <= 254 && EMAIL_RE.test(v);
/** The address's form alone, whatever its length (what a mutant that drops the bound accepts). */
export const hasEmailForm = (v: unknown): v is string => typeof v === 'string' && EMAIL_RE.test(v);
export const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function isTimezone(tz: unknown): tz is string {
  if (typeof tz !== 'string' || tz.length === 0) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

export function isIsoTimestamp(v: unknown): v is string {
  return typeof v === 'string' && /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(v) && !Number.isNaN(Date.parse(v));
}

/** `bytes`: `max` counts UTF-8 bytes; otherwise characters (UTF-16 units, as String#length). */
interface StrOpts { required?: boolean; max?: number; nonEmpty?: boolean; unit?: 'characters' | 'bytes' }
interface NumOpts { required?: boolean; min?: number; max?: number; integer?: boolean }

/** Accumulates issues; `done()` throws 400 validation_failed when there are any. */
export class V {
  readonly issues: string[] = [];

  constructor(private readonly prefix = '') {}

  private p(path: string): string {
    return this.prefix ? `${this.prefix}.${path}` : path;
  }

  issue(path: string, message: string): void {
    this.issues.push(`${this.p(path)}: ${message}`);
  }

  /** The body must be a JSON object. */
  object(v: unknown, path: string): Record<string, unknown> | undefined {
    if (isPlainObject(v)) return v;
    this.issue(path, 'must be a JSON object');
    return undefined;
  }

  str(o: Record<string, unknown>, k: string, opts: StrOpts = {}): string | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (opts.required) this.issue(k, 'is required');
      return undefined;
    }
    if (typeof v !== 'string') return void this.issue(k, 'must be a string');
    if (opts.nonEmpty && v.trim().length === 0) return void this.issue(k, 'must not be empty');
    const n = opts.unit === 'bytes' ? Buffer.byteLength(v, 'utf8') : v.length;
    if (opts.max !== undefined && n > opts.max) return void this.issue(k, `must be at most ${opts.max} ${opts.unit === 'bytes' ? 'bytes (UTF-8)' : 'characters'}`);
    return v;
  }

  num(o: Record<string, unknown>, k: string, opts: NumOpts = {}): number | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (opts.required) this.issue(k, 'is required');
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isFinite(v)) return void this.issue(k, 'must be a number');
    if (opts.integer && !Number.isInteger(v)) return void this.issue(k, 'must be an integer');
    if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max))
      return void this.issue(k, `must be from ${opts.min ?? '-inf'} to ${opts.max ?? 'inf'}`);
    return v;
  }

  int(o: Record<string, unknown>, k: string, opts: Omit<NumOpts, 'integer'> = {}): number | undefined {
    return this.num(o, k, { ...opts, integer: true });
  }

  bool(o: Record<string, unknown>, k: string, required = false): boolean | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (required) this.issue(k, 'is required');
      return undefined;
    }
    if (typeof v !== 'boolean') return void this.issue(k, 'must be a boolean');
    return v;
  }

  oneOf<T extends string>(o: Record<string, unknown>, k: string, values: readonly T[], required = false): T | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (required) this.issue(k, 'is required');
      return undefined;
    }
    if (typeof v !== 'string' || !(values as readonly string[]).includes(v))
      return void this.issue(k, `must be one of ${values.join(', ')}`);
    return v as T;
  }

  uuid(o: Record<string, unknown>, k: string, required = false): string | undefined {
    const v = o[k];
    if (v === undefined || v === null) {
      if (required) this.issue(k, 'is required');
      return undefined;
    }
    if (!isUuid(v)) return void this.issue(k, 'must be a uuid');
    return v;
  }

  done(): void {
    if (this.issues.length > 0) throw validationFailed(this.issues);
  }
}

/** Body must be a JSON object: returns it or throws 400. */
export function bodyObject(body: unknown): Record<string, unknown> {
  if (isPlainObject(body)) return body;
  throw validationFailed(['body: must be a JSON object']);
}
