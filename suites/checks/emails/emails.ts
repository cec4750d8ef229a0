import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import { fieldName, fillPath, resultPath } from '../../../harness/ground/operations.ts';
import type { StoredMessage } from '../../../harness/sinks/index.ts';
import type { Check, CheckContext, Workspace } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectSchema, expectThat, is2xx, msg } from '../../lib/expect.ts';
import { faker, walk } from '../../lib/recipes.ts';
import { op } from '../resources/lib.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, Driver, contentOf, launch, leadAddresses, sendingMailbox, sentBy, type SendingMailbox } from '../sending/lib.ts';
import { mailSinks } from '../../lib/sinks.ts';
import { campaignAnalytics, weekStart } from '../analytics/lib.ts';
import { campaignAnalyticsFor } from '../../../harness/ground/spec-model/schemas/index.ts';

// Inbox emails (2.7, 4.5) of real traffic: a campaign email the kit's sink received, and a lead's
// reply the sink put into the mailbox's IMAP inbox. The spec gives no listing of emails; the kit
// finds their ids through the referenced operation `emails.list` the profile declares (4.5:
// "the email stops appearing in listings").

const FEATURES = ['sinks', 'op:accounts.get', 'op:leads.list', 'op:emails.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
const bare = (id: unknown) => String(id ?? '').trim().replace(/^<|>$/g, '');

/** Replies to an email through the referenced emails.reply (its body field the profile's); true on a 2xx. */
async function sendReply(ctx: CheckContext, api: ApiClient, id: string, text: string): Promise<boolean> {
  const o = op(ctx, 'emails.reply');
  const res = await api.request({ method: o.method, path: fillPath(o.path, { id }), body: { [fieldName(o, 'body')]: text } });
  return is2xx(res);
}

/** The workspace's emails (referenced emails.list), optionally filtered by campaign and lead. */
export async function listEmails(ctx: CheckContext, api: ApiClient, filter: { campaignId?: string; leadId?: string } = {}): Promise<any[]> {
  const o = op(ctx, 'emails.list');
  const query = Object.fromEntries(Object.entries(filter).map(([k, v]) => [fieldName(o, k), v as string]));
  const items = (await walk(ctx.profile, api, o.path, resultPath(o, 'items'), 100, query)) as any[];
  // A target may ignore a filter it was given: hold the items to it here.
  return items.filter((e) => (!filter.campaignId || e.campaignId === filter.campaignId) && (!filter.leadId || e.leadId === filter.leadId));
}

interface Sent {
  ws: Workspace;
  box: SendingMailbox;
  drv: Driver;
  campaignId: string;
  lead: { id: string; email: string };
  token: string;
  /** the campaign email as the sink received it */
  m: StoredMessage;
}

/** A started campaign whose one step reached its one lead (real time suffices: the first step is due at once). */
async function sentEmail(ctx: CheckContext, needImap = false, workspace?: Workspace, mailbox: Record<string, unknown> = {}): Promise<Sent> {
  const ws = workspace ?? (await ctx.workspace());
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...mailbox }, needImap);
  const token = `Tok${faker(ctx).string.alphanumeric(10)}`;
  const [address] = leadAddresses(ctx, 1);
  const c = await launch(ctx, ws, { accounts: [box.id], leads: [address!], steps: [{ subject: `Inbox ${token}`, body: `<p>Hello ${token}</p>` }] });
  const drv = new Driver(ctx, box.sink, sentBy(box));
  await drv.until(() => drv.to(address!).length > 0, { stepMs: MINUTE, horizonMs: 10 * MINUTE, wallCapMs: 90_000, what: 'the campaign email' });
  const [a] = drv.to(address!);
  expectThat(a, msg`the started campaign's step did not reach ${address}`, c.res);
  return { ws, box, drv, campaignId: c.id, lead: c.leads[0]!, token, m: a.m };
}

/** The id of a campaign email the target sent from `ws` (for checks that need any inbox email). */
export async function sentEmailId(ctx: CheckContext, ws: Workspace): Promise<string> {
  const s = await sentEmail(ctx, false, ws);
  return (await listed(ctx, s, 'sent', 'the campaign email')).id as string;
}

/**
 * The listed email of `type` of the campaign (and of its lead, unless `byLead` is false), waiting
 * (with background work) up to the horizon.
 */
