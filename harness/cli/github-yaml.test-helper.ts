// GitHub's YAML checked as GitHub checks it, with GitHub's own parser (@actions/workflow-parser,
// the one behind the Actions language server): its action-v1.0 and workflow-v1.0 schemas, then
// the conversion that finds what a schema cannot (a `needs` naming no job, a cycle, a bad cron).
import { convertWorkflowTemplate, NoOperationTraceWriter, parseWorkflow, type TemplateParseResult } from '@actions/workflow-parser';
import { convertActionTemplate, parseAction } from '@actions/workflow-parser/actions/index';
import { stringify } from 'yaml';

const TRACE = new NoOperationTraceWriter();

/** A document as text: YAML text as is, anything else written out as YAML (for edited copies). */
const text = (doc: string | object): string => (typeof doc === 'string' ? doc : stringify(doc));

const messages = (r: TemplateParseResult): string[] => r.context.errors.getErrors().map((e) => e.message);

/** What GitHub's parser refuses in an action's metadata (empty: valid). */
export function actionErrors(doc: string | object, name = 'action.yml'): string[] {
  const parsed = parseAction({ name, content: text(doc) }, TRACE);
  if (parsed.value) convertActionTemplate(parsed.context, parsed.value);
  return messages(parsed);
}

/** What GitHub's parser refuses in a workflow (empty: valid). */
export async function workflowErrors(doc: string | object, name = 'workflow.yml'): Promise<string[]> {
  const parsed = parseWorkflow({ name, content: text(doc) }, TRACE);
  const refused = messages(parsed);
  if (refused.length > 0 || !parsed.value) return refused.length > 0 ? refused : [`${name}: no workflow`];
  const template = await convertWorkflowTemplate(parsed.context, parsed.value);
  return (template.errors ?? []).map((e) => e.Message);
}
