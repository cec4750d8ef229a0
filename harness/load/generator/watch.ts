import { z } from 'zod';
import { errorEnvelopeFor, schemaByName } from '../../ground/spec-model/schemas/index.ts';
import type { Redactor } from '../../client/redact.ts';
import type { Violation } from '../report/types.ts';
import type { FlowRequest } from './flows.ts';

// Conformance while under load: every answer to a valid request is held to the spec. A 5xx, an
// error without the envelope of part 7, a 429 the plan did not allow (the load stays under every
// workspace's budget) and, on a sample, a 2xx whose body breaks the spec model's schema are
// violations with evidence (redacted), like a failure of a conformance run.

/** Violations kept per rule with their evidence; the rest are counted. */
const KEEP_PER_RULE = 20;
/** Every answer of an endpoint's first SAMPLE_FIRST is schema-checked, then one in SAMPLE_EVERY. */
const SAMPLE_FIRST = 5;
const SAMPLE_EVERY = 20;
const BODY_MAX = 2000;

export interface Answer {
  status: number;
  text: string;
  /** ms since the run's start */
  at: number;
  error?: string;
}

export class Watch {
  readonly violations: Violation[] = [];
  /** rule -> how many times it broke (kept or not) */
  readonly counts: Record<string, number> = {};
  private seen = new Map<string, number>();

  constructor(
    private readonly redactor: Redactor,
    private readonly opts: { businessRuleErrorCode?: string } = {},
  ) {}

  /** Holds one answer to the spec; returns whether it conformed. */
  check(req: FlowRequest, a: Answer): boolean {
    const n = (this.seen.get(req.label) ?? 0) + 1;
    this.seen.set(req.label, n);
    if (a.status === 0) return this.add('answer', [], `no answer: ${a.error ?? 'transport failure'}`, req, a);
    if (a.status >= 500) return this.add('no 5xx', ['ERR-ENVELOPE'], `a valid request answered ${a.status} (part 7 allows a 5xx only as 503 upstream_unavailable of the test email and GET email)`, req, a);
    if (a.status === 429) return this.add('unplanned 429', ['RATE-120-PER-60S'], 'a request within the planned per-workspace budget answered 429', req, a);
    if (a.status >= 400) {
      const env = parse(a.text, errorEnvelopeFor(a.status, { extra400Codes: this.opts.businessRuleErrorCode ? [this.opts.businessRuleErrorCode] : 'any' }));
      if (env) this.add('error envelope', ['ERR-ENVELOPE'], `a ${a.status} without the error envelope of part 7: ${env}`, req, a);
      return this.add('valid request refused', [], `a valid request answered ${a.status}`, req, a);
    }
    if (a.status < 200 || a.status > 299) return this.add('valid request refused', [], `a valid request answered ${a.status}`, req, a);
    if (req.schema && (n <= SAMPLE_FIRST || n % SAMPLE_EVERY === 0)) {
      const item = schemaByName(req.schema);
      const schema = req.list ? z.looseObject({ data: z.array(item), meta: z.looseObject({ hasMore: z.boolean() }) }) : item;
      const problem = parse(a.text, schema);
      if (problem) return this.add('schema', [], `the answer breaks the spec model's ${req.schema}${req.list ? ' list' : ''}: ${problem}`, req, a);
    }
    return true;
  }

  private add(rule: string, clauses: string[], message: string, req: FlowRequest, a: Answer): false {
    this.counts[rule] = (this.counts[rule] ?? 0) + 1;
    if (this.counts[rule]! <= KEEP_PER_RULE)
      this.violations.push({
        rule,
        ...(clauses.length ? { clauses } : {}),
        message: this.redactor.text(message),
        request: { method: req.method, path: this.redactor.text(req.path) },
        response: { status: a.status, body: this.redactor.text(a.text.slice(0, BODY_MAX)) },
        at: Math.round(a.at),
      });
    return false;
  }

  /** One line per rule that broke, with how many times (kept evidence is capped). */
  summary(): string[] {
    return Object.entries(this.counts).map(([rule, n]) => `${rule}: ${n}${n > KEEP_PER_RULE ? ` (evidence kept for ${KEEP_PER_RULE})` : ''}`);
  }
}

/** undefined when `text` is JSON that `schema` accepts; otherwise what is wrong, in one line. */
function parse(text: string, schema: z.ZodType): string | undefined {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  const r = schema.safeParse(json);
  if (r.success) return undefined;
  return r.error.issues
    .slice(0, 3)
    .map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`)
    .join('; ');
}
