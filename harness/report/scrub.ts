// Defence in depth: the client redacts secrets before an event exists; every report writer
// still runs this scrub over the events before writing a byte. It
//  1. replaces credential header values (Authorization keeps its scheme: "Bearer [REDACTED]"),
//  2. replaces the values of secret-named JSON fields in bodies, curl lines, messages and the
//     profile (password, smtpPassword, imapPassword, apiKey, secret, token, ...; `key` when its
//     value looks like a secret) and secret-named query parameters in URLs,
//  3. remembers every secret value it removed and erases any other occurrence of it anywhere
//     (a key echoed in an error message, a URL, another body).

import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import { PROFILE_SECRET_PATHS } from '../ground/profile-schema.ts';
import { ENUM_WORD } from '../client/redact.ts';

export const REDACTED = '[REDACTED]';

/** JSON field / query parameter names whose value is always a secret (case-insensitive). */
const SECRET_FIELD =
  /^(password|passwd|smtp_?password|imap_?password|api_?key|x-api-key|secret|client_?secret|token|access_?token|refresh_?token|control_?token|bearer)$/i;
/** `state` is the OAuth state, unless its value is an enum word (a status filter named `state`). */
const STATE_FIELD = /^state$/i;
/** `key` is a secret when its value looks like one: a token of more than 16 characters, no spaces. */
const KEY_FIELD = /^key$/i;
/** Header names whose whole value is a credential. */
const SECRET_HEADER = /^(authorization|proxy-authorization|x-api-key|api-key|cookie|set-cookie|x-control-token)$/i;

function looksLikeSecret(v: string): boolean {
  return v.length > 16 && /^[A-Za-z0-9_\-.:+/=~]+$/.test(v);
}

/**
 * Only non-empty strings are secrets (as in harness/client/redact.ts): `password: 12345` sent by
 * a validation check is evidence, not a credential.
 */
function isSecretField(name: string, value: unknown): boolean {
  if (typeof value !== 'string' || value === '') return false;
  if (SECRET_FIELD.test(name)) return true;
  if (KEY_FIELD.test(name)) return looksLikeSecret(value);
  if (STATE_FIELD.test(name)) return !ENUM_WORD.test(value);
  return false;
}

function isRedactedAlready(v: string): boolean {
  return v.includes('REDACTED') || v.includes('***') || v.includes('…');
}

/**
 * "Bearer abc" -> "Bearer [REDACTED]"; a bare value -> "[REDACTED]"; an empty value or a scheme
 * word alone ("Bearer", "Bearer " before a curl line's "$OUTREACH_API_KEY") is kept as is.
 */
export function redactAuthValue(value: string): string {
  const v = value.trim();
  if (v === '' || /^(bearer|basic|token|digest)$/i.test(v)) return value;
  const m = /^([A-Za-z][A-Za-z0-9_-]{0,19})(\s+)(\S[\s\S]*)$/.exec(v);
  if (m) return `${m[1]} ${REDACTED}`;
  return REDACTED;
}

class Scrubber {
  readonly secrets = new Set<string>();
  private pattern: RegExp | undefined;

  private remember(v: unknown): void {
    if (typeof v !== 'string') return;
    const s = v.trim();
    if (s.length >= 8 && !isRedactedAlready(s)) {
      this.secrets.add(s);
      this.pattern = undefined;
    }
  }

  // ---- pass 1: structural redaction (and collection of the values removed) ----