async function listed(ctx: CheckContext, s: Sent, type: 'sent' | 'received', what: string, byLead = true): Promise<any> {
  let found: any;
  let polls = 0;
  const filter = byLead ? { campaignId: s.campaignId, leadId: s.lead.id } : { campaignId: s.campaignId };
  await s.drv.until(
    async () => {
      if (++polls % 2 !== 1) return false;
      found = (await listEmails(ctx, s.ws.api, filter)).find((e) => e.type === type);
      return found !== undefined;
    },
    { stepMs: 2 * MINUTE, horizonMs: 2 * 60 * MINUTE, wallCapMs: 90_000, inbox: type === 'received', what },
  );
  expectThat(found, msg`${what}: no ${type} email of campaign ${s.campaignId}${byLead ? ` and lead ${s.lead.id}` : ''} appears in the listing (referenced emails.list)`);
  return found;
}

/**
 * A reply from the lead in the mailbox's IMAP inbox, and the received email the target made of it.
 * Found by its campaign alone (the campaign has one lead), so that its leadId is read, not presumed.
 */
async function received(ctx: CheckContext, s: Sent, body: string): Promise<{ email: any; messageId: string }> {
  const r = await s.box.sink.inject.reply(s.m, { body });
  const email = await listed(ctx, s, 'received', "the lead's reply", false);
  return { email, messageId: r.messageId };
}

async function getEmail(api: ApiClient, id: string) {
  return api.get(`/v1/emails/${id}`);
}

