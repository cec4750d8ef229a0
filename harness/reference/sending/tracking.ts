// Open and click tracking served on the public port, outside /v1 and without a key (a lead's mail
// client fetches them): GET /t/o/{emailId} answers a 1x1 GIF and records an open; GET
// /t/c/{emailId}/{n} answers 302 to the n-th original link of that email and records a click.
// Each is an `events` row and moves the lead's metrics (opened, clicked) and the campaign's
// (opens, clicks). Unknown tokens still get the pixel (nothing recorded) or a 404.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Services } from '../request/context.ts';
import type { CampaignDoc } from '../domain/campaign.ts';

const PIXEL = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
const PATH = /^\/t\/(o|c)\/([0-9a-f-]{36})(?:\/(\d{1,4}))?$/;

interface SentRow { id: string; org_id: string; campaign_id: string | null; lead_id: string | null; account_id: string | null; step: number | null; doc: string }

/** Serves a tracking URL; false when `path` is not one (the API pipeline takes it). */
export function serveTracking(s: Services, req: IncomingMessage, res: ServerResponse, path: string): boolean {
  const m = PATH.exec(path);
  if (!m || (req.method ?? 'GET').toUpperCase() !== 'GET') return false;
  const [, kind, emailId, n] = m;
  const row = s.db.prepare("SELECT id, org_id, campaign_id, lead_id, account_id, step, doc FROM emails WHERE id = ? AND direction = 'sent'").get(emailId) as SentRow | undefined;
  if (kind === 'o') {
    if (row) record(s, row, 'open');
    res.writeHead(200, { 'content-type': 'image/gif', 'content-length': String(PIXEL.length), 'cache-control': 'no-store' });
    res.end(PIXEL);
    return true;
  }
  const url = row ? (JSON.parse(row.doc) as { links?: string[] }).links?.[Number(n)] : undefined;
  if (!row || !url) {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
    res.end('Unknown link.');
    return true;
  }
  record(s, row, 'click');
  const location = s.mutant('send-click-redirect-drops-query') ? url.replace(/[?#].*$/s, '') : url;
  res.writeHead(302, { location, 'content-length': '0', 'cache-control': 'no-store' });
  res.end();
  return true;
}

function record(s: Services, e: SentRow, type: 'open' | 'click'): void {
  if (!e.campaign_id || !e.lead_id) return;
  const now = s.clock.now();
  s.db.transaction(() => {
    s.db.prepare('INSERT INTO events (id, org_id, campaign_id, lead_id, account_id, email_id, step, type, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)').run(s.newId(), e.org_id, e.campaign_id, e.lead_id, e.account_id, e.id, e.step, type, now);
    const lead = s.db.prepare('SELECT doc FROM leads WHERE id = ?').get(e.lead_id) as { doc: string } | undefined;
    if (lead) {
      const ld = JSON.parse(lead.doc) as Record<string, any>;
      const key = type === 'open' ? 'opened' : 'clicked';
      ld.metrics = { ...ld.metrics, [key]: (ld.metrics?.[key] ?? 0) + 1 };
      // The mutants move the lead to `opened` or `clicked`, platform statuses its declared table lacks.
      const moved = type === 'open' ? s.mutant('send-lead-open-moves-undeclared') : s.mutant('send-lead-click-moves-undeclared');
      s.db.prepare(`UPDATE leads SET doc = ?${moved ? ', status = ?' : ''} WHERE id = ?`).run(JSON.stringify(ld), ...(moved ? [key] : []), e.lead_id);
    }
    const camp = s.db.prepare('SELECT doc FROM campaigns WHERE id = ?').get(e.campaign_id) as { doc: string } | undefined;
    if (camp && !(type === 'open' && s.mutant('send-open-campaign-uncounted'))) {
      const cd = JSON.parse(camp.doc) as CampaignDoc;
      if (type === 'open') cd.metrics.opens += 1;
      else cd.metrics.clicks += 1;
      s.db.prepare('UPDATE campaigns SET doc = ? WHERE id = ?').run(JSON.stringify(cd), e.campaign_id);
    }
  })();
}
