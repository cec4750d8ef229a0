// Small text helpers shared by the writers.

/** Characters XML 1.0 forbids (and that HTML renders badly): C0 controls but TAB, LF, CR; U+FFFE/U+FFFF; lone surrogates. */
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

export function stripControl(s: string): string {
  return s.replace(FORBIDDEN, '');
}

/** Escapes text for XML and HTML content and double- or single-quoted attributes. */
export function escapeXml(s: unknown): string {
  return stripControl(String(s ?? ''))
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** Same as escapeXml but with `&#39;` (HTML 4 has no &apos;). */
export function escapeHtml(s: unknown): string {
  return escapeXml(s).replace(/&apos;/g, '&#39;');
}

export function truncate(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max)}\n… (${s.length - max} more characters truncated)`;
}

export function firstLine(s: string, max = 200): string {
  const line = (s.split('\n')[0] ?? '').trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** Pretty-prints a JSON body (2 spaces); anything else is returned as is. */
export function prettyBody(body: string | undefined, contentType?: string): string {
  if (body === undefined || body === '') return '';
  const t = body.trim();
  if (/json/i.test(contentType ?? '') || t.startsWith('{') || t.startsWith('[')) {
    try {
      return JSON.stringify(JSON.parse(t), null, 2);
    } catch {
      /* not JSON */
    }
  }
  return body;
}

export function headerValue(headers: Record<string, string> | undefined, name: string): string | undefined {
  if (!headers) return undefined;
  const lower = name.toLowerCase();
  for (const [k, v] of Object.entries(headers)) if (k.toLowerCase() === lower) return v;
  return undefined;
}

export function formatMs(ms: number): string {
  if (!Number.isFinite(ms)) return '-';
  if (ms < 1000) return `${Math.round(ms)} ms`;
  const s = ms / 1000;
  if (s < 60) return `${s.toFixed(1)} s`;
  const m = Math.floor(s / 60);
  return `${m} min ${Math.round(s - m * 60)} s`;
}

export function percent(x: number): string {
  const p = Math.round(x * 1000) / 10;
  return `${Number.isInteger(p) ? p.toFixed(0) : p.toFixed(1)}%`;
}

/** Groups preserving first-seen order. */
export function groupBy<T>(xs: T[], key: (x: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    let l = m.get(k);
    if (!l) m.set(k, (l = []));
    l.push(x);
  }
  return m;
}

/** Shell variables ($OUTREACH_API_KEY, ...) the curl lines use in place of secrets. */
export function curlEnvVars(curls: string[]): string[] {
  const vars = new Set<string>();
  for (const c of curls) for (const m of c.matchAll(/\$\{?([A-Z][A-Z0-9_]*)\}?/g)) vars.add(m[1]!);
  return [...vars].sort();
}
