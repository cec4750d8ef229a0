import ts from 'typescript';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Check } from '../ground/check.ts';

// A check's code as the kill matrix can tell it changed: its definition in its file's source (the
// object literal whose id it is, or the top-level statement of a family whose ids a template
// makes), the top-level declarations of the check files it reaches from there by name (its own
// file's and, through imports, the other check files'), and its data (claims, depth, budget...).
// Source text, not the run function's own text: that is each transformer's (tsx's, vitest's).
// A row records the digest of its killers' code: a killer whose code changed may no longer kill,
// so the row is stale. The kit's shared helpers (suites/lib/) are not followed: a change there
// touches nearly every check, and is rebuilt with `npm run kill-matrix -- --all` (or --only).

const CHECKS_DIR = fileURLToPath(new URL('../../suites/checks/', import.meta.url));

interface Declaration {
  text: string;
  /** identifiers it names */
  names: Set<string>;
}

interface SourceFile {
  declarations: Map<string, Declaration>;
  /** check definitions: an id written whole -> its object literal; a template's head -> its top-level statement */
  literals: Map<string, Declaration>;
  templates: { head: string; at: Declaration }[];
  /** local name -> the check file and the name it is imported from */
  imports: Map<string, { file: string; name: string }>;
}

/** A check file's source text (tests hand an edited one). */
export type ReadSource = (file: string) => string;
const fromDisk: ReadSource = (file) => readFileSync(file, 'utf8');

const IDENT = /[A-Za-z_$][\w$]*/g;
const namesIn = (text: string) => new Set(text.match(IDENT) ?? []);

function declaredNames(s: ts.Statement): string[] {
  if ((ts.isFunctionDeclaration(s) || ts.isClassDeclaration(s) || ts.isInterfaceDeclaration(s) || ts.isTypeAliasDeclaration(s) || ts.isEnumDeclaration(s)) && s.name) return [s.name.text];
  if (ts.isVariableStatement(s)) return s.declarationList.declarations.flatMap((d) => (ts.isIdentifier(d.name) ? [d.name.text] : []));
  return [];
}

function parse(file: string, read: ReadSource): SourceFile {
  const sf = ts.createSourceFile(file, read(file), ts.ScriptTarget.Latest, true);
  const declarations = new Map<string, Declaration>();
  const imports = new Map<string, { file: string; name: string }>();
  const literals = new Map<string, Declaration>();
  const templates: SourceFile['templates'] = [];
  const text = (n: ts.Node): Declaration => ({ text: n.getText(sf), names: namesIn(n.getText(sf)) });
  for (const s of sf.statements) {
    const visit = (n: ts.Node): void => {
      if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name) && n.name.text === 'id') {
        const v = n.initializer;
        if (ts.isStringLiteral(v) || ts.isNoSubstitutionTemplateLiteral(v)) literals.set(v.text, text(n.parent));
        else if (ts.isTemplateExpression(v)) templates.push({ head: v.head.text, at: text(s) });
      }
      ts.forEachChild(n, visit);
    };
    visit(s);
    if (ts.isImportDeclaration(s) && ts.isStringLiteral(s.moduleSpecifier) && s.moduleSpecifier.text.startsWith('.')) {
      const from = resolve(dirname(file), s.moduleSpecifier.text);
      const bindings = s.importClause?.namedBindings;
      if (!from.startsWith(CHECKS_DIR) || !bindings || !ts.isNamedImports(bindings)) continue;
      for (const e of bindings.elements) imports.set(e.name.text, { file: from, name: (e.propertyName ?? e.name).text });
      continue;
    }
    for (const name of declaredNames(s)) declarations.set(name, text(s));
  }
  return { declarations, imports, literals, templates };
}

/**
 * Where a check is written in its file: its object literal; else its family's statement (the
 * longest template head its id starts with); else, for ids a template makes from a table's row
 * (`${row.id}/${route}`), that row and the statements of those templates.
 */
function definitionOf(src: SourceFile, id: string): Declaration | undefined {
  const whole = src.literals.get(id);
  if (whole) return whole;
  const heads = src.templates.filter((t) => t.head && id.startsWith(t.head)).sort((a, b) => b.head.length - a.head.length);
  if (heads[0]) return heads[0].at;
  const row = src.literals.get(id.slice(0, id.indexOf('/')));
  const made = src.templates.filter((t) => !t.head).map((t) => t.at);
  if (!row || !made.length) return undefined;
  const parts = [row, ...made];
  return { text: parts.map((p) => p.text).join('\n'), names: new Set(parts.flatMap((p) => [...p.names])) };
}

const checkFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return checkFiles(p);
    return e.name.endsWith('.ts') && !/\.test(-helper)?\.ts$/.test(e.name) ? [p] : [];
  });

const isCheck = (v: unknown): v is Check => !!v && typeof v === 'object' && typeof (v as Check).id === 'string' && typeof (v as Check).run === 'function';

/** Check id -> the file that defines it: of the files exporting it, the one exporting fewest checks (an index re-exports). */
async function owners(): Promise<Map<string, string>> {
  const best = new Map<string, { file: string; n: number }>();
  for (const file of checkFiles(CHECKS_DIR)) {
    const mod = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    const ids = new Set(Object.values(mod).flatMap((v) => (Array.isArray(v) ? v.filter(isCheck) : isCheck(v) ? [v] : [])).map((c) => c.id));
    for (const id of ids) if (!best.has(id) || ids.size < best.get(id)!.n) best.set(id, { file, n: ids.size });
  }
  return new Map([...best].map(([id, o]) => [id, o.file]));
}

/** The declarations reached by name from `seed` in `file`, following imports between check files: "file:name" -> text. */
function reached(file: string, seed: Set<string>, sourceOf: (file: string) => SourceFile): Map<string, string> {
  const out = new Map<string, string>();
  const todo: { file: string; name: string }[] = [...seed].map((name) => ({ file, name }));
  while (todo.length) {
    const { file: f, name } = todo.pop()!;
    const key = `${relative(CHECKS_DIR, f)}:${name}`;
    if (out.has(key)) continue;
    const src = sourceOf(f);
    const imported = src.imports.get(name);
    if (imported) {
      out.set(key, `from ${relative(CHECKS_DIR, imported.file)}`);
      todo.push({ file: imported.file.endsWith('.ts') ? imported.file : `${imported.file}.ts`, name: imported.name });
      continue;
    }
    const d = src.declarations.get(name);
    if (!d) continue;
    out.set(key, d.text);
    for (const n of d.names) if (n !== name) todo.push({ file: f, name: n });
  }
  return out;
}

export interface CheckCode {
  /** its fields but run, as JSON */
  data: string;
  /** its definition's source text (none found: its run function's names seed what it reaches) */
  definition: string;
  /** the declarations it reaches, "file:name" -> source text */
  reached: Map<string, string>;
  /** the file that defines it */
  file?: string;
}

/** Each check's code, by id. */
export async function checkCode(checks: readonly Check[], read: ReadSource = fromDisk): Promise<Map<string, CheckCode>> {
  const own = await owners();
  const files = new Map<string, SourceFile>();
  const sourceOf = (f: string) => files.get(f) ?? files.set(f, parse(f, read)).get(f)!;
  return new Map(
    checks.map((c) => {
      const { run, ...data } = c;
      const file = own.get(c.id);
      const def = file ? definitionOf(sourceOf(file), c.id) : undefined;
      const seed = def?.names ?? namesIn(run.toString());
      return [c.id, { data: JSON.stringify(data), definition: def?.text ?? '', reached: file ? reached(file, seed, sourceOf) : new Map(), file }];
    }),
  );
}

/** Each check's code fingerprint (16 hex), by id. */
export async function checkFingerprints(checks: readonly Check[], read: ReadSource = fromDisk): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [id, code] of await checkCode(checks, read)) {
    const h = createHash('sha256').update(code.data).update(code.definition);
    for (const [k, text] of [...code.reached].sort(([a], [b]) => a.localeCompare(b))) h.update(`${k}\n${text}`);
    out.set(id, h.digest('hex').slice(0, 16));
  }
  return out;
}

/** The digest a row keeps of its killers' code. */
export function killersDigest(killers: readonly string[], fingerprints: ReadonlyMap<string, string>): string {
  return createHash('sha256')
    .update([...killers].sort().map((k) => `${k} ${fingerprints.get(k) ?? 'gone'}`).join('\n'))
    .digest('hex')
    .slice(0, 16);
}
