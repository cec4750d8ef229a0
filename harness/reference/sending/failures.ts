// 3.2 "active -> repeated sending failures (system) -> failed; statusMessage holds the provider
// reason": consecutive refusals are counted on the mailbox (doc.sendFailures); the chosen number
// of them in a row turns an active mailbox failed, with the provider's answer as statusMessage.
// A success resets the count. Failures inside the service never reach here (2.1: statusMessage
// stays null for those).
import type { DB } from '../store/db.ts';
import type { Choices } from '../switches/choices.ts';
import type { SmtpFailure } from '../mail/transport.ts';
import type { MutantSwitch } from '../switches/mutants.ts';

/** Refusals in a row that fail the mailbox: the chosen count (the mutants fail at the first, or two late). */
function threshold(c: Choices, mutant: MutantSwitch): number {
  if (mutant('send-failures-first-refusal')) return 1;
  return c.sending.failuresBeforeFailed + (mutant('send-failures-threshold-late') ? 2 : 0);
}

export function recordSendFailure(db: DB, accountId: string, f: SmtpFailure, now: number, c: Choices, mutant: MutantSwitch): void {
  const a = db.prepare('SELECT status, doc FROM accounts WHERE id = ?').get(accountId) as { status: string; doc: string } | undefined;
  if (!a) return;
  const doc = JSON.parse(a.doc) as Record<string, unknown>;
  const failures = ((doc.sendFailures as number | undefined) ?? 0) + 1;
  doc.sendFailures = failures;
  let status = a.status;
  if (a.status === 'active' && failures >= threshold(c, mutant) && !mutant('send-failures-never-fail')) {
    status = 'failed';
    const reason = mutant('send-statusmessage-generic') ? { code: 'send_failed', command: '', responseCode: 0, response: '', message: 'Sending failed.' } : f.toStatus();
    doc.statusMessage = { ...reason, occurredAt: new Date(now).toISOString() };
  }
  db.prepare('UPDATE accounts SET status = ?, doc = ?, updated_at = ? WHERE id = ?').run(status, JSON.stringify(doc), now, accountId);
}

export function recordSendSuccess(db: DB, accountId: string): void {
  const a = db.prepare('SELECT doc FROM accounts WHERE id = ?').get(accountId) as { doc: string } | undefined;
  if (!a) return;
  const doc = JSON.parse(a.doc) as Record<string, unknown>;
  if (!doc.sendFailures) return;
  doc.sendFailures = 0;
  db.prepare('UPDATE accounts SET doc = ? WHERE id = ?').run(JSON.stringify(doc), accountId);
}