/** Is a message with this Message-ID still in the user's IMAP INBOX? (the kit's own IMAP login) */
async function onServer(s: Sent, messageId: string): Promise<boolean> {
  const imap = s.box.creds.imap;
  if (!imap) skip('the IMAP sink is unavailable');
  // Loaded here, not at the top: imapflow takes a third of a second to load and only this check
  // reads the server copy; every run's worker would pay it before its first check.
  const { ImapFlow } = await import('imapflow');
  const client = new ImapFlow({ host: imap.host, port: imap.port, secure: false, auth: { user: imap.username, pass: imap.password }, tls: { rejectUnauthorized: false }, logger: false });
  // A socket error (the server resetting after LOGOUT) comes as an 'error' event: unheard, it would
  // take the worker down; a failure that matters rejects the awaited call instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const lock = await client.getMailboxLock('INBOX');
    try {
      const uids = await client.search({ header: { 'message-id': bare(messageId) } }, { uid: true });
      return Array.isArray(uids) && uids.length > 0;
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}

/** Letters and digits only, lowercased: a preview may drop markup, punctuation and entities. */
const wordsOf = (s: string) => s.toLowerCase().replace(/<[^>]*>/g, ' ').split(/[^\p{L}\p{N}]+/u).filter(Boolean);

/** `snippet` is a short preview: not empty, and every word of it comes from the email (a cut last word too). */
function expectPreview(snippet: unknown, sources: unknown[], res: ApiResponse) {
  const mine = wordsOf(String(snippet ?? ''));
  expectThat(typeof snippet === 'string' && mine.length > 0, msg`snippet is a short preview of the email: it must not be empty, got ${JSON.stringify(snippet)}`, res);
  const content = wordsOf(sources.filter((x) => typeof x === 'string').join(' ')).join(' ');
  const foreign = mine.filter((w) => !content.includes(w));
  expectThat(foreign.length === 0, msg`snippet must preview the email's own content (subject or body), it carries ${JSON.stringify(foreign.slice(0, 5))} found nowhere in it: ${JSON.stringify(snippet)}`, res);
}

/**
 * The sending campaign's analytics with every breakdown asked (4.6: a window start, the repeated
 * parameter): each object of 2.10 in its shape, and a bySmtp row, where one is listed yet, the
 * sending mailbox's by id and address. Its counts are not held: a target may aggregate later.
 */
async function expectCampaignAnalyticsShape(ctx: CheckContext, s: { ws: Workspace; campaignId: string; box: { id: string; address: string } }): Promise<void> {
  const what = "the sending campaign's analytics with breakdown=smtp&breakdown=sequence&breakdown=bounce";
  const a = await campaignAnalytics(ctx, s.ws.api, s.campaignId, await weekStart(ctx), [['breakdown', 'smtp'], ['breakdown', 'sequence'], ['breakdown', 'bounce']]);
  expect2xx(a, what);
  expectSchema(a, campaignAnalyticsFor(['smtp', 'sequence', 'bounce']), what);
  const strange = (a.body.bySmtp as any[]).filter((r) => r.accountId !== s.box.id || String(r.email).toLowerCase() !== s.box.address.toLowerCase());
  expectThat(strange.length === 0, msg`${what}: a bySmtp row names a sending mailbox by its id and address (${s.box.id} ${s.box.address}), got ${JSON.stringify(strange.map((r) => ({ accountId: r.accountId, email: r.email })))}`, a);
}

export const EMAIL_CHECKS: Check[] = [
  {
    id: 'EMAIL/sent',
    title: 'MUST answer GET /v1/emails/{id} of a sent campaign email with every field of 2.7 and its real body; listings carry no body',
    clauses: [
      'SVC-EMAIL-READ', 'EMAIL-GET-ANSWER', 'EMAIL-GET-200-REAL-CONTENT', 'EMAIL-GET-ONLY-BODY', 'EMAIL-ID-UUID', 'RES-ID-UUID', 'EMAIL-THREADID', 'EMAIL-MESSAGEID',
      'EMAIL-MAILBOX', 'EMAIL-FROM', 'EMAIL-RECIPIENTS', 'EMAIL-SUBJECT', 'EMAIL-SNIPPET', 'EMAIL-ISUNREAD', 'EMAIL-TYPE-ENUM', 'EMAIL-CAMPAIGNID',
      'EMAIL-LEADID', 'EMAIL-HASATTACHMENTS', 'EMAIL-TIMESTAMPS', 'EMAIL-BODY-OBJECT', 'EMAIL-BODY-NULL-PART',
      // The same email read again once its stored body cannot be read (with the control API's email-unreadable).
      'EMAIL-GET-503-UNREADABLE',
      // Its campaign's analytics read with every breakdown (another view of what was sent): each object of 2.10 in its shape.
      'ANLT-TOTALS-COUNTS', 'ANLT-TOTALS-OPENS-CLICKS', 'ANLT-TOTALS-RATES', 'ANLT-PERIOD-START-END', 'ANLT-PERIOD-CLAMPED', 'ANLT-PERIOD-RETENTIONDAYS',
      'ANLT-BYSMTP-FIELDS', 'ANLT-BYSEQUENCE-FIELDS', 'ANLT-BOUNCE-FIELDS',
    ],
    level: 'MUST',
    features: [...FEATURES],
    uses: ['control:email-unreadable'],
    budget: 32,
    async run(ctx) {
      // A mailbox with a bcc setting (2.1): where the target lists that copy in the email's bcc, its form is read too.
      const s = await sentEmail(ctx, false, undefined, { bcc: `${ctx.prefix}archive@example.test` });
      const item = await listed(ctx, s, 'sent', 'the campaign email');
      expectThat(!('body' in item), msg`GET /v1/emails/{id} is the only endpoint returning a body, yet the listing's item carries body`);
      const res = await getEmail(s.ws.api, item.id);
      expect2xx(res, 'GET /v1/emails/{id} of the sent campaign email');
      expectSchema(res, 'Email', 'GET /v1/emails/{id}');
      const e = res.body;
      expectThat(e.id === item.id && e.type === 'sent', msg`the email read must be the listed sent email ${item.id}, got id ${e.id} type ${e.type}`, res);
      expectThat(e.mailbox.id === s.box.id && String(e.mailbox.email).toLowerCase() === s.box.address.toLowerCase(), msg`mailbox must be the sending mailbox ${s.box.id} ${s.box.address}, got ${JSON.stringify(e.mailbox)}`, res);
      expectThat(String(e.from.email).toLowerCase() === s.box.address.toLowerCase(), msg`from.email must be the sending mailbox ${s.box.address}, got ${JSON.stringify(e.from)}`, res);
      // 2.7 names from's `name`: the sending mailbox has a first and last name, so a sent email has one to give.
      expectThat(typeof e.from.name === 'string', msg`from must carry name (2.7: \`from\` (\`email\`, \`name\`)) for an email sent from a mailbox with a name, got ${JSON.stringify(e.from)}`, res);
      expectThat(e.to.some((t: string) => t.toLowerCase().includes(s.lead.email)), msg`to must hold the lead ${s.lead.email}, got ${JSON.stringify(e.to)}`, res);
      expectThat(e.campaignId === s.campaignId && e.leadId === s.lead.id, msg`campaignId and leadId must be the campaign ${s.campaignId} and lead ${s.lead.id}, got ${e.campaignId} and ${e.leadId}`, res);
      expectThat(e.subject.includes(s.token), msg`subject must be the one sent (with ${s.token}), got ${JSON.stringify(e.subject)}`, res);
      expectThat(e.hasAttachments === false, msg`the campaign email carried no attachment, hasAttachments is ${e.hasAttachments}`, res);
      // sentAt is typed by the schema where present; 2.7 does not say a sent email must carry it.
      const sink = await contentOf(s.m);
      expectThat(sink.html === '' || typeof e.body.html === 'string', msg`the email was sent with an HTML part, so body.html was stored and must not be null`, res);
      expectThat(sink.text === '' || typeof e.body.text === 'string', msg`the email was sent with a text part, so body.text was stored and must not be null`, res);
      expectPreview(e.snippet, [e.subject, e.body.text, e.body.html, sink.text, sink.html], res);
      const content = `${e.body.html ?? ''}${e.body.text ?? ''}`;
      expectThat(content.includes(s.token), msg`a 200 carries real content: the body must hold what was sent (${s.token}), got ${JSON.stringify(content.slice(0, 160))}`, res);
      await expectCampaignAnalyticsShape(ctx, s);
      // Its stored body then made unreadable: 503, never a 200 without content (last: the email stays so).
      if (!ctx.control || !(await ctx.control.extensions()).includes('email-unreadable')) return ctx.log('no control email-unreadable: the email is not read with its body unreadable');
      await ctx.control.request('POST', `/emails/${item.id}/unreadable`);
      expectError(await getEmail(s.ws.api, item.id), 503, ctx.profile, 'GET /v1/emails/{id} of the sent email once its stored body cannot be read', 'upstream_unavailable');
    },
  },
  {
    id: 'EMAIL/sent-matches-wire',
    title: "SHOULD give a sent email the Message-ID and the text and HTML parts that reached the lead's server",
    clauses: ['EMAIL-MESSAGEID-WIRE', 'EMAIL-GET-BODY-MATCHES'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 30,
    async run(ctx) {
      const s = await sentEmail(ctx);
      const item = await listed(ctx, s, 'sent', 'the campaign email');
      const res = await getEmail(s.ws.api, item.id);
      expect2xx(res, 'GET /v1/emails/{id}');
      expectThat(bare(res.body?.messageId) === bare(s.m.messageIdHeader), msg`messageId ${res.body?.messageId} should be the Message-ID that reached the sink, ${s.m.messageIdHeader}`, res);
      const sink = await contentOf(s.m);
      const norm = (x: unknown) => String(x ?? '').replace(/\s+/g, ' ').trim();
      if (sink.html) expectThat(norm(res.body?.body?.html) === norm(sink.html), msg`body.html should be the HTML part sent (${sink.html.length} chars at the sink), got ${JSON.stringify(String(res.body?.body?.html).slice(0, 120))}`, res);
      if (sink.text) expectThat(norm(res.body?.body?.text) === norm(sink.text), msg`body.text should be the text part sent, got ${JSON.stringify(String(res.body?.body?.text).slice(0, 120))}`, res);
    },
  },
  {
    id: 'EMAIL/received',
    title: "SHOULD list a lead's reply as a received email in the sent email's thread, with the body the lead wrote and its Message-ID (and the sent email with the Message-ID that left)",
    clauses: ['EMAIL-THREADID-STABLE', 'EMAIL-GET-BODY-MATCHES', 'EMAIL-MESSAGEID-WIRE'],
    level: 'SHOULD',
    features: [...FEATURES, 'imap'],
    // Waiting for the IMAP poll moves the target's clock: alone, so no other check sees it jump.
    solo: true,
    budget: 40,
    async run(ctx) {
      const s = await sentEmail(ctx, true);
      const sent = await listed(ctx, s, 'sent', 'the campaign email');
      const words = `Reply ${faker(ctx).string.alphanumeric(12)} from the lead`;
      const { email, messageId } = await received(ctx, s, words);
      const res = await getEmail(s.ws.api, email.id);
      expect2xx(res, 'GET /v1/emails/{id} of the received reply');
      expectThat(String(res.body?.body?.text ?? res.body?.body?.html ?? '').includes(words), msg`the received email's body should be what the lead wrote ("${words}")`, res);
      expectThat(bare(res.body?.messageId) === bare(messageId), msg`messageId ${res.body?.messageId} should be the reply's Message-ID ${messageId}`, res);
      // Read again now: a target may give the sent email its thread only once the reply came.
      const now = await getEmail(s.ws.api, sent.id);
      expect2xx(now, 'GET /v1/emails/{id} of the sent campaign email after the reply');
      // The other half of the reading: the sent email's messageId is the Message-ID that left.
      expectThat(bare(now.body?.messageId) === bare(s.m.messageIdHeader), msg`the sent email's messageId ${now.body?.messageId} should be the Message-ID that reached the sink, ${s.m.messageIdHeader}`, now);
      const [thread, reply] = [now.body?.threadId, res.body?.threadId];
      expectThat(typeof reply === 'string' && reply === thread, msg`the reply should be in the sent email's conversation (one threadId, a string): the reply's threadId is ${JSON.stringify(reply)}, the sent email's ${JSON.stringify(thread)}`, res, now);
      if (typeof sent.threadId === 'string') expectThat(thread === sent.threadId, msg`threadId is passed back as is: the sent email was listed with ${JSON.stringify(sent.threadId)}, GET now answers ${JSON.stringify(thread)}`, now);
    },
  },
  {
    id: 'EMAIL/delete',
    title: "MUST answer a received email in the fields of 2.7 (a uuid id, body an object with html and text holding what the lead wrote, recipients as address strings, the lead's leadId, a snippet of its own content, hasAttachments a boolean, ISO 8601 timestamps), answer 404 to another workspace on both email endpoints, and DELETE /v1/emails/{id} with { id, deleted: true }, leave it out of listings, and leave the copy on the mail server",
    // The received email's own fields (the inbox ingestion is a path of its own): EMAIL/sent reads the sent one.
    clauses: [
      'SVC-EMAIL-DELETE', 'EMAIL-DELETE-ANSWER', 'EMAIL-DELETE-HIDDEN', 'EMAIL-DELETE-SERVER-UNTOUCHED', 'EMAIL-RECIPIENTS', 'EMAIL-FROM', 'EMAIL-LEADID', 'EMAIL-SNIPPET', 'EMAIL-ID-UUID', 'EMAIL-BODY-OBJECT',
      'EMAIL-HASATTACHMENTS', 'EMAIL-TIMESTAMPS', 'RES-TS-ISO8601', 'AUTH-KEY-IDENTIFIES-WORKSPACE', 'TENANT-ISOLATION', 'EMAIL-GET-ANSWER', 'SVC-EMAIL-READ',
      'EMAIL-SUBJECT', 'EMAIL-THREADID', 'EMAIL-ISUNREAD', 'EMAIL-MESSAGEID', 'EMAIL-TYPE-ENUM', 'EMAIL-MAILBOX', 'EMAIL-BODY-NULL-PART',
      'RES-ID-UUID', 'EMAIL-GET-200-REAL-CONTENT',
    ],
    level: 'MUST',
    features: [...FEATURES, 'imap', 'twoWorkspaces'],
    // Waiting for the IMAP poll moves the target's clock: alone, so no other check sees it jump.
    solo: true,
    budget: 44,
    async run(ctx) {
      const s = await sentEmail(ctx, true);
      const words = `Delete me ${ctx.prefix}`;
      const { email, messageId } = await received(ctx, s, words);
      expectThat(await onServer(s, messageId), msg`setup: the reply ${messageId} is not in the mailbox's IMAP inbox`);
      // A received email is an email of 2.7 too: a uuid id, a body object with html and text, recipients as address strings,
      // hasAttachments a boolean, sentAt and receivedAt ISO 8601 (not the Date header's form), its sender the lead.
      const got = await getEmail(s.ws.api, email.id);
      expectSchema(got, 'Email', 'GET /v1/emails/{id} of a received reply');
      const e = got.body;
      expectThat(e.to.some((t: string) => t.toLowerCase().includes(s.box.address.toLowerCase())), msg`the reply went to the mailbox ${s.box.address}: to must hold it, got ${JSON.stringify(e.to)}`, got);
      expectThat(String(e.from.email).toLowerCase() === s.lead.email.toLowerCase(), msg`the reply came from the lead ${s.lead.email}: from.email must be it, got ${JSON.stringify(e.from)}`, got);
      // The lead's reply to the campaign's email is the lead's email, as the email it answers is.
      expectThat(e.leadId === s.lead.id, msg`the reply came from the campaign's lead ${s.lead.id}, answering the email sent to it: leadId must be that lead, got ${JSON.stringify(e.leadId)}`, got);
      // Its type, mailbox and subject as 2.7 gives them: a received email, in the mailbox it reached, its subject the reply's (Re: the step's).
      expectThat(e.type === 'received', msg`the listed received reply read by GET must say type received, got ${JSON.stringify(e.type)}`, got);
      expectThat(e.mailbox?.id === s.box.id && String(e.mailbox?.email).toLowerCase() === s.box.address.toLowerCase(), msg`mailbox must be the mailbox the reply reached, ${s.box.id} ${s.box.address}, got ${JSON.stringify(e.mailbox)}`, got);
      expectThat(typeof e.subject === 'string' && e.subject.includes(s.token), msg`subject must be the reply's (it answers the step with ${s.token}), got ${JSON.stringify(e.subject)}`, got);
      // The reply was written as a text part: stored, so never null (2.7).
      expectThat(typeof e.body?.text === 'string', msg`the reply was received with a text part, so body.text was stored and must not be null, got ${JSON.stringify(e.body?.text)}`, got);
      // It has content (what the lead wrote): its snippet previews it, not its headers or nothing.
      expectPreview(e.snippet, [e.subject, e.body?.text, e.body?.html, words], got);
      // A 200 carries real content (4.5): the stored body holds what the lead wrote, never a placeholder.
      const stored = wordsOf(`${e.body?.text ?? ''} ${e.body?.html ?? ''}`);
      const lost = wordsOf(words).filter((w) => !stored.includes(w));
      expectThat(lost.length === 0, msg`a 200 carries real content: the received email's body must hold what the lead wrote ("${words}"), it lacks ${JSON.stringify(lost)}: ${JSON.stringify(e.body)}`, got);
      // The key identifies the workspace: to another one this email is absent (404, never read, never deleted).
      const other = await ctx.workspace();
      if (other.organizationId !== undefined && other.organizationId === s.ws.organizationId) skip('the run could not lease a second workspace');
      expectError(await getEmail(other.api, email.id), 404, ctx.profile, "GET /v1/emails/{id} of another workspace's email", 'not_found');
      expectError(await other.api.delete(`/v1/emails/${email.id}`), 404, ctx.profile, "DELETE /v1/emails/{id} of another workspace's email", 'not_found');
      // The sent half too: the campaign's email to the lead (sent mail is often kept apart from the inbox).
      const sent = (await listEmails(ctx, s.ws.api, { campaignId: s.campaignId })).find((x) => x.type === 'sent');
      expectThat(sent, msg`setup: the campaign's sent email is not listed beside the reply`);
      // A third writer of emails: the reply the API sends (referenced emails.reply). Where it is listed under the
      // campaign, it is an email the workspace sent: type sent (2.7 knows no other kind of outgoing email).
      const answered = ctx.profile.operations['emails.reply'] ? await sendReply(ctx, s.ws.api, email.id, `Answered ${ctx.prefix}`) : false;
      const deleted: string[] = [];
      let del: ApiResponse | undefined;
      for (const id of [email.id, sent.id] as string[]) {
        del = await s.ws.api.delete(`/v1/emails/${id}`);
        expect2xx(del, 'DELETE /v1/emails/{id}');
        expectThat(del.body?.id === id && del.body?.deleted === true, msg`DELETE /v1/emails/{id} must answer { id: ${id}, deleted: true }, got ${JSON.stringify(del.body)}`, del);
        deleted.push(id);
      }
      const after = await listEmails(ctx, s.ws.api, { campaignId: s.campaignId });
      const still = after.filter((e) => deleted.includes(e.id)).map((e) => `${e.id} (${e.type})`);
      expectThat(still.length === 0, msg`a deleted email must stop appearing in listings; still listed: ${still.join(', ')}`, del!);
      // The campaign's two emails are gone: what is still listed under it is the API's reply.
      const reply = answered ? after.find((e) => !deleted.includes(e.id)) : undefined;
      if (reply) {
        const r = await getEmail(s.ws.api, reply.id);
        expect2xx(r, 'GET /v1/emails/{id} of the reply sent through the API');
        expectThat(r.body?.type === 'sent', msg`the reply sent through the API (referenced emails.reply) is an email the workspace sent: type must be sent, got ${JSON.stringify(r.body?.type)}`, r);
      }
      expectThat(await onServer(s, messageId), msg`the copy on the mail server must be untouched: the reply ${messageId} is gone from the IMAP inbox after the delete`, del!);
    },
  },
  {
    id: 'EMAIL/delete-then-404',
    title: 'SHOULD answer 404 to GET /v1/emails/{id} of a deleted email',
    clauses: ['EMAIL-DELETE-GET-404'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 30,
    async run(ctx) {
      const s = await sentEmail(ctx);
      const item = await listed(ctx, s, 'sent', 'the campaign email');
      expect2xx(await s.ws.api.delete(`/v1/emails/${item.id}`), 'DELETE /v1/emails/{id}');
      expectError(await getEmail(s.ws.api, item.id), 404, ctx.profile, 'GET /v1/emails/{id} after its delete', 'not_found');
    },
  },
  {
    id: 'EMAIL/other-workspace',
    title: "SHOULD answer 404 on both email endpoints for another workspace's email, and leave it in place",
    clauses: ['EMAIL-OTHER-WORKSPACE-404'],
    level: 'SHOULD',
    features: [...FEATURES, 'twoWorkspaces'],
    budget: 32,
    async run(ctx) {
      const s = await sentEmail(ctx);
      const item = await listed(ctx, s, 'sent', 'the campaign email');
      const other = await ctx.workspace();
      if (other.organizationId && other.organizationId === s.ws.organizationId) skip('the run could not lease a second workspace');
      expectError(await getEmail(other.api, item.id), 404, ctx.profile, "GET /v1/emails/{id} of another workspace's email", 'not_found');
      expectError(await other.api.delete(`/v1/emails/${item.id}`), 404, ctx.profile, "DELETE /v1/emails/{id} of another workspace's email", 'not_found');
      expect2xx(await getEmail(s.ws.api, item.id), "GET /v1/emails/{id} by its own workspace after the other's attempt");
    },
  },
  {
    id: 'EMAIL/unreadable-503',
    title: 'MUST answer 503 upstream_unavailable, never a 200 without content, when the stored body cannot be read',
    clauses: ['EMAIL-GET-503-UNREADABLE', 'EMAIL-GET-200-REAL-CONTENT', 'ERR-TABLE-503'],
    level: 'MUST',
    features: [...FEATURES, 'control:email-unreadable'],
    budget: 30,
    async run(ctx) {
      const s = await sentEmail(ctx);
      const item = await listed(ctx, s, 'sent', 'the campaign email');
      await ctx.control!.request('POST', `/emails/${item.id}/unreadable`);
      expectError(await getEmail(s.ws.api, item.id), 503, ctx.profile, 'GET /v1/emails/{id} whose stored body cannot be read', 'upstream_unavailable');
    },
  },
  {
    id: 'EMAIL/too-large-413',
    title: 'MUST answer 413 body_too_large for an email larger than the target returns inline (profile: emailBodyInlineMax)',
    clauses: ['EMAIL-GET-413', 'ERR-TABLE-413'],
    level: 'MUST',
    features: [...FEATURES, 'imap', 'decl:declarations.emailBodyInlineMax'],
    // Waiting for the IMAP poll moves the target's clock: alone, so no other check sees it jump.
    solo: true,
    budget: 40,
    async run(ctx) {
      const max = ctx.profile.declarations.emailBodyInlineMax;
      if (!max) skip('needs declarations.emailBodyInlineMax in the profile (the largest email GET /v1/emails/{id} returns inline)');
      if (max * 1.5 > mailSinks(ctx)!.sizeLimit * 0.9) skip(`the declared inline maximum (${max} bytes) is too close to the sink's message size limit`);
      const s = await sentEmail(ctx, true);
      const line = 'This reply is long on purpose. '.repeat(3) + '\n';
      const { email } = await received(ctx, s, line.repeat(Math.ceil((max * 1.5) / line.length)));
      expectError(await getEmail(s.ws.api, email.id), 413, ctx.profile, `GET /v1/emails/{id} of a reply of ${Math.round((max * 1.5) / 1024)} KiB (inline maximum ${Math.round(max / 1024)} KiB)`, 'body_too_large');
    },
  },
];
