// bySmtp and bySequence (2.10): one entry per mailbox / per sequence step that sent in the
// window, each counted like the totals over that mailbox's / step's events. `step` is 1-based
// on the wire (the ledger's is 0-based); `variant` is the step's id in the campaign's sequence.
import type { DB } from '../store/db.ts';
import type { LedgerEvent } from './ledger.ts';
import { breakdownTotalsOf, type CountInputs } from './counters.ts';

function groupBy<K>(events: LedgerEvent[], key: (e: LedgerEvent) => K | null): Map<K, LedgerEvent[]> {
  const out = new Map<K, LedgerEvent[]>();
  for (const e of events) {
    const k = key(e);
    if (k === null) continue;
    const list = out.get(k) ?? [];
    list.push(e);
    out.set(k, list);
  }
  return out;
}

const sentAny = (es: LedgerEvent[]) => es.some((e) => e.type === 'sent');

export function bySmtpOf(db: DB, orgId: string, events: LedgerEvent[], x: CountInputs) {
  const groups = [...groupBy(events, (e) => e.accountId)].filter(([, es]) => sentAny(es));
  const email = db.prepare('SELECT email_address FROM accounts WHERE id = ? AND org_id = ?');
  return groups
    .map(([accountId, es]) => ({
      accountId,
      email: (email.get(accountId, orgId) as { email_address: string } | undefined)?.email_address ?? '',
      totals: breakdownTotalsOf(es, x),
    }))
    .sort((a, b) => b.totals.sent - a.totals.sent || a.email.localeCompare(b.email));
}

export function bySequenceOf(sequence: { id: string }[], events: LedgerEvent[], x: CountInputs) {
  const groups = [...groupBy(events, (e) => e.step)].filter(([, es]) => sentAny(es));
  return groups
    .sort(([a], [b]) => a - b)
    .map(([step, es]) => ({ step: step + 1, variant: sequence[step]?.id ?? `step-${step + 1}`, totals: breakdownTotalsOf(es, x) }));
}
