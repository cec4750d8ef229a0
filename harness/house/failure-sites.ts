import ts from 'typescript';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

// Where the checks assert, and which of those sites throw a typed failure (harness/ground/failure.ts):
// the report groups a typed failure by its kind and fields, any other by its own text alone.
// A site is a call of an assertion that throws: the shaped ones (a status, an error envelope and
// code, a schema) are typed; expectThat and fail are typed when their message is written msg`...`
// (or naming(msg`...`, findings), or joinRules(rules));
// a CheckFailure built by hand is typed when it is given its cause. The helpers built on these
// (expectMutate, expectValidation400, ...) are counted where they call them.

const SHAPED = new Set(['expectStatus', 'expect2xx', 'expectError', 'expectSchema', 'failTyped']);
const MESSAGE_ARG: Record<string, number> = { expectThat: 1, fail: 0 };

export interface FailureSite {
  file: string;
  line: number;
  call: string;
  typed: boolean;
}

/** msg`...`, naming(msg`...`, findings) (a rule with the findings it names), or joinRules(rules) (rules reported together). */
const isMsg = (n: ts.Node | undefined): boolean =>
  !!n &&
  ((ts.isTaggedTemplateExpression(n) && ts.isIdentifier(n.tag) && n.tag.text === 'msg') ||
    (ts.isCallExpression(n) && ts.isIdentifier(n.expression) && ((n.expression.text === 'naming' && isMsg(n.arguments[0])) || n.expression.text === 'joinRules')));

function sitesOf(file: string, root: string): FailureSite[] {
  const sf = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const out: FailureSite[] = [];
  const at = (n: ts.Node, call: string, typed: boolean) => out.push({ file: relative(root, file), line: sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1, call, typed });
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n) && ts.isIdentifier(n.expression)) {
      const name = n.expression.text;
      if (SHAPED.has(name)) at(n, name, true);
      else if (name in MESSAGE_ARG) at(n, name, isMsg(n.arguments[MESSAGE_ARG[name]!]));
    } else if (ts.isNewExpression(n) && ts.isIdentifier(n.expression) && n.expression.text === 'CheckFailure') {
      at(n, 'new CheckFailure', (n.arguments?.length ?? 0) >= 3);
    }
    ts.forEachChild(n, visit);
  };
  visit(sf);
  return out;
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return e.name.endsWith('.ts') && !/\.test(-helper)?\.ts$/.test(e.name) ? [p] : [];
  });

/** Every assertion site of the checks (suites/, their tests left out), in file order. */
export function failureSites(root: string): FailureSite[] {
  return sources(join(root, 'suites')).sort().flatMap((f) => sitesOf(f, root));
}
