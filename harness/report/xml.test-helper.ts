// A small strict XML 1.0 well-formedness parser for tests (no dependency): recursive descent over
// prolog, elements, attributes, text, comments and CDATA; only the five predefined entities and
// character references; no raw "<" or "&" in text or attributes; forbidden characters rejected.

export interface XmlElement {
  name: string;
  attrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const NAME = /[A-Za-z_:][A-Za-z0-9_:.-]*/y;
const FORBIDDEN = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/;

export function parseXml(src: string): XmlElement {
  let i = 0;
  const fail = (msg: string): never => {
    const line = src.slice(0, i).split('\n').length;
    throw new Error(`XML not well-formed at line ${line} (offset ${i}): ${msg}`);
  };
  const m = FORBIDDEN.exec(src);
  if (m) {
    i = m.index;
    fail(`forbidden character U+${m[0].charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  const ws = () => {
    while (i < src.length && /\s/.test(src[i]!)) i++;
  };
  const name = (): string => {
    NAME.lastIndex = i;
    const r = NAME.exec(src);
    if (!r) fail('expected a name');
    i += r![0].length;
    return r![0];
  };
  const decode = (raw: string): string => {
    if (raw.includes('<')) fail('raw "<" in text or attribute');
    return raw.replace(/&([^;]*);?/g, (whole, ent: string) => {
      if (!whole.endsWith(';')) fail(`bare "&" (${whole.slice(0, 12)})`);
      if (ent === 'amp') return '&';
      if (ent === 'lt') return '<';
      if (ent === 'gt') return '>';
      if (ent === 'quot') return '"';
      if (ent === 'apos') return "'";
      const n = /^#x([0-9a-fA-F]+)$/.exec(ent) ?? /^#([0-9]+)$/.exec(ent);
      if (n) return String.fromCodePoint(parseInt(n[1]!, ent.startsWith('#x') ? 16 : 10));
      return fail(`unknown entity &${ent};`);
    });
  };
  const skipMisc = () => {
    for (;;) {
      ws();
      if (src.startsWith('<!--', i)) {
        const e = src.indexOf('-->', i + 4);
        if (e < 0) fail('unterminated comment');
        i = e + 3;
      } else if (src.startsWith('<?', i)) {
        const e = src.indexOf('?>', i + 2);
        if (e < 0) fail('unterminated processing instruction');
        i = e + 2;
      } else return;
    }
  };
  const element = (): XmlElement => {
    if (src[i] !== '<') fail('expected "<"');
    i++;
    const el: XmlElement = { name: name(), attrs: {}, children: [], text: '' };
    for (;;) {
      const before = i;
      ws();
      if (src.startsWith('/>', i)) {
        i += 2;
        return el;
      }
      if (src[i] === '>') {
        i++;
        break;
      }
      if (before === i) fail('expected whitespace before an attribute');
      const an = name();
      ws();
      if (src[i] !== '=') fail(`expected "=" after attribute ${an}`);
      i++;
      ws();
      const q = src[i];
      if (q !== '"' && q !== "'") fail('expected a quoted attribute value');
      const e = src.indexOf(q!, i + 1);
      if (e < 0) fail('unterminated attribute value');
      if (an in el.attrs) fail(`duplicate attribute ${an}`);
      el.attrs[an] = decode(src.slice(i + 1, e));
      i = e + 1;
    }
    for (;;) {
      if (i >= src.length) fail(`unclosed element <${el.name}>`);
      if (src.startsWith('</', i)) {
        i += 2;
        const n = name();
        if (n !== el.name) fail(`</${n}> closes <${el.name}>`);
        ws();
        if (src[i] !== '>') fail('expected ">"');
        i++;
        return el;
      }
      if (src.startsWith('<!--', i)) {
        const e = src.indexOf('-->', i + 4);
        if (e < 0) fail('unterminated comment');
        i = e + 3;
      } else if (src.startsWith('<![CDATA[', i)) {
        const e = src.indexOf(']]>', i + 9);
        if (e < 0) fail('unterminated CDATA');
        el.text += src.slice(i + 9, e);
        i = e + 3;
      } else if (src[i] === '<') {
        el.children.push(element());
      } else {
        const e = src.indexOf('<', i);
        const raw = src.slice(i, e < 0 ? src.length : e);
        if (raw.includes(']]>')) fail('"]]>" in text');
        el.text += decode(raw);
        i = e < 0 ? src.length : e;
      }
    }
  };
  skipMisc();
  const root = element();
  skipMisc();
  if (i !== src.length) fail('content after the root element');
  return root;
}

export function findAll(el: XmlElement, name: string): XmlElement[] {
  const out: XmlElement[] = [];
  const walk = (e: XmlElement) => {
    if (e.name === name) out.push(e);
    e.children.forEach(walk);
  };
  walk(el);
  return out;
}
