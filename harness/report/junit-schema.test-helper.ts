import type { XmlElement } from './xml.test-helper.ts';

// What the Jenkins xUnit plugin's junit-10.xsd allows, as a table: for each element, its
// attributes (those it requires first), the elements it may hold, and whether its time attribute
// follows the plugin's SUREFIRE_TIME pattern. Written from reading that schema, so the project's
// tests hold junit.xml to it without xmllint.

interface Rule {
  required: readonly string[];
  optional: readonly string[];
  children: readonly string[];
  surefireTime?: boolean;
}

const RESULT: Rule = { required: [], optional: ['type', 'message'], children: [] };
const RERUN: Rule = { required: ['type'], optional: ['message'], children: ['stackTrace', 'system-out', 'system-err'] };
const TEXT: Rule = { required: [], optional: [], children: [] };

export const JENKINS_JUNIT_10: Readonly<Record<string, Rule>> = {
  testsuites: { required: [], optional: ['name', 'time', 'tests', 'failures', 'errors'], children: ['testsuite'], surefireTime: true },
  testsuite: {
    required: ['name', 'tests', 'failures', 'errors'],
    optional: ['group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url'],
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    surefireTime: true,
  },
  properties: { required: [], optional: [], children: ['property'] },
  property: { required: ['name', 'value'], optional: [], children: [] },
  testcase: { required: ['name'], optional: ['time', 'classname', 'group'], children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'] },
  failure: RESULT,
  error: RESULT,
  skipped: RESULT,
  rerunFailure: RERUN,
  rerunError: RERUN,
  flakyFailure: RERUN,
  flakyError: RERUN,
  stackTrace: TEXT,
  'system-out': TEXT,
  'system-err': TEXT,
};

const SUREFIRE_TIME = /^(?:(?:[0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(?:\.[0-9]*)?$/;

/** Every way `root` breaks the schema's rules, one line each (empty: valid). The root must be testsuites or testsuite. */
export function junit10Problems(root: XmlElement, rules = JENKINS_JUNIT_10): string[] {
  const problems: string[] = [];
  if (root.name !== 'testsuites' && root.name !== 'testsuite') problems.push(`root <${root.name}> is neither <testsuites> nor <testsuite>`);
  const walk = (e: XmlElement, at: string) => {
    const rule = rules[e.name];
    if (!rule) return void problems.push(`${at}: <${e.name}> is not in the schema`);
    const allowed = new Set([...rule.required, ...rule.optional]);
    for (const a of Object.keys(e.attrs)) if (!allowed.has(a)) problems.push(`${at}: attribute ${a} is not allowed on <${e.name}>`);
    for (const a of rule.required) if (e.attrs[a] === undefined) problems.push(`${at}: <${e.name}> lacks ${a}`);
    if (rule.surefireTime && e.attrs.time !== undefined && !SUREFIRE_TIME.test(e.attrs.time)) problems.push(`${at}: time "${e.attrs.time}" is not a SUREFIRE_TIME`);
    for (const c of e.children) {
      if (!rule.children.includes(c.name)) problems.push(`${at}: <${c.name}> is not allowed in <${e.name}>`);
      walk(c, `${at}/${c.name}`);
    }
  };
  walk(root, root.name);
  return problems;
}

/**
 * What Apache Ant's JUnit schema (windyroad's JUnit.xsd, the one xmllint users validate with)
 * demands, as rules written from reading it: the root <testsuites> has no attributes; each of its
 * <testsuite> has package and id besides the suite's own required attributes, a timestamp of the
 * form YYYY-MM-DDThh:mm:ss (no zone, no fraction), and holds exactly <properties>, then test cases,
 * then <system-out> and <system-err>; a <testcase> needs classname and time and holds at most one
 * of <skipped>, <error>, <failure>; <error> and <failure> need a type.
 */
export function antJunitProblems(root: XmlElement): string[] {
  const problems: string[] = [];
  if (root.name !== 'testsuites') return [`root <${root.name}> is not <testsuites>`];
  for (const a of Object.keys(root.attrs)) problems.push(`testsuites: attribute ${a} is not allowed`);
  const SUITE = ['name', 'timestamp', 'hostname', 'tests', 'failures', 'errors', 'time', 'package', 'id'];
  for (const [i, s] of root.children.entries()) {
    const at = `testsuite[${i}]`;
    if (s.name !== 'testsuite') { problems.push(`testsuites: <${s.name}> is not allowed`); continue; }
    for (const a of SUITE) if (s.attrs[a] === undefined) problems.push(`${at} lacks ${a}`);
    for (const a of Object.keys(s.attrs)) if (![...SUITE, 'skipped'].includes(a)) problems.push(`${at}: attribute ${a} is not allowed`);
    if (s.attrs.timestamp !== undefined && !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/.test(s.attrs.timestamp)) problems.push(`${at}: timestamp "${s.attrs.timestamp}" is not YYYY-MM-DDThh:mm:ss`);
    for (const a of ['tests', 'failures', 'errors', 'id', 'skipped']) if (s.attrs[a] !== undefined && !/^-?\d+$/.test(s.attrs[a]!)) problems.push(`${at}: ${a} is not an int`);
    const names = s.children.map((c) => c.name);
    const cases = names.filter((n) => n === 'testcase').length;
    const expected = ['properties', ...Array<string>(cases).fill('testcase'), 'system-out', 'system-err'];
    if (names.join() !== expected.join()) problems.push(`${at}: holds ${names.join(', ')}; the schema wants properties, test cases, system-out, system-err`);
    for (const c of s.children.filter((x) => x.name === 'testcase')) {
      for (const a of ['name', 'classname', 'time']) if (c.attrs[a] === undefined) problems.push(`${at}/testcase ${c.attrs.name}: lacks ${a}`);
      if (c.children.length > 1 || c.children.some((x) => !['skipped', 'error', 'failure'].includes(x.name))) problems.push(`${at}/testcase ${c.attrs.name}: holds ${c.children.map((x) => x.name).join(', ')}; at most one of skipped, error, failure`);
      for (const r of c.children.filter((x) => x.name !== 'skipped')) if (r.attrs.type === undefined) problems.push(`${at}/testcase ${c.attrs.name}: <${r.name}> lacks type`);
    }
    for (const p of s.children.filter((x) => x.name === 'properties').flatMap((x) => x.children)) if (p.name !== 'property' || !p.attrs.name || p.attrs.value === undefined) problems.push(`${at}/properties: <${p.name}> is not a property with name and value`);
  }
  return problems;
}
