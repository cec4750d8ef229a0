// The bounce breakdown (2.10 bounceBreakdown). A bounce event's data may carry `classification`
// ('sender' | 'recipient' | 'unknown'), `category` and `label`; otherwise they follow from its
// enhanced status code (`status`, RFC 3463 class.subject.detail, e.g. "5.1.1"), and a bounce
// nothing is known of is category `unknown`, classification unknown.
import type { LedgerEvent } from './ledger.ts';
import { pct } from './rates.ts';

type Side = 'sender' | 'recipient' | 'unknown';
interface Kind { category: string; label: string; side: Side }

// By "subject.detail" first, then by subject alone (RFC 3463 section 3).
const BY_CODE: Record<string, Kind> = {
  '1.1': { category: 'bad_mailbox', label: 'Mailbox does not exist', side: 'recipient' },
  '1.2': { category: 'bad_domain', label: 'Domain does not exist', side: 'recipient' },
  '2.1': { category: 'mailbox_disabled', label: 'Mailbox disabled', side: 'recipient' },
  '2.2': { category: 'mailbox_full', label: 'Mailbox full', side: 'recipient' },
  '3.4': { category: 'message_too_large', label: 'Message too large', side: 'sender' },
  '1': { category: 'bad_address', label: 'Address problem', side: 'recipient' },
  '2': { category: 'mailbox_unavailable', label: 'Mailbox unavailable', side: 'recipient' },
  '3': { category: 'mail_system', label: 'Receiving mail system problem', side: 'unknown' },
  '4': { category: 'network', label: 'Network or routing problem', side: 'unknown' },
  '5': { category: 'protocol', label: 'Mail delivery protocol problem', side: 'unknown' },
  '6': { category: 'content', label: 'Message content refused', side: 'sender' },
  '7': { category: 'policy', label: 'Blocked by policy or reputation', side: 'sender' },
};
const UNKNOWN: Kind = { category: 'unknown', label: 'Unknown reason', side: 'unknown' };
const SIDES: readonly string[] = ['sender', 'recipient', 'unknown'];

export function kindOf(e: LedgerEvent): Kind {
  const m = /^[245]\.(\d{1,3})\.(\d{1,3})$/.exec(String(e.data.status ?? '').trim());
  const byCode = m ? (BY_CODE[`${m[1]}.${m[2]}`] ?? BY_CODE[m[1]!] ?? UNKNOWN) : UNKNOWN;
  const str = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined);
  const side = str(e.data.classification);
  return {
    category: str(e.data.category) ?? byCode.category,
    label: str(e.data.label) ?? byCode.label,
    side: side && SIDES.includes(side) ? (side as Side) : byCode.side,
  };
}

export function bounceBreakdownOf(events: LedgerEvent[]) {
  const bounces = events.filter((e) => e.type === 'bounce_hard' || e.type === 'bounce_soft');
  const cats = new Map<string, { category: string; label: string; type: string; count: number }>();
  const sides: Record<Side, number> = { sender: 0, recipient: 0, unknown: 0 };
  for (const e of bounces) {
    const k = kindOf(e);
    const type = e.type === 'bounce_hard' ? 'hard' : 'soft';
    sides[k.side]++;
    const key = `${k.category}\u0000${type}`;
    const c = cats.get(key) ?? { category: k.category, label: k.label, type, count: 0 };
    c.count++;
    cats.set(key, c);
  }
  const total = bounces.length;
  return {
    total,
    hard: bounces.filter((e) => e.type === 'bounce_hard').length,
    soft: bounces.filter((e) => e.type === 'bounce_soft').length,
    senderBounces: sides.sender,
    recipientBounces: sides.recipient,
    unknownBounces: sides.unknown,
    byCategory: [...cats.values()]
      .sort((a, b) => b.count - a.count || a.category.localeCompare(b.category) || a.type.localeCompare(b.type))
      .map((c) => ({ ...c, percentage: pct(c.count, total) })),
  };
}
