// Redaction: every event is scrubbed before it exists (harness/ground/events.ts).
//
// What is redacted:
// - Authorization (and Proxy-Authorization) header values: the credential is replaced, the
//   scheme word is kept as sent so malformed-header evidence stays readable:
//   "Bearer sk_live_x" -> "Bearer [REDACTED]", "Basic abc" -> "Basic [REDACTED]",
//   a bare value "sk_live_x" -> "[REDACTED]"; an empty value or a scheme word alone
//   ("Bearer", for malformed-header checks) stays as sent.
//   X-Api-Key / Api-Key / Cookie / Set-Cookie values -> "[REDACTED]".
// - Every registered secret (API keys, mailbox passwords, control token), wherever it appears:
//   bodies, URLs, header values, curl lines, error messages. Its URL-encoded and JSON-escaped
//   forms are replaced as well.
// - JSON fields named password, smtpPassword, imapPassword, apiKey, secret, token, state (the
//   OAuth state, unless its value is an enum word such as "active") and a few obvious variants (api_key, accessToken, refreshToken, clientSecret,
//   controlToken, ...)
//   when their value is a non-empty string; a field named `key` only when its value is a string
//   longer than 16 characters (so "key": "name" in a sort order is not hidden, an API key is).
//   A value redacted by field name is also registered as a secret (if long enough), so an echo
//   of it elsewhere (an error message, a later URL) is caught too.
//   Non-string values (e.g. `password: 12345` sent by a validation check) and empty strings are
//   kept: they are not secrets and they are evidence.
// - Query parameters with one of those names (`?token=...`) in URLs.
//
// Secrets shorter than 6 characters are NOT registered: replacing every "abc" or "12345" in
// every body would hide real evidence (ids, numbers) and protect nothing. A check that uses a
// short password must not rely on redaction for it.

export const REDACTED = '[REDACTED]';
export const MIN_SECRET_LENGTH = 6;
/** Marker of toCurl's temporary placeholders; never registered as a secret. */
export const CURL_SENTINEL_MARK = 'OUTREACHENVSENTINEL';

const SENSITIVE_FIELDS = new Set(
  [
    'password',
    'smtpPassword',
    'imapPassword',
    'smtp_password',
    'imap_password',
    'apiKey',
    'api_key',
    'secret',
    'clientSecret',
    'client_secret',
    'token',
    'accessToken',
    'access_token',
    'refreshToken',
    'refresh_token',
    'controlToken',
  ].map((s) => s.toLowerCase()),
);
/**
 * `state` is the OAuth state (4.2: an opaque handle to a pending grant), unless its value is a word
 * of the API's enums: a target may name its list's status filter `state` (`?state=active`), and
 * registering "active" as a secret would hide every "inactive" of the run.
 */
export const ENUM_WORD = /^[a-z][a-z_]*$/;
const KEY_FIELD_MIN = 17; // `key` is redacted when its string value is longer than 16 chars

const CREDENTIAL_HEADERS = new Set(['authorization', 'proxy-authorization']);
const OPAQUE_SECRET_HEADERS = new Set(['x-api-key', 'api-key', 'cookie', 'set-cookie', 'x-control-token']);

function isSensitiveField(name: string, value: unknown): boolean {
  if (typeof value !== 'string' || value === '' || value === REDACTED) return false;
  const n = name.toLowerCase();
  if (SENSITIVE_FIELDS.has(n)) return true;
  if (n === 'key') return value.length >= KEY_FIELD_MIN;
  if (n === 'state') return !ENUM_WORD.test(value);
  return false;
}

interface SecretEntry {
  value: string;
  /** Environment variable a curl line uses in place of the secret (e.g. OUTREACH_API_KEY). */
  envVar?: string;
}

