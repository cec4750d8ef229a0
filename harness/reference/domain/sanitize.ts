// An allowlist HTML sanitizer for mailbox signatures (2.2 "HTML, sanitized on save").
// A small tokenizer (text, tags, comments, doctypes), then:
//   - elements whose content is code or chrome (script, style, iframe, object, embed, svg, math,
//     template, noscript, title, head, form controls...) are dropped with their content;
//   - other elements outside the allowlist lose their tags, their text stays;
//   - allowed elements keep only allowlisted attributes: never an event handler (on*), URLs only
//     with http, https, mailto, tel (cid and data:image for img src) or relative, styles without
//     expression(), url(), javascript: or behaviour/-moz-binding;
//   - comments, doctypes and processing instructions are dropped; stray `<` becomes `&lt;`;
//   - attribute values are re-quoted with `"` and escaped.
const ALLOWED_TAGS = new Set([
  'a', 'abbr', 'b', 'blockquote', 'br', 'center', 'code', 'div', 'em', 'font', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6',
  'hr', 'i', 'img', 'li', 'ol', 'p', 'pre', 's', 'small', 'span', 'strike', 'strong', 'sub', 'sup', 'table', 'tbody',
  'td', 'tfoot', 'th', 'thead', 'tr', 'u', 'ul',
]);
const VOID_TAGS = new Set(['br', 'hr', 'img']);
const DROP_WITH_CONTENT = new Set([
  'script', 'style', 'iframe', 'frame', 'frameset', 'object', 'embed', 'applet', 'noscript', 'noembed', 'noframes',
  'template', 'title', 'head', 'svg', 'math', 'textarea', 'select', 'button', 'form', 'xmp', 'plaintext', 'audio', 'video',
]);
const GLOBAL_ATTRS = new Set(['title', 'align', 'style', 'dir', 'lang']);
const TAG_ATTRS: Record<string, Set<string>> = {
  a: new Set(['href', 'target', 'name']),
  img: new Set(['src', 'alt', 'width', 'height', 'border']),
  font: new Set(['color', 'face', 'size']),
  table: new Set(['width', 'border', 'cellpadding', 'cellspacing', 'bgcolor']),
  td: new Set(['width', 'height', 'colspan', 'rowspan', 'valign', 'bgcolor']),
  th: new Set(['width', 'height', 'colspan', 'rowspan', 'valign', 'bgcolor']),
  tr: new Set(['valign', 'bgcolor']),
  div: new Set([]),
  span: new Set([]),
  p: new Set([]),
  hr: new Set(['width', 'size', 'color']),
  ol: new Set(['start', 'type']),
};
const URL_ATTRS = new Set(['href', 'src']);
const SAFE_SCHEMES = new Set(['http', 'https', 'mailto', 'tel']);

const NAMED: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", colon: ':', tab: '\t', newline: '\n', nbsp: ' ', sol: '/', lpar: '(', rpar: ')' };

/** Decodes character references (enough to see through obfuscated URL schemes). */
export function decodeEntities(s: string): string {
  return s.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);?/gi, (m, ref: string) => {
    if (ref[0] === '#') {
      const cp = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
      return Number.isFinite(cp) && cp >= 0 && cp <= 0x10ffff ? String.fromCodePoint(cp) : '';
    }
    return NAMED[ref.toLowerCase()] ?? m;
  });
}

function safeUrl(tag: string, attr: string, raw: string): boolean {
  // Browsers ignore whitespace and control characters inside a scheme.
  const v = decodeEntities(raw).replace(/[\u0000-\u0020\u007f-\u009f]+/g, '').toLowerCase();
  const m = /^([a-z][a-z0-9+.-]*):/.exec(v);
  if (!m) return true; // relative, fragment or protocol-relative (http/https)
  const scheme = m[1]!;
  if (SAFE_SCHEMES.has(scheme)) return true;
  if (tag === 'img' && attr === 'src' && (scheme === 'cid' || /^data:image\/(png|gif|jpe?g|webp);/.test(v))) return true;
  return false;
}

