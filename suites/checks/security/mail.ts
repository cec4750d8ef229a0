import type { StoredMessage } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { fail, msg } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, is2xx } from '../../lib/expect.ts';
import { faker } from '../../lib/recipes.ts';
import { allLeads, mustGetMailbox } from '../resources/lib.ts';
import { NEEDS_MERGE_VARIABLES, mergeVariable } from '../sending/delivery.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, QUIET_SETTINGS, contentOf, leadAddresses, openSchedule, sendingMailbox, sentBy, startCampaign, type SendingMailbox } from '../sending/lib.ts';

// Mail injection, read at the kit's SMTP sink: values a caller controls (a step's subject, a
// lead's names and custom fields, a mailbox's names) carry CR/LF and header lines, HTML and
// script; what arrives must keep them inside their field: no extra header, no extra recipient,
// no markup from a merge value in the HTML body, no script from a signature.

const FEATURES = ['sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
const FIRST_ARRIVAL = { stepMs: MINUTE, horizonMs: 10 * MINUTE, wallCapMs: 90_000 };

interface Sent {
  ws: Workspace;
  box: SendingMailbox;
  lead: string;
  m: StoredMessage;
  /** Every message this check's mailbox sent (the campaign's and any copy). */
  all: StoredMessage[];
  notes: string[];
}

/**
 * One mailbox, one lead, one step; hostile values are given where the target may refuse them
 * (a refusal is a fine answer to them: the value then simply does not travel).
 */
async function sendHostile(ctx: CheckContext, o: { mailbox?: Record<string, unknown>; mailboxPatch?: Record<string, unknown>; subject: string; cleanSubject: string; body: string; lead?: Record<string, unknown> }): Promise<Sent> {
  const ws = await ctx.workspace();
  const notes: string[] = [];
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...o.mailbox });
  for (const [k, v] of Object.entries(o.mailboxPatch ?? {})) {
    const r = await ws.api.patch(`/v1/accounts/${box.id}`, { [k]: v });
    if (!is2xx(r)) notes.push(`mailbox ${k} refused (${r.status})`);
  }
  const [lead] = leadAddresses(ctx, 1, 'inj');
  const campaign = (subject: string) => ({ name: `${ctx.prefix}injection`, schedule: openSchedule(ctx), settings: QUIET_SETTINGS, sequence: [{ subject, body: o.body, delayDays: 0, delayHours: 0 }], accounts: [box.id], leads: [lead] });
  let c = await ws.api.post('/v1/campaigns', campaign(o.subject));
  if (!is2xx(c) && c.status < 500) {
    notes.push(`a step subject with CR/LF refused (${c.status})`);
    c = await ws.api.post('/v1/campaigns', campaign(o.cleanSubject));
  }
  expect2xx(c, 'setup: POST /v1/campaigns');
  const id = c.body?.campaign?.id as string;
  const leads = await allLeads(ctx, ws.api, id);
  const leadId = leads[0]?.id as string;
  for (const [k, v] of Object.entries(o.lead ?? {})) {
    const r = await ws.api.patch(`/v1/campaigns/${id}/leads/${leadId}`, { [k]: v });
    if (!is2xx(r)) notes.push(`lead ${k} refused (${r.status})`);
  }
  await startCampaign(ws.api, id);
  const drv = new Driver(ctx, box.sink, sentBy(box));
  await drv.until(() => drv.to(lead!).length > 0, { ...FIRST_ARRIVAL, what: 'the first step of a started campaign' });
  const got = drv.to(lead!);
  expectThat(got.length >= 1, msg`the started campaign's step did not reach ${lead}`, c);
  return { ws, box, lead: lead!, m: got[0]!.m, all: box.sink.messages(sentBy(box)), notes };
}

/** The script markup a stored signature still holds (only markup counts: a sanitizer may keep what it removes as escaped text). */
function markupIn(signature: unknown): string[] {
  const s = String(signature ?? '');
  return [['<script', /<script/i], ['an event handler', /<[^>]*\son\w+\s*=/i], ['a javascript: URL', /<[^>]*javascript:/i]].filter(([, re]) => (re as RegExp).test(s)).map(([what]) => what as string);
}

const crlf = (line: string) => `\r\n${line}`;