export class Redactor {
  private secrets = new Map<string, SecretEntry>();
  /**
   * Every form (raw, URL-encoded, JSON-escaped) by its first MIN_SECRET_LENGTH characters, each
   * list longest first. text() looks each position of a string up here: one pass per string,
   * whatever the number of secrets (a run registers hundreds, one at a time; each joins the index
   * as it comes, nothing is rebuilt).
   */
  private byPrefix = new Map<number, string[]>();
  /** The forms of secrets that have an environment variable (toCurl's); rebuilt lazily. */
  private envForms: { form: string; value: string; envVar: string }[] | null = null;

  /**
   * Registers a secret to be replaced wherever it appears. Secrets shorter than 6 characters
   * are ignored (see the file comment). `envVar` names the shell variable that curl lines use
   * instead of the secret; the first name given for a secret wins.
   */
  add(secret: string | null | undefined, envVar?: string): void {
    if (typeof secret !== 'string' || secret.length < MIN_SECRET_LENGTH || secret === REDACTED) return;
    if (secret.includes(CURL_SENTINEL_MARK)) return; // toCurl's own placeholders
    const existing = this.secrets.get(secret);
    if (existing) {
      if (!existing.envVar && envVar) {
        existing.envVar = envVar;
        this.envForms = null;
      }
      return;
    }
    const entry = { value: secret, envVar };
    this.secrets.set(secret, entry);
    for (const form of formsOf(secret)) {
      const head = prefixKey(form, 0);
      const list = this.byPrefix.get(head) ?? [];
      const shorter = list.findIndex((f) => f.length < form.length);
      if (!list.includes(form)) list.splice(shorter === -1 ? list.length : shorter, 0, form);
      this.byPrefix.set(head, list);
    }
    if (envVar) this.envForms = null;
  }

  /** Whether this exact string is a registered secret. */
  has(secret: string): boolean {
    return this.secrets.has(secret);
  }

  /** The environment variable registered for this secret, if any. */
  envVarFor(secret: string): string | undefined {
    return this.secrets.get(secret)?.envVar;
  }

  /** Every form of every secret that has an environment variable, longest first (used by toCurl). */
  envVarForms(): readonly { form: string; value: string; envVar: string }[] {
    if (!this.envForms) {
      const out: { form: string; value: string; envVar: string }[] = [];
      for (const e of this.secrets.values()) if (e.envVar) for (const form of formsOf(e.value)) out.push({ form, value: e.value, envVar: e.envVar });
      this.envForms = out.sort((a, b) => b.form.length - a.form.length);
    }
    return this.envForms;
  }

  /** Replaces every registered secret in a string (at each place, the longest form that starts there). */
  text(s: string): string {
    if (!s || s.length < MIN_SECRET_LENGTH || this.secrets.size === 0) return s;
    let out = '';
    let kept = 0;
    for (let i = 0; i <= s.length - MIN_SECRET_LENGTH; ) {
      const form = this.byPrefix.get(prefixKey(s, i))?.find((f) => s.startsWith(f, i));
      if (form === undefined) {
        i++;
        continue;
      }
      out += s.slice(kept, i) + REDACTED;
      i += form.length;
      kept = i;
    }
    return kept === 0 ? s : out + s.slice(kept);
  }

  /** Lower-cases names and redacts credential headers and registered secrets in values. */
  headers(h: Record<string, string | string[] | undefined> | undefined): Record<string, string> {
    const out: Record<string, string> = {};
    if (!h) return out;
    for (const [name, raw] of Object.entries(h)) {
      if (raw === undefined) continue;
      const n = name.toLowerCase();
      const value = Array.isArray(raw) ? raw.join(', ') : String(raw);
      if (CREDENTIAL_HEADERS.has(n)) out[n] = redactCredential(value);
      else if (OPAQUE_SECRET_HEADERS.has(n)) out[n] = value === '' ? '' : REDACTED;
      else out[n] = this.text(value);
    }
    return out;
  }

  /** A scrubbed deep copy of a JSON value: sensitive fields and registered secrets replaced. */
  json(value: unknown): unknown {
    return this.scrub(value, 0);
  }