  headers(h: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [name, value] of Object.entries(h)) {
      if (SECRET_HEADER.test(name)) {
        const v = String(value);
        if (/^(authorization|proxy-authorization)$/i.test(name)) {
          const m = /^\s*\S+\s+(\S[\s\S]*)$/.exec(v);
          this.remember(m ? m[1] : v);
          out[name] = redactAuthValue(v);
        } else {
          this.remember(v);
          out[name] = v.trim() === '' ? v : REDACTED;
        }
      } else out[name] = value;
    }
    return out;
  }

  json(value: unknown): { value: unknown; changed: boolean } {
    if (Array.isArray(value)) {
      let changed = false;
      const arr = value.map((v) => {
        const r = this.json(v);
        changed ||= r.changed;
        return r.value;
      });
      return { value: arr, changed };
    }
    if (value !== null && typeof value === 'object') {
      let changed = false;
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        // { env: "NAME" } points at an environment variable (profile secrets): not a secret itself.
        const envRef = v !== null && typeof v === 'object' && !Array.isArray(v) && Object.keys(v).join() === 'env';
        if (isSecretField(k, v) && !envRef) {
          if (typeof v === 'string' && isRedactedAlready(v)) {
            out[k] = v;
            continue;
          }
          this.remember(v);
          out[k] = REDACTED;
          changed = true;
        } else {
          const r = this.json(v);
          changed ||= r.changed;
          out[k] = r.value;
        }
      }
      return { value: out, changed };
    }
    return { value, changed: false };
  }

  /**
   * The profile: field names are paths and names (`result.secret: "key"`), so only the values at
   * the profile's secret paths are removed; their echoes anywhere are erased by pass 2.
   */
  profile(value: unknown): unknown {
    if (value === null || typeof value !== 'object') return value;
    const copy = structuredClone(value) as Record<string, unknown>;
    const at = (node: unknown, path: string[]): void => {
      if (node === null || typeof node !== 'object') return;
      const holder = node as Record<string, unknown>;
      const [head, ...rest] = path;
      for (const k of head === '*' ? Object.keys(holder) : head !== undefined && head in holder ? [head] : []) {
        if (rest.length) at(holder[k], rest);
        else if (typeof holder[k] === 'string' && !isRedactedAlready(holder[k] as string)) {
          this.remember(holder[k]);
          holder[k] = REDACTED;
        }
      }
    };
    for (const p of PROFILE_SECRET_PATHS) at(copy, p.split('.'));
    return copy;
  }

  /** A body or any free text: JSON when it parses (re-serialised only if changed), else regex. */
  text(s: string): string {
    const t = s.trim();
    if ((t.startsWith('{') || t.startsWith('[')) && t.length > 1) {
      try {
        const parsed = JSON.parse(t);
        const r = this.json(parsed);
        return r.changed ? JSON.stringify(r.value) : s;
      } catch {
        /* not JSON (or truncated): fall through */
      }
    }
    return this.inline(s);
  }

  /** Regex redaction of `"name": value` pairs, `Authorization: x` and secret query params. */
  inline(s: string): string {
    let out = s.replace(
      /("([A-Za-z_][A-Za-z0-9_-]*)"\s*:\s*)("(?:[^"\\]|\\.)*")/g,
      (whole, head: string, name: string, raw: string) => {
        let value: string;
        try {
          value = JSON.parse(raw) as string;
        } catch {
          value = raw.slice(1, -1);
        }
        if (!isSecretField(name, value) || isRedactedAlready(value)) return whole;
        this.remember(value);
        return `${head}"${REDACTED}"`;
      },
    );
    // Header lines inside curl commands or messages: -H 'Authorization: Bearer xyz'
    out = out.replace(
      /\b(authorization|proxy-authorization|x-api-key|cookie|x-control-token)(\s*:\s*)([^'"\r\n]*)/gi,
      (whole, name: string, sep: string, value: string) => {
        if (value.trim() === '' || isRedactedAlready(value)) return whole;
        if (/authorization/i.test(name)) {
          const m = /^\s*\S+\s+(\S.*)$/.exec(value);
          this.remember(m ? m[1] : value);
          return `${name}${sep}${redactAuthValue(value)}`;
        }
        this.remember(value);
        return `${name}${sep}${REDACTED}`;
      },
    );
    // Query parameters: ?apiKey=xyz&token=abc
    out = out.replace(/([?&])([A-Za-z_][A-Za-z0-9_-]*)=([^&#\s'"]*)/g, (whole, sep: string, name: string, value: string) => {
      let decoded = value;
      try {
        decoded = decodeURIComponent(value);
      } catch {
        /* keep raw */
      }
      if (!isSecretField(name, decoded) || value === '' || isRedactedAlready(decoded)) return whole;
      this.remember(decoded);
      return `${sep}${name}=${encodeURIComponent(REDACTED)}`;
    });
    return out;
  }

  // ---- pass 2: erase every remembered secret value wherever it still appears ----

  erase(s: string): string {
    if (this.secrets.size === 0) return s;
    if (!this.pattern) {
      const alts = [...this.secrets]
        .flatMap((v) => {
          const enc = encodeURIComponent(v);
          const json = JSON.stringify(v).slice(1, -1);
          return [...new Set([v, enc, json])];
        })
        .sort((a, b) => b.length - a.length)
        .map((v) => v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
      this.pattern = new RegExp(alts.join('|'), 'g');
    }
    return s.replace(this.pattern, REDACTED);
  }
}

function mapStrings<T>(value: T, f: (s: string) => string): T {
  if (typeof value === 'string') return f(value) as T;
  if (Array.isArray(value)) return value.map((v) => mapStrings(v, f)) as T;
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = mapStrings(v, f);
    return out as T;
  }
  return value;
}

function scrubExchange(sc: Scrubber, e: ExchangeEvent): ExchangeEvent {
  const out: ExchangeEvent = {
    ...e,
    request: {
      ...e.request,
      url: sc.inline(e.request.url),
      headers: sc.headers(e.request.headers ?? {}),
    },
    curl: sc.inline(e.curl ?? ''),
  };
  if (e.request.body !== undefined) out.request.body = sc.text(e.request.body);
  if (e.response) {
    out.response = { ...e.response, headers: sc.headers(e.response.headers ?? {}) };
    if (e.response.body !== undefined) out.response.body = sc.text(e.response.body);
  }
  if (e.error !== undefined) out.error = sc.inline(e.error);
  return out;
}

/** Returns scrubbed copies of the events (the input is not modified). */
export function scrubEvents(events: RunEvent[]): RunEvent[] {
  const sc = new Scrubber();
  const first = events.map((ev): RunEvent => {
    switch (ev.type) {
      case 'exchange':
        return scrubExchange(sc, ev);
      case 'run-start': {
        const profile = sc.profile(ev.profile);
        return { ...ev, target: { ...ev.target, baseUrl: sc.inline(ev.target.baseUrl) }, profile };
      }
      case 'check-end':
        return ev.message === undefined ? ev : { ...ev, message: sc.inline(ev.message) };
      default:
        return ev;
    }
  });
  return first.map((ev) => mapStrings(ev, (s) => sc.erase(s)));
}

/** Scrubs one free-standing string (used on anything not taken from events). */
export function scrubText(s: string): string {
  const sc = new Scrubber();
  return sc.erase(sc.text(s));
}
