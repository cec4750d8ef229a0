// Reading the `events` ledger (the only source of analytics: never the tallies kept on campaign
// and lead docs). Events are attributed to their mailbox and sequence step from the event row,
// or else from the email it concerns (an open or a reply may be recorded with the email only).
// Test emails (emails.kind 'test') are not campaign traffic: their events never count.
import type { DB } from '../store/db.ts';

export type EventType = 'sent' | 'failed' | 'open' | 'click' | 'reply' | 'ooo' | 'bounce_hard' | 'bounce_soft' | 'unsubscribe';

export interface LedgerEvent {
  type: EventType;
  at: number;
  campaignId: string;
  leadId: string | null;
  accountId: string | null;
  emailId: string | null;
  /** 0-based sequence step, when known. */
  step: number | null;
  data: Record<string, unknown>;
}

/** Which campaigns a request reads: one campaign, or every campaign of the workspace. */
export type Scope = { orgId: string; campaignId: string } | { orgId: string; campaignId?: undefined };

const NOT_TEST = "(m.kind IS NULL OR m.kind <> 'test')";

function scopeSql(s: Scope): { where: string; params: unknown[] } {
  return s.campaignId !== undefined
    ? { where: `e.org_id = ? AND e.campaign_id = ? AND ${NOT_TEST}`, params: [s.orgId, s.campaignId] }
    : { where: `e.org_id = ? AND e.campaign_id IN (SELECT id FROM campaigns WHERE org_id = ?) AND ${NOT_TEST}`, params: [s.orgId, s.orgId] };
}

function parseData(raw: string | null): Record<string, unknown> {
  if (!raw) return {};
  try {
    const v = JSON.parse(raw);
    return v && typeof v === 'object' && !Array.isArray(v) ? v : {};
  } catch {
    return {};
  }
}

interface Row { type: EventType; at: number; campaign_id: string; lead_id: string | null; account_id: string | null; email_id: string | null; step: number | null; data: string | null }

/** The scope's events at `from` .. `to` (inclusive), oldest first. */
export function eventsIn(db: DB, s: Scope, from: number, to: number): LedgerEvent[] {
  const { where, params } = scopeSql(s);
  const rows = db
    .prepare(
      `SELECT e.type, e.at, e.campaign_id, e.lead_id, COALESCE(e.account_id, m.account_id) AS account_id, e.email_id,
              COALESCE(e.step, m.step) AS step, e.data
         FROM events e LEFT JOIN emails m ON m.id = e.email_id
        WHERE ${where} AND e.at >= ? AND e.at <= ? ORDER BY e.at, e.id`,
    )
    .all(...params, from, to) as Row[];
  return rows.map((r) => ({
    type: r.type, at: r.at, campaignId: r.campaign_id, leadId: r.lead_id, accountId: r.account_id, emailId: r.email_id, step: r.step,
    data: parseData(r.data),
  }));
}

/** Keys of a sent email: its email id, and its lead and step (a bounce may carry either). */
export const sendKeys = (e: Pick<LedgerEvent, 'emailId' | 'leadId' | 'step'>): string[] => {
  const keys: string[] = [];
  if (e.emailId) keys.push(`email:${e.emailId}`);
  if (e.leadId && e.step !== null) keys.push(`lead:${e.leadId}:${e.step}`);
  return keys;
};

/**
 * Sent emails that bounced, at any time (a send in the window stays undelivered when its bounce
 * came later): a send is delivered unless one of its keys is here.
 */
export function bouncedKeys(db: DB, s: Scope, types: EventType[]): Set<string> {
  const { where, params } = scopeSql(s);
  const rows = db
    .prepare(
      `SELECT e.email_id, e.lead_id, COALESCE(e.step, m.step) AS step FROM events e LEFT JOIN emails m ON m.id = e.email_id
        WHERE ${where} AND e.type IN (${types.map(() => '?').join(', ')})`,
    )
    .all(...params, ...types) as { email_id: string | null; lead_id: string | null; step: number | null }[];
  return new Set(rows.flatMap((r) => sendKeys({ emailId: r.email_id, leadId: r.lead_id, step: r.step })));
}

/** Current status of every lead of the scope (deleted leads too: their history still counts). */
export function leadStatuses(db: DB, s: Scope): Map<string, string> {
  const rows = (s.campaignId !== undefined
    ? db.prepare('SELECT id, status FROM leads WHERE org_id = ? AND campaign_id = ?').all(s.orgId, s.campaignId)
    : db.prepare('SELECT id, status FROM leads WHERE org_id = ?').all(s.orgId)) as { id: string; status: string }[];
  return new Map(rows.map((r) => [r.id, r.status]));
}