  private scrub(value: unknown, depth: number): unknown {
    if (depth > 200) return value;
    if (typeof value === 'string') return this.text(value);
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, depth + 1));
    if (value && typeof value === 'object') {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
        if (isSensitiveField(k, v)) {
          this.add(v as string);
          out[this.text(k)] = REDACTED;
        } else {
          out[this.text(k)] = this.scrub(v, depth + 1);
        }
      }
      return out;
    }
    return value;
  }

  /**
   * Redacts a body given as text. JSON text (by content type or because it parses) is parsed,
   * scrubbed and re-serialized (compact) when something was redacted, and kept byte for byte
   * when nothing was; other text gets registered secrets replaced.
   */
  body(text: string, contentType?: string): string {
    if (!text) return text;
    const parsed = tryParseJson(text, contentType);
    if (parsed.ok) {
      // Register field-named secrets first so that text replacement below catches echoes.
      const scrubbed = this.scrub(parsed.value, 0);
      if (deepEqual(scrubbed, parsed.value)) return this.text(text);
      try {
        return this.text(JSON.stringify(scrubbed));
      } catch {
        // Nested too deep to re-serialize (hostile input): the secrets scrub found are registered, so text replacement redacts them.
        return this.text(text);
      }
    }
    return this.text(text);
  }

  /** Redacts registered secrets and sensitive query parameters in a URL. */
  url(u: string): string {
    const replaced = u.replace(/([?&])([^=&#]+)=([^&#]*)/g, (m, sep: string, name: string, value: string) => {
      let decodedName = name;
      let decodedValue = value;
      try {
        decodedName = decodeURIComponent(name);
        decodedValue = decodeURIComponent(value.replace(/\+/g, ' '));
      } catch {
        /* keep raw */
      }
      if (isSensitiveField(decodedName, decodedValue)) {
        this.add(decodedValue);
        return `${sep}${name}=${encodeURIComponent(REDACTED)}`;
      }
      return m;
    });
    return this.text(replaced);
  }
}

/** A hash of the MIN_SECRET_LENGTH characters of `s` from `at` (no string is made per position; a collision only costs a startsWith). */
function prefixKey(s: string, at: number): number {
  let h = 0;
  for (let k = at; k < at + MIN_SECRET_LENGTH; k++) h = (Math.imul(h, 31) + s.charCodeAt(k)) | 0;
  return h;
}

/** A secret as it may appear: raw, URL-encoded and JSON-escaped (each long enough to register). */
function formsOf(secret: string): string[] {
  return [...new Set([secret, uriForm(secret), JSON.stringify(secret).slice(1, -1)])].filter((f) => f.length >= MIN_SECRET_LENGTH);
}

/** The URL-encoded form of a secret; a lone surrogate has none (encodeURIComponent throws). */
function uriForm(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return value;
  }
}

/** "Bearer x" -> "Bearer [REDACTED]" (scheme kept as sent); a bare credential -> "[REDACTED]". */
export function redactCredential(value: string): string {
  if (value.trim() === '') return value;
  if (value.endsWith(REDACTED)) return value;
  // A scheme word alone ("Bearer", "Basic ") carries no credential: kept as evidence.
  if (/^\s*(bearer|basic|digest|token|apikey|negotiate)\s*$/i.test(value)) return value;
  const m = /^(\s*)(\S+)(\s+)\S/.exec(value);
  if (m) return `${m[1]}${m[2]}${m[3]}${REDACTED}`;
  return REDACTED;
}

export function tryParseJson(text: string, contentType?: string): { ok: true; value: unknown } | { ok: false } {
  const t = text.trim();
  if (!t) return { ok: false };
  const looksJson = (contentType && /[/+]json\b/i.test(contentType)) || t[0] === '{' || t[0] === '[' || t[0] === '"';
  if (!looksJson) return { ok: false };
  try {
    return { ok: true, value: JSON.parse(t) };
  } catch {
    return { ok: false };
  }
}

function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== typeof b || a === null || b === null || typeof a !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a as object);
  const kb = Object.keys(b as object);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) {
    const k = ka[i]!;
    if (k !== kb[i]) return false;
    if (!deepEqual((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k])) return false;
  }
  return true;
}
