import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { skip } from '../../../harness/ground/check.ts';
import { expect2xx, expectThat, msg } from '../../lib/expect.ts';
import { drainAll } from '../../lib/drain.ts';
import { faker } from '../../lib/recipes.ts';
import { holdEach } from '../../lib/claims.ts';
import { NEEDS_OPEN_SCHEDULE, NEEDS_SENDING_MAILBOX, WARMUP_OFF, Driver, contentOf, launch, launchedAtOnce, leadAddresses, sendingMailbox, sendingMailboxes, sentBy, startCampaign, type SendingMailbox } from './lib.ts';

// What arrives when a campaign sends (2.1 mailbox fields, 2.5 sequence and settings), read at the
// kit's SMTP sink. Every check here needs only real time: the first step of a started campaign
// whose window is open is due at once. Checks that need time to pass are in timing.ts.

const FEATURES = ['sinks', 'op:accounts.get', 'op:leads.list', NEEDS_SENDING_MAILBOX, NEEDS_OPEN_SCHEDULE] as const;
const MINUTE = 60_000;
/** Real-time bound for a first step to arrive (declared gaps of a minute, several mailboxes). */
const FIRST_ARRIVAL = { stepMs: MINUTE, horizonMs: 10 * MINUTE, wallCapMs: 90_000 };

/** What mergeVariable() needs of the profile (the schema gives both names together): every check that calls it lists it. */
export const NEEDS_MERGE_VARIABLES = 'decl:declarations.mergeVariables' as const;

/** The declared merge-variable name for a lead field (2.5: "such as company name and first name"). */
export function mergeVariable(ctx: CheckContext, field: 'firstName' | 'companyName'): string {
  const name = ctx.profile.declarations.mergeVariables?.[field];
  if (!name) skip(`needs declarations.mergeVariables.${field} in the profile (the name written between double braces for a lead's ${field})`);
  return `{{${name}}}`;
}

/**
 * One lead, one step, launched with the create (launchedAtOnce), or with `by: 'start'` created and
 * then started (POST /start, what STATE-CAMP-START-BEGINS is about); returns the arrival at that lead.
 */
async function sendOne(ctx: CheckContext, mailboxOverrides: Record<string, unknown>, step: { subject: string; body: string }, settings: Record<string, boolean> = {}, by: 'launch' | 'start' = 'launch') {
  const ws = await ctx.workspace();
  const box = await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...mailboxOverrides });
  const [lead] = leadAddresses(ctx, 1);
  const o = { accounts: [box.id], leads: [lead!], steps: [step], settings };
  const c = by === 'start' ? await launch(ctx, ws, o) : await launchedAtOnce(ctx, ws, o);
  const drv = new Driver(ctx, box.sink, sentBy(box), ws.api.organizationId);
  await drv.until(() => drv.to(lead!).length > 0, { ...FIRST_ARRIVAL, what: 'the first step of a started campaign' });
  const got = drv.to(lead!);
  expectThat(got.length === 1, msg`the started campaign's one step must reach ${lead} once, ${got.length} message(s) arrived`, c.res);
  return { ws, box, lead: lead!, campaign: c, m: got[0]!.m };
}

type Sent = Awaited<ReturnType<typeof sendOne>>['m'];
type Content = Awaited<ReturnType<typeof contentOf>>;

/** STATE-CAMP-START-BEGINS: the step came through the campaign's mailbox's SMTP login. */
function began(box: SendingMailbox, m: Sent, token: string): void {
  expectThat(m.session.authUser === box.smtpUser, msg`the campaign email must go through its mailbox's SMTP login ${box.smtpUser}, it came with ${JSON.stringify(m.session.authUser)}`);
  expectThat((m.subject ?? '').includes(token), msg`the email must be the campaign's step (subject with ${token}), got ${JSON.stringify(m.subject)}`);
}

/** ACCT-SIGNATURE-APPENDED. */
async function signatureAppended(m: Sent, sig: string): Promise<void> {
  const c = await contentOf(m);
  expectThat(c.html.includes(sig) || c.text.includes(sig), msg`the mailbox's signature (${sig}) must be appended to the email sent, it is not in the body`);
}

