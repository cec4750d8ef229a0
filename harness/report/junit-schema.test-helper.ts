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