function safeStyle(raw: string): boolean {
  const v = decodeEntities(raw).replace(/\\/g, '').replace(/\/\*[\s\S]*?\*\//g, '').replace(/\s+/g, '').toLowerCase();
  return !/(expression\(|url\(|javascript:|vbscript:|behavior:|-moz-binding|@import)/.test(v);
}

const escText = (s: string) => s.replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escAttr = (s: string) => s.replace(/&(?!(#x[0-9a-f]+|#[0-9]+|[a-z]+);)/gi, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

interface Attr { name: string; value: string | null }

/** Parses the attributes of a start tag from `s[i]` to its `>`; returns them and the index after `>`. */
function parseAttrs(s: string, i: number): { attrs: Attr[]; end: number; selfClosing: boolean } | null {
  const attrs: Attr[] = [];
  let selfClosing = false;
  const n = s.length;
  while (i < n) {
    while (i < n && /[\s/]/.test(s[i]!)) {
      if (s[i] === '/') selfClosing = true;
      i++;
    }
    if (i >= n) return null;
    if (s[i] === '>') return { attrs, end: i + 1, selfClosing };
    selfClosing = false;
    let j = i;
    while (j < n && !/[\s/>=]/.test(s[j]!)) j++;
    const name = s.slice(i, j).toLowerCase();
    i = j;
    while (i < n && /\s/.test(s[i]!)) i++;
    let value: string | null = null;
    if (s[i] === '=') {
      i++;
      while (i < n && /\s/.test(s[i]!)) i++;
      const q = s[i];
      if (q === '"' || q === "'") {
        const close = s.indexOf(q, i + 1);
        if (close < 0) return null;
        value = s.slice(i + 1, close);
        i = close + 1;
      } else {
        let k = i;
        while (k < n && !/[\s>]/.test(s[k]!)) k++;
        value = s.slice(i, k);
        i = k;
      }
    }
    if (name) attrs.push({ name, value });
  }
  return null;
}

export function sanitizeHtml(html: string): string {
  const s = html;
  const n = s.length;
  let out = '';
  let i = 0;
  while (i < n) {
    const lt = s.indexOf('<', i);
    if (lt < 0) {
      out += escText(s.slice(i));
      break;
    }
    out += escText(s.slice(i, lt));
    i = lt;
    if (s.startsWith('<!--', i)) {
      const end = s.indexOf('-->', i + 4);
      i = end < 0 ? n : end + 3;
      continue;
    }
    if (s[i + 1] === '!' || s[i + 1] === '?') {
      const end = s.indexOf('>', i);
      i = end < 0 ? n : end + 1;
      continue;
    }
    const closing = s[i + 1] === '/';
    const nameStart = closing ? i + 2 : i + 1;
    const m = /^[a-zA-Z][a-zA-Z0-9:-]*/.exec(s.slice(nameStart, nameStart + 64));
    if (!m) {
      out += '&lt;';
      i++;
      continue;
    }
    const name = m[0].toLowerCase();
    const parsed = parseAttrs(s, nameStart + m[0].length);
    if (!parsed) {
      // An unterminated tag: nothing after it can be trusted as text.
      break;
    }
    i = parsed.end;
    if (closing) {
      if (ALLOWED_TAGS.has(name) && !VOID_TAGS.has(name)) out += `</${name}>`;
      continue;
    }
    if (DROP_WITH_CONTENT.has(name)) {
      if (parsed.selfClosing) continue;
      const re = new RegExp(`</${name}\\s*>`, 'ig');
      re.lastIndex = i;
      const close = re.exec(s);
      i = close ? close.index + close[0].length : n;
      continue;
    }
    if (!ALLOWED_TAGS.has(name)) continue;
    let tag = `<${name}`;
    const allowed = TAG_ATTRS[name];
    for (const a of parsed.attrs) {
      if (a.name.startsWith('on')) continue;
      if (!GLOBAL_ATTRS.has(a.name) && !allowed?.has(a.name)) continue;
      const value = a.value ?? '';
      if (URL_ATTRS.has(a.name) && !safeUrl(name, a.name, value)) continue;
      if (a.name === 'style' && !safeStyle(value)) continue;
      tag += ` ${a.name}="${escAttr(value)}"`;
    }
    if (name === 'a' && parsed.attrs.some((a) => a.name === 'target')) tag += ' rel="noopener noreferrer"';
    out += `${tag}>`;
  }
  return out;
}