/** ACCT-REPLYTO-BEHAVIOUR. */
function replyToHeld(m: Sent, replyTo: string): void {
  expectThat((m.header('reply-to') ?? '').toLowerCase().includes(replyTo), msg`replyToAddress ${replyTo} must be where replies go (Reply-To), got Reply-To ${JSON.stringify(m.header('reply-to'))}`);
}

/** ACCT-BCC-BEHAVIOUR: a blind copy reaches the bcc (envelope), and what the lead receives never shows it. */
function blindCopyHeld(box: SendingMailbox, m: Sent, lead: string, bcc: string): void {
  const blind = box.sink.messages((x) => !x.injected && x.session.authUser === box.smtpUser && x.envelope.rcptTo.some((r) => r.toLowerCase() === bcc));
  expectThat(blind.length >= 1, msg`the mailbox's bcc ${bcc} must receive a blind copy: no message from ${box.address} was addressed to it (envelope)`);
  const headerText = (x: Sent) => x.raw.toString('utf8').split(/\r?\n\r?\n/)[0]!.toLowerCase();
  // A copy sent to the bcc alone may be addressed to it (To:): that is a correct reading of a blind copy too.
  const seenByLead = [m, ...blind.filter((x) => x.envelope.rcptTo.some((r) => r.toLowerCase() === lead.toLowerCase()))];
  for (const x of seenByLead) expectThat(!headerText(x).includes(bcc), msg`a blind copy must not show: ${bcc} appears in the headers of the message to ${lead}`);
  expectThat(!/^bcc:/im.test(headerText(m)), msg`the email to the lead must carry no Bcc header`);
}

/** ACCT-DISPLAYNAME-SENDER. */
function displayNameHeld(box: SendingMailbox, m: Sent, name: string): void {
  const from = m.header('from') ?? '';
  expectThat(from.includes(name), msg`displayName is the sender display name: From must carry the mailbox's displayName "${name}", got ${JSON.stringify(from)}`);
  expectThat(from.toLowerCase().includes(box.address.toLowerCase()), msg`From must name the mailbox's address ${box.address} with its display name, got ${JSON.stringify(from)}`);
}

/** The body as sent: the text part and the HTML part without its head (where a document may repeat the subject as its title). */
const bodyOf = (x: Content) => `${x.text}\n${x.html.replace(/<head\b[\s\S]*?<\/head>/i, '')}`;

/**
 * CAMP-SEQUENCE-MERGE-RENDERED: the declared variables replaced by the lead's own values, firstName
 * in the subject, firstName and companyName in the body (each step's body names both).
 */
function mergeRendered(x: Content, names: { first: string; company: string }, v: { firstName: string; companyName: string }, to: string): void {
  const raw = [names.first, names.company].filter((name) => `${x.subject}${x.text}${x.html}`.includes(name));
  expectThat(raw.length === 0, msg`the declared merge variables must be rendered: ${raw.join(' and ')} left as written in the email to ${to}, subject ${JSON.stringify(x.subject)}`);
  expectThat(x.subject.includes(v.firstName), msg`the subject to ${to} must carry its firstName ${v.firstName} (${names.first}), got ${JSON.stringify(x.subject)}`);
  const body = bodyOf(x);
  expectThat(body.includes(v.firstName), msg`the body to ${to} must carry its firstName ${v.firstName} (${names.first}), it reads ${JSON.stringify((x.text || body).slice(0, 200))}`);
  expectThat(body.includes(v.companyName), msg`the body to ${to} must carry its companyName ${v.companyName} (${names.company})`);
}

/** CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE in the body, written "Before {{name}} after": as declared, left as written or nothing at all. */
function unknownRendered(x: Content, name: string, declared: 'verbatim' | 'empty'): void {
  const body = x.text || x.html.replace(/<[^>]*>/g, ' ');
  if (declared === 'verbatim') {
    expectThat(x.text.includes(`{{${name}}}`) || x.html.includes(`{{${name}}}`), msg`declared verbatim: the unknown variable {{${name}}} should stay as written in the body, it reads ${JSON.stringify(body.slice(0, 200))}`);
    return;
  }
  // Nothing at all: the words around it meet (only space between), no fallback word.
  expectThat(!`${x.text}\n${x.html}`.includes(name) && !`${x.text}\n${x.html}`.includes('{{'), msg`declared empty: the unknown variable {{${name}}} should render to nothing, the body still holds it: ${JSON.stringify(body.slice(0, 200))}`);
  expectThat(/Before\s+after/.test(body), msg`declared empty: the body should read "Before after" (nothing where the variable was), it reads ${JSON.stringify(body.slice(0, 200))}`);
}

/** CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE in the subject, written "Before {{name}} after": a subject may be merged by another path than the body. */
function unknownInSubject(subject: string, name: string, declared: 'verbatim' | 'empty'): void {
  if (declared === 'verbatim') {
    expectThat(subject.includes(`Before {{${name}}} after`), msg`declared verbatim: the unknown variable {{${name}}} should stay as written in the subject, it reads ${JSON.stringify(subject)}`);
    return;
  }
  // Nothing at all: the words around it meet, no fallback word, no blanked subject.
  expectThat(!subject.includes(name) && /(^|\s)Before\s+after(\s|$)/.test(subject), msg`declared empty: the subject should read "Before after" (nothing where the unknown variable {{${name}}} was), it reads ${JSON.stringify(subject)}`);
}

