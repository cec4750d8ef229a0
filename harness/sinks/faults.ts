// Deterministic SMTP fault rules: for a mailbox user, sender or recipient, at AUTH / MAIL /
// RCPT / DATA, answer a given code and text, drop the connection, or stall; for the next N
// matching attempts or until cleared. Rules are tried in the order they were added.
import { z } from 'zod';
import type { SmtpStage } from './types.ts';

// eslint-disable-next-line no-control-regex
const NO_CONTROL = /^[^\x00-\x1f\x7f]*$/;

export const faultRuleInputSchema = z
  .object({
    stage: z.enum(['AUTH', 'MAIL', 'RCPT', 'DATA']),
    /** the mailbox user: the AUTH user name at AUTH, the authenticated user later */
    user: z.string().min(1).optional(),
    /** MAIL FROM address (MAIL, RCPT, DATA) */
    sender: z.string().optional(),
    /** RCPT TO address (RCPT: that recipient; DATA: any recipient of the envelope) */
    recipient: z.string().min(1).optional(),
    action: z.enum(['reply', 'drop', 'stall']),
    /** reply code, 400-599; for 'stall' optional (reply after the stall instead of going on) */
    code: z.number().int().min(400).max(599).optional(),
    /** enhanced status code (RFC 3463), e.g. "4.7.1"; sent before the text */
    enhancedCode: z.string().regex(/^[45]\.\d{1,3}\.\d{1,3}$/, 'expected an enhanced status code like 4.7.1 or 5.1.1').optional(),
    text: z.string().max(400).regex(NO_CONTROL, 'text must not contain control characters or line breaks').optional(),
    /** 'stall': how long to wait before answering */
    stallMs: z.number().int().min(1).max(600_000).optional(),
    /** the rule applies to the next N matching attempts; omitted: until cleared */
    times: z.number().int().min(1).optional(),
  })
  .strict()
  .superRefine((r, ctx) => {
    if (r.action === 'reply' && r.code === undefined) ctx.addIssue({ code: 'custom', path: ['code'], message: "required for action 'reply'" });
    if (r.action === 'stall' && r.stallMs === undefined) ctx.addIssue({ code: 'custom', path: ['stallMs'], message: "required for action 'stall'" });
    if (r.action === 'drop' && (r.code !== undefined || r.text !== undefined))
      ctx.addIssue({ code: 'custom', path: ['code'], message: "action 'drop' sends no reply: give no code or text" });
    if (r.enhancedCode && r.code !== undefined && r.enhancedCode[0] !== String(r.code)[0])
      ctx.addIssue({ code: 'custom', path: ['enhancedCode'], message: `class ${r.enhancedCode[0]} does not match reply code ${r.code}` });
    if (r.enhancedCode && r.code === undefined) ctx.addIssue({ code: 'custom', path: ['enhancedCode'], message: 'needs a code' });
    if (r.recipient !== undefined && (r.stage === 'AUTH' || r.stage === 'MAIL'))
      ctx.addIssue({ code: 'custom', path: ['recipient'], message: `recipients are not known yet at ${r.stage}` });
    if (r.sender !== undefined && r.stage === 'AUTH') ctx.addIssue({ code: 'custom', path: ['sender'], message: 'the sender is not known yet at AUTH' });
  });

export type FaultRuleInput = z.input<typeof faultRuleInputSchema>;

export interface FaultRule extends z.output<typeof faultRuleInputSchema> {
  id: string;
  /** uses left; null = until cleared */
  remaining: number | null;
  /** how many times it fired */
  fired: number;
}

/** What the SMTP side knows when it asks for a rule. */
export interface FaultContext {
  user?: string | null;
  sender?: string | null;
  /** RCPT: the one recipient; DATA: every envelope recipient */
  recipients?: string[];
}

export function parseFaultRule(input: unknown): z.output<typeof faultRuleInputSchema> {
  const r = faultRuleInputSchema.safeParse(input);
  if (!r.success) {
    const msg = r.error.issues.map((i) => `${i.path.join('.') || '(rule)'}: ${i.message}`).join('; ');
    throw new FaultRuleError(`invalid fault rule: ${msg}`);
  }
  return r.data;
}

export class FaultRuleError extends Error {
  override name = 'FaultRuleError';
}

/** The reply line text for a rule: "<enhanced> <text>". */
export function faultReplyText(rule: Pick<FaultRule, 'code' | 'enhancedCode' | 'text'>): string {
  const text = rule.text ?? (rule.code !== undefined && rule.code < 500 ? 'Temporary failure (fault injected by the sink)' : 'Permanent failure (fault injected by the sink)');
  return [rule.enhancedCode, text].filter(Boolean).join(' ');
}

const eq = (a: string | null | undefined, b: string) => !!a && a.toLowerCase() === b.toLowerCase();

export class FaultEngine {
  private rules: FaultRule[] = [];
  private seq = 0;

  add(input: unknown): FaultRule {
    const data = parseFaultRule(input);
    const rule: FaultRule = { ...data, id: `f${++this.seq}`, remaining: data.times ?? null, fired: 0 };
    this.rules.push(rule);
    return rule;
  }

  list(): FaultRule[] {
    return this.rules.map((r) => ({ ...r }));
  }

  remove(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length < before;
  }

  clear(): void {
    this.rules = [];
  }

  get size(): number {
    return this.rules.length;
  }

  /** The first rule that matches, with one use consumed (it is removed when used up). */
  take(stage: SmtpStage, ctx: FaultContext): FaultRule | null {
    if (this.rules.length === 0) return null;
    for (const rule of this.rules) {
      if (rule.stage !== stage) continue;
      if (rule.user !== undefined && !eq(ctx.user, rule.user)) continue;
      if (rule.sender !== undefined && !eq(ctx.sender, rule.sender)) continue;
      if (rule.recipient !== undefined && !(ctx.recipients ?? []).some((r) => eq(r, rule.recipient!))) continue;
      rule.fired++;
      if (rule.remaining !== null) {
        rule.remaining--;
        if (rule.remaining <= 0) this.rules = this.rules.filter((r) => r !== rule);
      }
      return { ...rule };
    }
    return null;
  }
}