export const MAIL_CHECKS: Check[] = [
  {
    id: 'SEC-MAIL/merge-injection',
    title: "SHOULD keep caller values inside their field in the email sent: CR/LF in a subject, a lead's names and custom fields or a mailbox's names adds no header and no recipient, and HTML in a merge value is escaped in the HTML body",
    clauses: ['CAMP-SEQUENCE-NO-HEADER-INJECTION', 'CAMP-SEQUENCE-MERGE-HTML-ESCAPED'],
    level: 'SHOULD',
    features: [...FEATURES, NEEDS_MERGE_VARIABLES],
    budget: 30,
    async run(ctx) {
      const first = mergeVariable(ctx, 'firstName');
      const company = mergeVariable(ctx, 'companyName');
      const t = faker(ctx).string.alphanumeric(8).toLowerCase();
      const hdr = `x-injected-${t}`;
      const evil = `${ctx.prefix}evil-${t}@evil.sink.test`.toLowerCase();
      const inject = (where: string) => `${crlf(`${hdr}: ${where}`)}${crlf(`Bcc: ${evil}`)}`;
      const sent = await sendHostile(ctx, {
        subject: `Hello ${first}${inject('subject')} from {{robust${t}}}`,
        cleanSubject: `Hello ${first} from {{robust${t}}}`,
        body: `<p>Dear ${first} of ${company}</p>`,
        mailboxPatch: { displayName: `Sam${inject('display')}`.slice(0, 128), firstName: `Sam${crlf(`${hdr}: first`)}`, lastName: `Lee${crlf(`Cc: ${evil}`)}` },
        lead: {
          firstName: `<img src=x onerror=alert('${t}')>${inject('lead')}`,
          companyName: `<script>alert('${t}')</script>`,
          lastName: `Doe${crlf(`To: ${evil}`)}`,
          customFields: { [`robust${t}`]: `v${inject('custom')}` },
        },
      });
      const problems: string[] = [];
      for (const m of sent.all) {
        const p = await m.parsed();
        const extra = Object.keys(p.headers).filter((name) => name === hdr || name === 'bcc');
        if (extra.length) problems.push(`a message to ${m.envelope.rcptTo.join(', ')} carries the injected header(s) ${extra.join(', ')}`);
        for (const name of ['subject', 'from', 'to']) {
          const n = p.headers[name]?.length ?? 0;
          if (n > 1) problems.push(`a message carries ${n} ${name} headers`);
        }
        const strangers = m.envelope.rcptTo.filter((r) => r.toLowerCase() !== sent.lead);
        if (strangers.length) problems.push(`a message went to ${strangers.join(', ')} besides the lead`);
        if ([...p.to, ...p.cc].some((a) => a.address?.toLowerCase() === evil)) problems.push(`the injected address ${evil} is a recipient in the headers of a message to ${m.envelope.rcptTo.join(', ')}`);
      }
      const html = (await contentOf(sent.m)).html.toLowerCase();
      if (html.includes(`<script>alert('${t}')`) || html.includes(`<img src=x onerror=alert('${t}')`)) problems.push('a merge value became markup in the HTML body (it must be escaped)');
      if (problems.length) fail(msg`${problems.slice(0, 4).join('; ')}${sent.notes.length ? ` (refused: ${sent.notes.join(', ')})` : ''}`);
    },
  },
  {
    id: 'SEC-MAIL/signature-script',
    title: "MUST append a mailbox's signature without its script: no <script>, event handler or javascript: URL of the signature reaches the email sent, nor stays in the mailbox read back or in a signature PATCHed later (sanitized on save)",
    clauses: ['ACCT-SIGNATURE-APPENDED', 'ACCT-IN-SIGNATURE-SANITIZED'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 17,
    async run(ctx) {
      const t = faker(ctx).string.alphanumeric(8).toLowerCase();
      const signature = `<p>Sig${t}</p><script>alert('${t}')</script><img src="https://example.com/${t}.png" onerror="alert('${t}')"><a href="javascript:alert('${t}')">x</a><p>&lt;script&gt;alert('${t}e')&lt;/script&gt;</p>`;
      const sent = await sendHostile(ctx, { mailbox: { signature }, subject: `Signature ${ctx.prefix}`, cleanSubject: `Signature ${ctx.prefix}`, body: '<p>Hello</p>' });
      const c = await contentOf(sent.m);
      const html = c.html.toLowerCase();
      expectThat(html.includes(`sig${t}`) || c.text.toLowerCase().includes(`sig${t}`), msg`the mailbox's signature (Sig${t}) must be appended to the email sent, it is not in the body`);
      const found = [['<script', /<script/], ['an event handler', /\son\w+\s*=/], ['a javascript: URL', /javascript:/]].filter(([, re]) => (re as RegExp).test(html)).map(([what]) => what);
      expectThat(found.length === 0, msg`the HTML body sent carries ${found.join(', ')} from the signature (sanitized on save, so the signature appended must be the sanitized one)`);
      // Sanitized on save: what is stored (read back) holds none of it either, not only the mail.
      const stored = await mustGetMailbox(ctx, sent.ws.api, sent.box.id);
      // Only markup counts: a sanitizer may keep what it removes as escaped text.
      const kept = markupIn(stored.body.signature);
      expectThat(kept.length === 0, msg`the signature is sanitized on save (2.2), yet the mailbox read back still holds ${kept.join(', ')}: ${JSON.stringify(stored.body.signature).slice(0, 200)}`, stored);
      // Saved by PATCH too (a handler of its own): the mailbox it answers holds none of the markup either.
      const patched = await sent.ws.api.patch(`/v1/accounts/${sent.box.id}`, { signature: signature.replaceAll(t, `${t}p`) });
      expect2xx(patched, 'PATCH /v1/accounts/{id} with a <script> in the signature');
      const again = markupIn(patched.body?.signature);
      expectThat(again.length === 0, msg`the signature is sanitized on save (2.2), yet the mailbox a PATCH of the signature answers holds ${again.join(', ')}: ${JSON.stringify(patched.body?.signature).slice(0, 200)}`, patched);
    },
  },
];