export const DELIVERY_CHECKS: Check[] = [
  {
    id: 'SEND/start-begins',
    title: "MUST begin sending when a campaign starts: its first step reaches the lead through the campaign's mailbox",
    clauses: ['STATE-CAMP-START-BEGINS'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 16,
    async run(ctx) {
      const token = `${ctx.prefix}begin-${ctx.seed.toString(36)}`;
      const { box, m } = await sendOne(ctx, {}, { subject: `Begin ${token}`, body: `<p>Begin ${token}</p>` }, {}, 'start');
      began(box, m, token);
    },
  },
  {
    id: 'SEND/mailbox-fields',
    title: "MUST send with the mailbox's signature appended, its replyToAddress as Reply-To, and its bcc as a blind copy (an envelope recipient, never a header)",
    clauses: ['ACCT-SIGNATURE-APPENDED', 'ACCT-REPLYTO-BEHAVIOUR', 'ACCT-BCC-BEHAVIOUR'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 16,
    async run(ctx) {
      const f = faker(ctx);
      const sig = `Sig${f.string.alphanumeric(10)}`;
      const replyTo = `${ctx.prefix}replies-${f.string.alphanumeric(6)}@replies.sink.test`.toLowerCase();
      const bcc = `${ctx.prefix}bcc-${f.string.alphanumeric(6)}@bcc.sink.test`.toLowerCase();
      const { box, m, lead } = await sendOne(ctx, { signature: `<p>${sig}</p>`, replyToAddress: replyTo, bcc }, { subject: `Fields ${ctx.prefix}`, body: '<p>Hello there</p>' });
      await signatureAppended(m, sig);
      replyToHeld(m, replyTo);
      blindCopyHeld(box, m, lead, bcc);
    },
  },
  {
    id: 'SEND/display-name',
    title: "MUST send with the mailbox's displayName as the sender display name: From carries it with the mailbox's address",
    clauses: ['ACCT-DISPLAYNAME-SENDER'],
    level: 'MUST',
    features: [...FEATURES],
    budget: 16,
    async run(ctx) {
      const name = `Sender ${faker(ctx).string.alpha(8)}`;
      const { box, m } = await sendOne(ctx, { displayName: name }, { subject: `Name ${ctx.prefix}`, body: '<p>Name</p>' });
      displayNameHeld(box, m, name);
    },
  },
  {
    id: 'SEND/text-only',
    title: 'SHOULD send text/plain only, without an HTML part, when sendAsTextOnly is true',
    clauses: ['CAMP-SETTINGS-TEXTONLY-BEHAVIOUR'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 16,
    async run(ctx) {
      const token = `Plain${faker(ctx).string.alphanumeric(8)}`;
      const { m } = await sendOne(ctx, {}, { subject: `Text ${ctx.prefix}`, body: `<p>${token} <b>bold</b></p>` }, { sendAsTextOnly: true });
      const c = await contentOf(m);
      expectThat(!c.html, msg`with sendAsTextOnly the email should have no HTML part, it has one`);
      expectThat(/^text\/plain/i.test((m.header('content-type') ?? 'text/plain').trim()), msg`with sendAsTextOnly the email should be text/plain, Content-Type is ${JSON.stringify(m.header('content-type'))}`);
      expectThat(c.text.includes(token), msg`the text part should carry the step's text (${token})`);
    },
  },
  {
    id: 'SEND/tracking-off',
    title: 'SHOULD send no open pixel and leave links as written when trackOpens and trackClicks are false',
    clauses: ['CAMP-SETTINGS-TRACKING-BEHAVIOUR'],
    level: 'SHOULD',
    features: [...FEATURES],
    budget: 16,
    async run(ctx) {
      const url = `https://example.com/${ctx.prefix}${faker(ctx).string.alphanumeric(8)}`;
      const { m } = await sendOne(ctx, {}, { subject: `Links ${ctx.prefix}`, body: `<p>Read <a href="${url}">this</a></p>` }, { trackOpens: false, trackClicks: false });
      const c = await contentOf(m);
      expectThat(c.html.includes(`href="${url}"`), msg`with trackClicks false the link should stay ${url}; the HTML part does not carry it as written`);
      const imgs = c.html.match(/<img\b/gi) ?? [];
      expectThat(imgs.length === 0, msg`with trackOpens false the email should carry no image (open pixel), it carries ${imgs.length}`);
    },
  },
  {
    id: 'SEND/merge-variables',
    title: "MUST replace the merge variables the profile declares by the lead's values in the email sent (declarations.mergeVariables)",
    clauses: ['CAMP-SEQUENCE-MERGE-RENDERED'],
    level: 'PROFILE',
    features: [...FEATURES, NEEDS_MERGE_VARIABLES],
    budget: 20,
    async run(ctx) {
      const first = mergeVariable(ctx, 'firstName');
      const company = mergeVariable(ctx, 'companyName');
      const ws = await ctx.workspace();
      // Two mailboxes for two leads: each may send its first email at once, where one would wait its gap (a minute) between them.
      const boxes = await sendingMailboxes(ctx, ws, 2, { sendingGapMinutes: 1 });
      const addresses = leadAddresses(ctx, 2);
      const c = await launch(ctx, ws, { accounts: boxes.map((b) => b.id), leads: addresses, steps: [{ subject: `Hi ${first}`, body: `<p>Dear ${first} of ${company} &amp; co</p>` }], draft: true });
      const f = faker(ctx);
      // Plain letters: how a value with markup is escaped is SEC-MAIL/merge-injection's reading.
      const who = new Map<string, { firstName: string; companyName: string }>();
      for (const l of c.leads) {
        const v = { firstName: `Ann${f.string.alpha(6)}`, companyName: `Acme${f.string.alpha(5)}` };
        who.set(l.email, v);
        expect2xx(await ws.api.patch(`/v1/campaigns/${c.id}/leads/${l.id}`, v), 'setup: PATCH /v1/campaigns/{cid}/leads/{leadId}');
      }
      await startCampaign(ws.api, c.id);
      const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes), ws.api.organizationId);
      await drv.until(() => addresses.every((a) => drv.to(a).length > 0), { ...FIRST_ARRIVAL, what: 'the first step to both leads' });
      for (const a of addresses) {
        const got = drv.to(a);
        expectThat(got.length > 0, msg`nothing reached ${a}`);
        mergeRendered(await contentOf(got[0]!.m), { first, company }, who.get(a)!, a);
      }
    },
  },
  {
    id: 'SEND/usage-monthly',
    title: 'SHOULD count every campaign email sent in monthly_emails usage',
    clauses: ['USAGE-MONTHLY-EMAILS-SENDS'],
    level: 'SHOULD',
    features: [...FEATURES, 'exclusiveWorkspace'],
    budget: 24,
    async run(ctx) {
      // Only sends move monthly_emails usage: checks that send no mail may share the workspace (and its rate budget) meanwhile.
      const ws = await ctx.workspace({ exclusive: true, lendsToMailless: true });
      // One mailbox is enough: usage counts sends, whichever mailbox made them. Warmup off: whether
      // a target counts warmup mail in monthly_emails is not said (2.9), so none is sent.
      const boxes = [await sendingMailbox(ctx, ws, { sendingGapMinutes: 1, ...WARMUP_OFF })];
      const used = async () => {
        const r = await ws.api.get('/v1/usage/monthly_emails');
        expect2xx(r, 'GET /v1/usage/monthly_emails');
        expectThat(typeof r.body?.used === 'number', msg`GET /v1/usage/monthly_emails must carry used (number), got ${JSON.stringify(r.body)?.slice(0, 200)}`, r);
        return r;
      };
      const before = await used();
      const addresses = leadAddresses(ctx, 2);
      const c = await launchedAtOnce(ctx, ws, { accounts: boxes.map((b) => b.id), leads: addresses, steps: [{ subject: `Usage ${ctx.prefix}`, body: '<p>Usage</p>' }] });
      const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes), ws.api.organizationId);
      const both = await drv.until(() => addresses.every((a) => drv.to(a).length > 0), { ...FIRST_ARRIVAL, what: 'the first step to both leads' });
      expectThat(both, msg`the started campaign's step did not reach its 2 leads within 10 minutes (gap 1 minute)`, c.res);
      const sent = drv.arrivals().length;
      const after = await used();
      expectThat(after.body.used - before.body.used === sent, msg`monthly_emails used should grow by the ${sent} campaign emails sent, it went from ${before.body.used} to ${after.body.used}`, before, after, c.res);
    },
  },
  {
    id: 'SEND/unknown-variable',
    title: 'MUST render a merge variable it does not know as the profile declares (empty, or left as written)',
    clauses: ['CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE'],
    level: 'PROFILE',
    features: [...FEATURES, 'decl:declarations.unknownMergeVariable'],
    budget: 16,
    async run(ctx) {
      const declared = ctx.profile.declarations.unknownMergeVariable;
      if (!declared) skip('needs declarations.unknownMergeVariable in the profile (what a merge variable the target does not know renders to)');
      const name = `zzUnknown${faker(ctx).string.alpha(8)}`;
      const { m } = await sendOne(ctx, {}, { subject: `Before {{${name}}} after ${ctx.prefix}`, body: `<p>Before {{${name}}} after</p>` });
      const x = await contentOf(m);
      unknownRendered(x, name, declared);
      unknownInSubject(x.subject, name, declared);
    },
  },
  {
    id: 'SEND/tracking-on',
    title: 'MUST track opens and clicks as the profile declares: a pixel whose fetch counts an open, every link rewritten to redirect to its own original and count a click',
    clauses: ['CAMP-SETTINGS-TRACKING-PROFILE'],
    level: 'PROFILE',
    features: [...FEATURES, 'decl:declarations.tracking'],
    budget: 30,
    async run(ctx) {
      const t = ctx.profile.declarations.tracking;
      if (!t || (!t.openPixel && !t.clickRedirect)) skip('needs declarations.tracking in the profile (the open pixel and click redirect the target serves)');
      // With a query string: the redirect leads to the whole original link, its parameters included.
      const url = `https://example.com/${ctx.prefix}${faker(ctx).string.alphanumeric(8)}?utm_source=${faker(ctx).string.alphanumeric(6)}`;
      // A second link: "rewrites links" is every link, not the first one found.
      const other = `https://example.org/${ctx.prefix}${faker(ctx).string.alphanumeric(8)}`;
      const { ws, m, campaign } = await sendOne(ctx, {}, { subject: `Track ${ctx.prefix}`, body: `<p>Read <a href="${url}">this</a> and <a href="${other}">that</a></p>` }, { trackOpens: !!t.openPixel, trackClicks: !!t.clickRedirect });
      const { html } = await contentOf(m);
      const metrics = async () => {
        if (ctx.control) await drainAll(ctx.control, 5000, ws.api.organizationId).catch(() => false);
        const r = await ws.api.get(`/v1/campaigns/${campaign.id}/status`);
        expect2xx(r, 'GET /v1/campaigns/{id}/status');
        return r;
      };
      if (t.openPixel) {
        const srcs = [...html.matchAll(/<img\b[^>]*\bsrc="(https?:[^"]+)"/gi)].map((x) => x[1]!.replace(/&amp;/g, '&'));
        expectThat(srcs.length > 0, msg`declared openPixel: the email should carry an image pixel (an <img> with an http(s) src), it carries none`);
        const r = await fetch(srcs[0]!, { redirect: 'manual' });
        await r.arrayBuffer().catch(() => undefined);
        expectThat(r.status >= 200 && r.status < 400, msg`fetching the open pixel ${srcs[0]} should succeed, it answered ${r.status}`);
        const v = await metrics();
        expectThat((v.body?.metrics?.opens ?? 0) >= 1, msg`after the pixel was fetched the campaign should count an open, metrics are ${JSON.stringify(v.body?.metrics)}`, v);
      }
      if (t.clickRedirect) {
        const hrefs = [...html.matchAll(/<a\b[^>]*\bhref="([^"]+)"/gi)].map((x) => x[1]!.replace(/&amp;/g, '&'));
        // The target may add links of its own (a footer): the body's two are the first two.
        const links = hrefs.filter((h) => /^https?:/i.test(h));
        expectThat(links.length >= 2 && !links.includes(url) && !links.includes(other), msg`declared clickRedirect: both links (to ${url} and ${other}) should be rewritten, the email links to ${JSON.stringify(hrefs)}`);
        for (const [link, original] of [[links[0]!, url], [links[1]!, other]] as const) {
          const r = await fetch(link, { redirect: 'manual' });
          await r.arrayBuffer().catch(() => undefined);
          expectThat(r.status >= 300 && r.status < 400 && r.headers.get('location') === original, msg`the rewritten link ${link} should answer a redirect to ${original}, it answered ${r.status} Location ${JSON.stringify(r.headers.get('location'))}`);
        }
        const v = await metrics();
        expectThat((v.body?.metrics?.clicks ?? 0) >= 1, msg`after the link was followed the campaign should count a click, metrics are ${JSON.stringify(v.body?.metrics)}`, v);
      }
    },
  },
  {
    // A composite probe: two mailboxes of one setting and two leads hold what SEND/start-begins,
    // SEND/mailbox-fields, SEND/display-name, SEND/merge-variables and SEND/unknown-variable each
    // hold with a send of their own, for the depths that cannot afford five sends. Each claim names
    // its clause (holdEach). Two leads, each with values of its own: a step rendered once for the
    // campaign would give the second lead the first one's.
    id: 'SEND/one-email',
    title: "MUST send a started campaign's step through its mailbox as the mailbox and the sequence say: signature, Reply-To, blind copy, display name, merge variables rendered with each lead's own values as the profile declares",
    clauses: ['STATE-CAMP-START-BEGINS', 'ACCT-SIGNATURE-APPENDED', 'ACCT-REPLYTO-BEHAVIOUR', 'ACCT-BCC-BEHAVIOUR', 'ACCT-DISPLAYNAME-SENDER', 'CAMP-SEQUENCE-MERGE-RENDERED', 'CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE'],
    level: 'MUST',
    // It claims the merge-variable clauses, so it needs their declarations (a profile without them skips it; the single checks hold the rest there).
    features: [...FEATURES, NEEDS_MERGE_VARIABLES, 'decl:declarations.unknownMergeVariable'],
    budget: 24,
    async run(ctx) {
      const f = faker(ctx);
      const token = `${ctx.prefix}one-${ctx.seed.toString(36)}`;
      const sig = `Sig${f.string.alphanumeric(10)}`;
      const name = `Sender ${f.string.alpha(8)}`;
      const replyTo = `${ctx.prefix}replies-${f.string.alphanumeric(6)}@replies.sink.test`.toLowerCase();
      const bcc = `${ctx.prefix}bcc-${f.string.alphanumeric(6)}@bcc.sink.test`.toLowerCase();
      const merge = { first: mergeVariable(ctx, 'firstName'), company: mergeVariable(ctx, 'companyName') };
      const declared = ctx.profile.declarations.unknownMergeVariable;
      if (!declared) skip('needs declarations.unknownMergeVariable in the profile (what a merge variable the target does not know renders to)');
      const unknown = `zzUnknown${f.string.alpha(8)}`;
      const ws = await ctx.workspace();
      // Two mailboxes for two leads: each may send its first email at once, where one would wait its gap (a minute) between them.
      const boxes = await sendingMailboxes(ctx, ws, 2, { sendingGapMinutes: 1, displayName: name, signature: `<p>${sig}</p>`, replyToAddress: replyTo, bcc });
      const leads = leadAddresses(ctx, 2);
      const body = `<p>Hello ${merge.first} of ${merge.company}</p><p>Before {{${unknown}}} after</p>`;
      const c = await launch(ctx, ws, { accounts: boxes.map((b) => b.id), leads, steps: [{ subject: `One ${merge.first} Before {{${unknown}}} after ${token}`, body }], draft: true });
      const who = new Map<string, { firstName: string; companyName: string }>();
      for (const l of c.leads) {
        const v = { firstName: `Ann${f.string.alpha(6)}`, companyName: `Acme${f.string.alpha(5)}` };
        who.set(l.email, v);
        expect2xx(await ws.api.patch(`/v1/campaigns/${c.id}/leads/${l.id}`, v), 'setup: PATCH /v1/campaigns/{cid}/leads/{leadId}');
      }
      await startCampaign(ws.api, c.id);
      const drv = new Driver(ctx, boxes[0]!.sink, sentBy(...boxes), ws.api.organizationId);
      await drv.until(() => leads.every((a) => drv.to(a).length > 0), { ...FIRST_ARRIVAL, what: 'the first step of a started campaign to both leads' });
      for (const lead of leads) {
        const got = drv.to(lead);
        expectThat(got.length === 1, msg`STATE-CAMP-START-BEGINS: the started campaign's one step must reach ${lead} once, ${got.length} message(s) arrived`, c.res);
      }
      const m = drv.to(leads[0]!)[0]!.m;
      // The mailbox that sent it: the campaign's two are set alike.
      const box = boxes.find((b) => b.smtpUser === m.session.authUser) ?? boxes[0]!;
      const x = await contentOf(m);
      const second = await contentOf(drv.to(leads[1]!)[0]!.m);
      await holdEach([
        { clause: 'STATE-CAMP-START-BEGINS', holds: () => began(box, m, token) },
        { clause: 'ACCT-SIGNATURE-APPENDED', holds: () => signatureAppended(m, sig) },
        { clause: 'ACCT-REPLYTO-BEHAVIOUR', holds: () => replyToHeld(m, replyTo) },
        { clause: 'ACCT-BCC-BEHAVIOUR', holds: () => blindCopyHeld(box, m, leads[0]!, bcc) },
        { clause: 'ACCT-DISPLAYNAME-SENDER', holds: () => displayNameHeld(box, m, name) },
        { clause: 'CAMP-SEQUENCE-MERGE-RENDERED', holds: () => { mergeRendered(x, merge, who.get(leads[0]!)!, leads[0]!); mergeRendered(second, merge, who.get(leads[1]!)!, leads[1]!); } },
        { clause: 'CAMP-SEQUENCE-UNKNOWN-VARIABLE-PROFILE', holds: () => { unknownRendered(x, unknown, declared); unknownInSubject(x.subject, unknown, declared); } },
      ]);
    },
  },
];
