import { randomUUID } from 'node:crypto';
import type { ApiClient, ApiResponse } from '../../../harness/ground/api-client.ts';
import type { Check, CheckContext } from '../../../harness/ground/check.ts';
import { expect2xx, expectError, expectSchema, expectThat, is2xx, snippet, msg } from '../../lib/expect.ts';
import { addLeads, createCampaign, setupCampaignBody } from '../../lib/recipes.ts';
import { LEAD_AFTER_REPLY_STATUSES, lead as leadShape, leadMutateResponse } from '../../../harness/ground/spec-model/schemas/index.ts';
import { fail, skip } from '../../../harness/ground/check.ts';
import { fillPath } from '../../../harness/ground/operations.ts';
import { allLeads, allLeadsPaged, campaignWithLeads, control, expectRejected, expectValidation400, leadAddress, mutateBody, op } from './lib.ts';
import { casesAt } from '../../lib/depth.ts';
import { leadsWith, MAIL_HISTORY_REQUESTS } from '../sending/lead-history.ts';

// Part 4.4 (leads), 2.6 and 3.3, from the outside. Lead ids come from the referenced
// "leads.list"; mutate field names and the search parameter from the profile.

const LEAD_SHAPE_CLAUSES = [
  'LEAD-ID-UUID', 'LEAD-EMAIL-STRING', 'LEAD-TEXT-FIELDS', 'LEAD-TAGS-STRINGS', 'LEAD-CUSTOMFIELDS-OBJECT', 'LEAD-STATUS-STRING',
  'LEAD-METRICS-OBJECT', 'LEAD-SEQPROGRESS-COUNTS', 'LEAD-SEQPROGRESS-NEXTPLANNEDAT', 'LEAD-TIMESTAMPS',
];

async function mutate(ctx: CheckContext, api: ApiClient, cid: string, operation: string | number, rest: Record<string, unknown> = {}, status?: string): Promise<ApiResponse> {
  return api.post(`/v1/campaigns/${cid}/leads/mutate`, mutateBody(ctx.profile, operation, rest, status));
}

function expectMutate(res: ApiResponse, operation: string, what: string, counts?: { affected?: number; failed?: number }) {
  expect2xx(res, what);
  expectSchema(res, leadMutateResponse, what);
  expectThat(res.body.operation === operation, msg`${what}: operation must echo ${operation}, got ${res.body.operation}`, res);
  if (counts?.affected !== undefined) expectThat(res.body.affected === counts.affected, msg`${what}: affected must be ${counts.affected}, got ${res.body.affected}`, res);
  if (counts?.failed !== undefined) expectThat(res.body.failed === counts.failed, msg`${what}: failed must be ${counts.failed}, got ${res.body.failed}`, res);
}

function byId(leads: any[]): Map<string, any> {
  return new Map(leads.map((l) => [l.id, l]));
}

/** A set_status mutate naming 1 lead of the campaign, 1 unknown id and 1 lead of another campaign. */
async function mutateWithStrangers(ctx: CheckContext) {
  const ws = await ctx.workspace();
  const one = await campaignWithLeads(ctx, ws.api, 1);
  const two = await campaignWithLeads(ctx, ws.api, 1);
  const foreign = two.leads[0]!.id;
  const res = await mutate(ctx, ws.api, one.id, 'set_status', { ids: [one.leads[0]!.id, randomUUID(), foreign] }, 'lead_lost');
  return { ws, res, other: two.id, foreign };
}

// A fragment matching two leads of one campaign: "one row per campaign containing the email"
// (4.4) read per campaign or per matching lead; the profile says which (either when undeclared).
type RowReading = 'per-campaign' | 'per-lead';
const ROW_READINGS: Record<RowReading, string> = {
  'per-campaign': 'one row in each of the 2 campaigns (profile: leadSearchRows per-campaign)',
  'per-lead': 'one row per matching lead of each campaign, 3 in all (profile: leadSearchRows per-lead)',
};
function fragmentRows(declared: RowReading | undefined): RowReading[] {
  return declared ? [declared] : ['per-campaign', 'per-lead'];
}
/** Do the hits (campaignId, email) follow this reading? `c1` holds email and twin, `c2` email. */
function rowsFollow(r: RowReading, hits: { campaignId: string; email: string }[], c1: string, c2: string, email: string, twin: string): boolean {
  const keys = (xs: string[]) => JSON.stringify(xs.sort());
  if (r === 'per-campaign') return keys(hits.map((h) => h.campaignId)) === keys([c1, c2]);
  return keys(hits.map((h) => `${h.campaignId} ${h.email.toLowerCase()}`)) === keys([`${c1} ${email}`, `${c1} ${twin}`, `${c2} ${email}`].map((k) => k.toLowerCase()));
}

/** A URL in its WHATWG form (a store may add the root path or lower-case the host); other text as it is. */
const urlForm = (v: unknown) => (typeof v === 'string' && URL.canParse(v) ? new URL(v).href : v);

/**
 * A lead field read back as the value sent (2.6 gives types, not a written form): tags as a set,
 * custom fields by name with values equal as text (one typed "number" may come back as 12 for
 * "12"), URLs in their WHATWG form, other fields exactly. Key order never counts.
 */
function sameLeadValue(field: string, got: unknown, want: unknown): boolean {
  if (field === 'tags') {
    const sorted = (v: unknown) => (Array.isArray(v) ? JSON.stringify([...v].map(String).sort()) : undefined);
    return sorted(got) !== undefined && sorted(got) === sorted(want);
  }
  if (field === 'customFields') {
    if (!got || typeof got !== 'object' || !want || typeof want !== 'object') return got === want;
    const g = got as Record<string, unknown>;
    return Object.entries(want as Record<string, unknown>).every(([k, v]) => k in g && g[k] !== null && typeof g[k] !== 'object' && String(g[k]) === String(v));
  }
  if (field === 'website' || field === 'linkedinProfile') return urlForm(got) === urlForm(want);
  return JSON.stringify(got) === JSON.stringify(want);
}

export const LEAD_CHECKS: Check[] = [
  {
    id: 'LEAD-LIST/referenced',
    title: 'the referenced leads create and list operations add and list leads in the shape of 2.6 (profile)',
    clauses: [...LEAD_SHAPE_CLAUSES, 'RES-ID-UUID', 'RES-TS-ISO8601'],
    level: 'MUST',
    features: ['op:leads.list', 'op:leads.create'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api);
      const emails = [leadAddress(ctx), leadAddress(ctx)];
      await addLeads(ctx, ws.api, id, emails);
      const o = op(ctx, 'leads.list');
      const res = await ws.api.get(o.path.replace('{id}', id), { [ctx.profile.names.list.pageSize]: 100 });
      expect2xx(res, `GET ${o.path}`);
      const items = res.body?.[o.result.items ?? 'data'];
      expectThat(Array.isArray(items) && items.length === 2, msg`the campaign must list the 2 leads added, got ${JSON.stringify(items)?.slice(0, 200)}`, res);
      for (const l of items) expectSchema({ ...res, body: l }, 'Lead', 'a listed lead');
      expectThat(items.every((l: any) => emails.includes(l.email)), msg`new leads must carry their address, got ${JSON.stringify(items.map((l: any) => l.email))}`, res);
    },
  },
  {
    id: 'LEAD-STATUS/new',
    title: 'a lead never contacted carries the declared status, whether added with the campaign or later (profile: newLeadStatus)',
    clauses: ['LEAD-STATUS-NEW', 'LEAD-VALUES-PROFILE'],
    level: 'PROFILE',
    features: ['op:leads.list', 'op:leads.create', 'decl:declarations.newLeadStatus'],
    budget: 5,
    async run(ctx) {
      // The status of a new lead is only seen in the spec (`not_contacted`): held to the profile's word.
      const fresh = ctx.profile.declarations.newLeadStatus;
      if (!fresh) skip('declarations.newLeadStatus is not declared (the status of a lead never contacted): it is not checked');
      const ws = await ctx.workspace();
      const { id } = await createCampaign(ctx, ws.api, { leads: 1 });
      await addLeads(ctx, ws.api, id, [leadAddress(ctx)]);
      const leads = await allLeads(ctx, ws.api, id);
      expectThat(leads.length === 2, msg`setup: the campaign must list its 2 leads (one given at create, one added), got ${leads.length}`);
      const wrong = leads.filter((l: any) => l.status !== fresh);
      expectThat(wrong.length === 0, msg`leads never contacted must carry the declared status ${fresh} (profile: newLeadStatus), got ${JSON.stringify(leads.map((l: any) => [l.email, l.status]))}`);
    },
  },
  {
    id: 'LEAD-PATCH/fields',
    title: 'MUST update a lead partially with every PATCH field and answer the lead in the shape of 2.6',
    clauses: ['LEAD-PATCH-FIELDS', 'LEAD-PATCH-PARTIAL', 'LEAD-PATCH-RETURNS-LEAD', 'LEAD-CUSTOMFIELD-LABELS-TYPES', 'SVC-LEAD-UPDATE-DELETE', 'RES-CAMELCASE', ...LEAD_SHAPE_CLAUSES],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 6,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const lid = leads[0]!.id;
      const body = {
        firstName: 'Grace', lastName: 'Hopper', companyName: 'Navy', jobTitle: 'Rear Admiral', website: 'https://navy.example.test',
        linkedinProfile: 'https://linkedin.example.test/in/grace', location: 'Arlington', tags: ['vip', 'cobol'],
        customFields: { plan: 'pro', seats: '12' }, customFieldLabels: { plan: 'Plan' }, customFieldTypes: { seats: 'number' },
      };
      const res = await ws.api.patch(`/v1/campaigns/${cid}/leads/${lid}`, body);
      expect2xx(res, 'PATCH lead with every field');
      expectSchema(res, 'Lead', 'PATCH lead');
      const diffs = Object.entries(body).filter(([k]) => !k.startsWith('customFieldL') && !k.startsWith('customFieldT'))
        .filter(([k, v]) => !sameLeadValue(k, res.body[k], v)).map(([k, v]) => `${k}: ${JSON.stringify(res.body[k])} instead of ${JSON.stringify(v)}`);
      expectThat(res.body.id === lid && diffs.length === 0, msg`the patched lead does not reflect the PATCH: ${diffs.join('; ')}`, res);
      const r2 = await ws.api.patch(`/v1/campaigns/${cid}/leads/${lid}`, { jobTitle: 'Commodore' });
      expect2xx(r2, 'PATCH lead { jobTitle }');
      const kept = ['firstName', 'lastName', 'companyName', 'website', 'location', 'tags', 'customFields', 'email'].filter((k) => !sameLeadValue(k, r2.body[k], res.body[k]));
      expectThat(r2.body.jobTitle === 'Commodore' && kept.length === 0, msg`a PATCH of jobTitle changed ${kept.join(', ') || 'nothing else'}; jobTitle ${r2.body.jobTitle}`, r2);
      // The listing (referenced leads.list) is a serializer of its own: the lead it lists is a lead of 2.6
      // too, carrying what the PATCH answered.
      const o = op(ctx, 'leads.list');
      const lr = await ws.api.get(o.path.replace('{id}', cid), { [ctx.profile.names.list.pageSize]: 100 });
      expect2xx(lr, `GET ${o.path} after the PATCHes`);
      const listed = (lr.body?.[o.result.items ?? 'data'] ?? []).find((l: any) => l?.id === lid);
      expectThat(listed, msg`the patched lead ${lid} is not listed`, lr);
      expectSchema({ ...lr, body: listed }, 'Lead', 'the patched lead as listed');
      const off = ['email', 'firstName', 'lastName', 'companyName', 'jobTitle', 'website', 'linkedinProfile', 'location', 'tags', 'status'].filter((k) => !sameLeadValue(k, listed[k], r2.body[k]));
      expectThat(off.length === 0, msg`the listed lead must carry what the PATCH answered: ${off.map((k) => `${k} ${JSON.stringify(listed[k])} instead of ${JSON.stringify(r2.body[k])}`).join('; ')}`, lr, r2);
    },
  },
  {
    id: 'LEAD-PATCH/types',
    title: 'MUST refuse a lead PATCH whose tags is not an array, whose custom field objects are not objects, or whose text fields are not strings (400)',
    clauses: ['LEAD-PATCH-TAGS-ARRAY', 'LEAD-PATCH-CUSTOM-OBJECTS', 'LEAD-PATCH-FIELDS', 'ERR-TABLE-400'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 11,
    // Below default one wrong type per kind: tags a string, a custom field object a string and an array, a text field a number.
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const lid = leads[0]!.id;
      // [body, asked below default too]
      const cases: [Record<string, unknown>, boolean][] = [
        [{ tags: 'vip' }, true], [{ tags: { a: 1 } }, false], [{ customFields: 'x' }, true], [{ customFieldLabels: 'x' }, false], [{ customFieldTypes: 5 }, false],
        [{ customFields: ['a'] }, true], [{ customFieldLabels: [] }, false], [{ firstName: 5 }, true], [{ email: ['x@example.test'] }, false],
      ];
      for (const [body] of casesAt(ctx, cases, ([, stays]) => stays)) {
        expectValidation400(await ws.api.patch(`/v1/campaigns/${cid}/leads/${lid}`, body), ctx, `PATCH lead ${JSON.stringify(body)}`);
      }
    },
  },
  {
    id: 'LEAD-PATCH/email-uncontacted',
    title: 'MUST change the email of a lead not yet contacted (the PATCH answer and the lead as listed after it)',
    // LEAD-PATCH-FIELDS: the one PATCH field LEAD-PATCH/fields leaves out (its status has checks of its own).
    clauses: ['STATE-LEAD-EMAIL-CHANGE-UNCONTACTED', 'LEAD-PATCH-FIELDS'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const email = leadAddress(ctx, 'new');
      const res = await ws.api.patch(`/v1/campaigns/${cid}/leads/${leads[0]!.id}`, { email });
      expect2xx(res, 'PATCH lead { email } before any contact');
      expectThat(res.body.email === email, msg`email must be changed to ${email}, got ${res.body.email}`, res);
      // Changed, not only answered: the lead as listed afterwards carries the new address.
      const listed = (await allLeads(ctx, ws.api, cid)).find((l) => l.id === leads[0]!.id);
      expectThat(listed?.email === email, msg`the PATCH answered email ${email}, but the lead is then listed with ${JSON.stringify(listed?.email)}: the change was not stored`, res);
    },
  },
  {
    id: 'LEAD-STATUS/patch',
    title: 'MUST set lead_lost and blacklisted any time (lead_lost again once blacklisted), answering the updated lead, and reject replied statuses before a reply (on a new lead, and once set lead_lost) and platform statuses (PATCH)',
    clauses: ['STATE-LEAD-USER-SETTABLE', 'STATE-LEAD-REPLIED-BEFORE-REPLY', 'STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-BLACKLISTED-ANYTIME', 'STATE-LEAD-PLATFORM-REJECTED', 'LEAD-PATCH-STATUS-RULES', 'LEAD-PATCH-RETURNS-LEAD'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 17,
    // Below default one replied status and one platform status are refused before the reply.
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const lid = leads[0]!.id;
      const path = `/v1/campaigns/${cid}/leads/${lid}`;
      const initial = (leads[0] as any).status;
      const refused: readonly string[] = [...LEAD_AFTER_REPLY_STATUSES, 'email_sent', 'scheduled'];
      for (const s of casesAt(ctx, refused, (x) => x === LEAD_AFTER_REPLY_STATUSES[0] || x === 'email_sent')) {
        expectRejected(await ws.api.patch(path, { status: s }), ctx, `PATCH lead { status: ${s} } on a lead that never replied`);
      }
      const after = (await allLeads(ctx, ws.api, cid)).find((l) => l.id === lid);
      expectThat(after?.status === initial, msg`rejected status changes moved the lead from ${initial} to ${after?.status}`);
      // "Any time": lead_lost on the untouched lead, blacklisted after it, lead_lost again once blacklisted.
      for (const [s, when] of [['lead_lost', 'on a lead never contacted'], ['blacklisted', 'after lead_lost'], ['lead_lost', 'after blacklisted']] as const) {
        const res = await ws.api.patch(path, { status: s });
        expect2xx(res, `PATCH lead { status: ${s} } ${when}`);
        // 4.4: a PATCH answers the updated lead, a status PATCH too (often its own handler).
        expectSchema(res, 'Lead', `PATCH lead { status: ${s} } ${when}`);
        expectThat(res.body.id === lid, msg`PATCH lead { status: ${s} } must answer that lead (id ${lid}), got id ${res.body.id}`, res);
        expectThat(res.body.status === s, msg`status must be ${s} (${when}), got ${res.body.status}`, res);
      }
      // Still no reply: a status the user set (lead_lost) does not open the replied statuses.
      expectRejected(await ws.api.patch(path, { status: 'lead_replied_interested' }), ctx, 'PATCH lead { status: lead_replied_interested } on a lead set lead_lost that never replied');
    },
  },
  {
    id: 'LEAD-STATUS/unknown',
    title: 'SHOULD reject a lead status that is neither user-settable nor platform-managed',
    clauses: ['STATE-LEAD-UNKNOWN-STATUS-REJECTED'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const lead = leads[0] as any;
      expectRejected(await ws.api.patch(`/v1/campaigns/${cid}/leads/${lead.id}`, { status: 'totally_made_up' }), ctx, 'PATCH lead { status: totally_made_up }');
      // The rules hold for both ways of setting a status (3.3): mutate set_status too. "Rejected" has no
      // status there: a refusal of part 7, or a 2xx whose answer counts the lead as not affected.
      const what = 'mutate set_status totally_made_up';
      const m = await mutate(ctx, ws.api, cid, 'set_status', { ids: [lead.id] }, 'totally_made_up');
      if (is2xx(m)) expectMutate(m, 'set_status', what, { affected: 0 });
      else expectRejected(m, ctx, what);
      const after = (await allLeads(ctx, ws.api, cid)).find((l) => l.id === lead.id);
      expectThat(after?.status === lead.status, msg`an unknown status must be rejected by PATCH and by mutate set_status: the lead moved from ${lead.status} to ${after?.status}`);
    },
  },
  {
    id: 'LEAD-STATUS/mutate',
    title: 'mutate set_status follows 3.3 too: lead_lost set, replied statuses refused before a reply, platform statuses rejected (profile names)',
    clauses: ['STATE-LEAD-RULES-BOTH-PATHS', 'LEAD-MUTATE-SET-STATUS-EFFECT', 'LEAD-MUTATE-STATUS-VALUES', 'STATE-LEAD-REPLIED-BEFORE-REPLY', 'LEAD-MUTATE-NAMES-PROFILE', 'LEAD-MUTATE-ANSWER', 'LEAD-MUTATE-OPERATION-ECHO', 'SVC-LEAD-MUTATE'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 3);
      const [a, b, c] = leads.map((l) => l.id) as [string, string, string];
      // The two statuses settable any time: lead_lost and blacklisted.
      const r1 = await mutate(ctx, ws.api, cid, 'set_status', { ids: [a] }, 'lead_lost');
      // The counts of the answer are a SHOULD reading (LEAD-MUTATE-COUNTS): the effect is held, read back below.
      expectMutate(r1, 'set_status', 'mutate set_status lead_lost');
      expectMutate(await mutate(ctx, ws.api, cid, 'set_status', { ids: [b] }, 'blacklisted'), 'set_status', 'mutate set_status blacklisted');
      // 3.3 says "rejected" without a status: any refusal of part 7, or a 2xx whose answer
      // reports the lead as not done (the lead's status, read back below, must not change).
      // lead_converted is a replied-only status too: a rule by the lead_replied_ prefix alone lets it through.
      for (const [s, why] of [['lead_replied_interested', 'on a lead that never replied'], ['lead_converted', 'on a lead that never replied'], ['email_sent', '(platform-managed)']] as const) {
        const r = await mutate(ctx, ws.api, cid, 'set_status', { ids: [c] }, s);
        if (is2xx(r)) expectMutate(r, 'set_status', `mutate set_status ${s} ${why}`);
        else expectRejected(r, ctx, `mutate set_status ${s} ${why}`);
      }
      const now = byId(await allLeads(ctx, ws.api, cid));
      expectThat(now.get(a)?.status === 'lead_lost' && now.get(b)?.status === 'blacklisted', msg`set_status must set lead_lost and blacklisted on the leads named, got ${now.get(a)?.status}, ${now.get(b)?.status}`);
      expectThat(now.get(c)?.status === (leads[2] as any).status, msg`a refused set_status changed the lead to ${now.get(c)?.status}`);
    },
  },
  {
    id: 'LEAD-MUTATE/tags',
    title: 'mutate add_tags and remove_tags change the tags of exactly the leads named, each answered { operation, affected, failed, errors } (profile names); the lead list it reads is paged as 4.1 says and refuses a page size of 101 (part 8)',
    clauses: ['LEAD-MUTATE-ADD-TAGS-EFFECT', 'LEAD-MUTATE-REMOVE-TAGS-EFFECT', 'LEAD-MUTATE-TAGS-REQUIRED', 'LEAD-MUTATE-NAMES-PROFILE', 'LEAD-MUTATE-OPERATION-ECHO', 'LEAD-MUTATE-ANSWER', 'SVC-LEAD-MUTATE', 'LIMIT-PAGE-SIZE', 'PAGE-SHAPE'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 10,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 3);
      const [a, b, c] = leads.map((l) => l.id) as [string, string, string];
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [a, b], tags: ['hot', 'q3', 'keep'] }), 'add_tags', 'mutate add_tags', { affected: 2 });
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [a], tags: ['hot'] }), 'add_tags', 'mutate add_tags of a tag the lead has');
      let now = byId(await allLeadsPaged(ctx, ws.api, cid));
      // Sets: whether a tag added twice is listed twice is a reading (LEAD-MUTATE/tags-no-duplicate).
      const tagsOf = (id: string) => [...new Set<string>(now.get(id)?.tags ?? [])].sort();
      expectThat(JSON.stringify(tagsOf(a)) === '["hot","keep","q3"]' && JSON.stringify(tagsOf(b)) === '["hot","keep","q3"]', msg`add_tags must give both leads hot, q3 and keep, got ${JSON.stringify(tagsOf(a))}, ${JSON.stringify(tagsOf(b))}`);
      expectThat(tagsOf(c).length === 0, msg`a lead not named got tags ${JSON.stringify(tagsOf(c))}`);
      // Two tags removed at once: every one named goes, the one not named stays.
      expectMutate(await mutate(ctx, ws.api, cid, 'remove_tags', { ids: [a], tags: ['hot', 'q3'] }), 'remove_tags', 'mutate remove_tags', { affected: 1 });
      now = byId(await allLeads(ctx, ws.api, cid));
      expectThat(JSON.stringify(tagsOf(a)) === '["keep"]' && JSON.stringify(tagsOf(b)) === '["hot","keep","q3"]', msg`remove_tags hot and q3 on one lead must leave it keep, the other all three: got ${JSON.stringify(tagsOf(a))}, ${JSON.stringify(tagsOf(b))}`);
      expectValidation400(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [a] }), ctx, 'mutate add_tags without tags');
      expectValidation400(await mutate(ctx, ws.api, cid, 'remove_tags', { ids: [a] }), ctx, 'mutate remove_tags without tags');
      // Part 8's page size holds for the lead list it read too (its handler may be another than the campaign list's).
      const o = op(ctx, 'leads.list');
      const size = ctx.profile.names.list.pageSize;
      expectError(await ws.api.get(fillPath(o.path, { id: cid }), { [size]: 101 }), 400, ctx.profile, `GET ${o.path} with ${size}=101`, 'validation_failed');
    },
  },
  {
    id: 'LEAD-MUTATE/not-found',
    title: 'mutate answers ids not in the campaign with an error message (profile names)',
    clauses: ['LEAD-MUTATE-ERRORS', 'LEAD-MUTATE-ANSWER', 'LEAD-MUTATE-NAMES-PROFILE'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 5,
    async run(ctx) {
      const { res } = await mutateWithStrangers(ctx);
      expectMutate(res, 'set_status', 'mutate set_status with 1 lead of the campaign and 2 ids not in it');
      expectThat(res.body.errors.length > 0 && res.body.errors.every((e: unknown) => typeof e === 'string' && e.length > 0), msg`errors must carry messages about the leads not found, got ${JSON.stringify(res.body.errors)}`, res);
    },
  },
  {
    id: 'LEAD-MUTATE/delete',
    title: 'mutate delete removes the leads named by ids, matched by a filter (search, tags), or all, each answered { operation, affected, failed, errors } (profile names)',
    clauses: ['LEAD-MUTATE-DELETE-EFFECT', 'LEAD-MUTATE-ALL-DELETES-EVERY', 'LEAD-MUTATE-FILTER-FIELDS', 'LEAD-MUTATE-ALL-BOOLEAN', 'LEAD-MUTATE-IDS-REQUIRED', 'LEAD-MUTATE-NAMES-PROFILE', 'LEAD-MUTATE-OPERATION-ECHO', 'SVC-LEAD-MUTATE', 'LEAD-MUTATE-ERRORS', 'LEAD-MUTATE-ANSWER'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 16,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 5);
      const [a, b, c, d, e] = leads as [any, any, any, any, any];
      const left = async () => (await allLeads(ctx, ws.api, cid)).map((l) => l.id).sort();
      const expectLeft = async (ids: string[], what: string) => {
        const got = await left();
        expectThat(JSON.stringify(got) === JSON.stringify([...ids].sort()), msg`${what}: the campaign must keep ${ids.length} lead(s) ${JSON.stringify(ids)}, it has ${JSON.stringify(got)}`);
      };
      // One id not in the campaign beside it: the delete reports it in errors (as set_status does).
      const byIds = await mutate(ctx, ws.api, cid, 'delete', { ids: [a.id, randomUUID()] });
      expectMutate(byIds, 'delete', 'mutate delete by ids (one of them not in the campaign)', { affected: 1 });
      expectThat(byIds.body.errors.length > 0 && byIds.body.errors.every((x: unknown) => typeof x === 'string' && x.length > 0), msg`a delete naming an id not in the campaign must say so in errors, got ${JSON.stringify(byIds.body.errors)}`, byIds);
      await expectLeft([b.id, c.id, d.id, e.id], 'after delete by ids');
      // Which leads a filter matches beyond these is a reading (LEAD-MUTATE/delete-filter); a lead's whole
      // address, as written, and a tag only one lead carries match that lead under any reading.
      expectMutate(await mutate(ctx, ws.api, cid, 'delete', { filter: { search: b.email } }), 'delete', `mutate delete by filter search "${b.email}" (one lead's whole address)`);
      const tag = 'doomed';
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [c.id], tags: [tag] }), 'add_tags', 'mutate add_tags to one lead');
      expectMutate(await mutate(ctx, ws.api, cid, 'delete', { filter: { tags: [tag] } }), 'delete', `mutate delete by filter tags ["${tag}"] (a tag one lead carries)`);
      const kept = await left();
      const survivors = [b, c].filter((l) => kept.includes(l.id)).map((l) => l.email);
      expectThat(survivors.length === 0, msg`delete by filter must delete the leads it matches: ${JSON.stringify(survivors)} (the searched whole address, the only lead carrying the tag) still in the campaign`);
      expectValidation400(await mutate(ctx, ws.api, cid, 'delete', {}), ctx, 'mutate delete without ids, filter or all');
      expectMutate(await mutate(ctx, ws.api, cid, 'delete', { all: true }), 'delete', 'mutate delete all');
      await expectLeft([], 'after delete all');
    },
  },
  {
    id: 'LEAD-MUTATE/invalid',
    title: 'mutate rejects empty filters, all with ids or filter, filter/all outside delete, unknown operations (another case or an integer too), missing ids or status, and more than 1000 ids (profile names)',
    clauses: [
      'LEAD-MUTATE-FILTER-NONEMPTY', 'LEAD-MUTATE-EMPTY-FILTER-NEVER-ALL', 'LEAD-MUTATE-ALL-EXCLUSIVE', 'LEAD-MUTATE-FILTER-DELETE-ONLY', 'LEAD-MUTATE-ALL-DELETE-ONLY',
      'LEAD-MUTATE-ALL-BOOLEAN', 'LEAD-MUTATE-OPERATION-ENUM', 'LEAD-MUTATE-STATUS-REQUIRED', 'LEAD-MUTATE-IDS-REQUIRED', 'LEAD-MUTATE-IDS-UUIDS', 'LEAD-MUTATE-IDS-MAX1000',
      'LIMIT-MUTATE-IDS-1000', 'LEAD-MUTATE-NAMES-PROFILE', 'ERR-TABLE-400',
    ],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 31,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 2);
      const ids = leads.map((l) => l.id);
      const bad: [string, string | number, Record<string, unknown>, string?][] = [
        ['delete with an empty filter', 'delete', { filter: {} }],
        ['delete with all and ids', 'delete', { all: true, ids }],
        ['delete with all and a filter', 'delete', { all: true, filter: { search: 'x' } }],
        // With ids, so only 4.4's "filter / all only for delete" can refuse them (not a missing ids).
        ['set_status with ids and a filter', 'set_status', { ids, filter: { search: 'x' } }, 'lead_lost'],
        ['add_tags with ids and all', 'add_tags', { ids, all: true, tags: ['x'] }],
        // The other operations too: bulk tagging by search, a status for every lead.
        ['add_tags with ids and a filter', 'add_tags', { ids, filter: { search: 'x' }, tags: ['x'] }],
        ['set_status with ids and all', 'set_status', { ids, all: true }, 'lead_lost'],
        ['delete with all "yes"', 'delete', { all: 'yes' }],
        ['an unknown operation', 'archive', { ids }],
        ['an operation in capitals (the enum\'s values are exact)', 'ADD_TAGS', { ids, tags: ['x'] }],
        // 4.4 names the operations: another case or an integer is none of them (a loose enum binder takes them).
        ['an operation in upper case', 'DELETE', { ids }],
        ['an operation in another case', 'Set_Status', { ids }, 'lead_lost'],
        ['an operation given as an integer', 0, { ids }, 'lead_lost'],
        ['set_status without a status', 'set_status', { ids }],
        ['add_tags without ids', 'add_tags', { tags: ['x'] }],
        ['set_status without ids', 'set_status', {}, 'lead_lost'],
        ['set_status with ids that are not uuids', 'set_status', { ids: ['not-a-uuid'] }, 'lead_lost'],
        ['set_status with 1001 ids', 'set_status', { ids: Array.from({ length: 1001 }, () => randomUUID()) }, 'lead_lost'],
        ['set_status with an unknown status', 'set_status', { ids }, 'not_a_status'],
        ['add_tags with ids as a string', 'add_tags', { ids: ids[0], tags: ['x'] }],
        ['add_tags with tags as a string', 'add_tags', { ids, tags: 'x' }],
      ];
      for (const [what, operation, rest, status] of bad) expectValidation400(await mutate(ctx, ws.api, cid, operation, rest, status), ctx, `mutate ${what}`);
      // A blank search or an empty tags list is no condition, or one no lead matches: whether it is
      // refused as an empty filter or taken is a reading, but it never deletes all (the leads are counted below).
      for (const filter of [{ search: '' }, { search: '   ' }, { tags: [] }]) {
        const r = await mutate(ctx, ws.api, cid, 'delete', { filter });
        if (r.status === 400) expectValidation400(r, ctx, `mutate delete with filter ${JSON.stringify(filter)}`);
        else expectThat(is2xx(r), msg`mutate delete with filter ${JSON.stringify(filter)}: expected 400 or a success that deletes nothing, got ${r.status} ${snippet(r)}`, r);
      }
      const many = Array.from({ length: 999 }, () => randomUUID());
      const ok = await mutate(ctx, ws.api, cid, 'add_tags', { ids: [ids[0], ...many], tags: ['bulk'] });
      // 1000 ids are allowed; how ids outside the campaign are counted is a reading (LEAD-MUTATE/not-found-counts).
      expectMutate(ok, 'add_tags', 'mutate add_tags with 1000 ids');
      const after = await allLeads(ctx, ws.api, cid);
      expectThat(after.length === 2, msg`refused mutates (an empty filter included) or a blank search deleted leads: ${after.length} of 2 remain`);
      const tagged = byId(after);
      expectThat((tagged.get(ids[0]!)?.tags ?? []).includes('bulk') && !(tagged.get(ids[1]!)?.tags ?? []).includes('bulk'), msg`mutate add_tags with 1000 ids must tag the one lead of the campaign among them, and only it: tags ${JSON.stringify(tagged.get(ids[0]!)?.tags)} and ${JSON.stringify(tagged.get(ids[1]!)?.tags)}`);
    },
  },
  {
    id: 'LEAD-DELETE',
    title: 'MUST answer DELETE of a lead with { success: true, retentionDays: integer }',
    clauses: ['LEAD-DELETE-ANSWER', 'STATE-LEAD-DELETE-RETENTION', 'SVC-LEAD-UPDATE-DELETE'],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 2);
      const res = await ws.api.delete(`/v1/campaigns/${cid}/leads/${leads[0]!.id}`);
      expect2xx(res, 'DELETE lead');
      expectSchema(res, 'LeadDeleteResponse', 'DELETE lead');
    },
  },
  {
    id: 'LEAD-DELETE/hidden',
    title: 'SHOULD hide a deleted lead: not listed, not found by search, PATCH and DELETE answer 404',
    clauses: ['STATE-LEAD-DELETE-HIDDEN'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 8,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 2);
      const gone = leads[0]!;
      expect2xx(await ws.api.delete(`/v1/campaigns/${cid}/leads/${gone.id}`), 'DELETE lead');
      const now = await allLeads(ctx, ws.api, cid);
      expectThat(!now.some((l) => l.id === gone.id), msg`a deleted lead is still listed`);
      expectError(await ws.api.patch(`/v1/campaigns/${cid}/leads/${gone.id}`, { firstName: 'Ghost' }), 404, ctx.profile, 'PATCH of a deleted lead', 'not_found');
      expectError(await ws.api.delete(`/v1/campaigns/${cid}/leads/${gone.id}`), 404, ctx.profile, 'DELETE of a deleted lead', 'not_found');
      const s = await ws.api.get('/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: gone.email });
      expect2xx(s, 'GET /v1/leads/search');
      expectThat(!s.body.data.some((h: any) => h.id === gone.id), msg`a deleted lead is still found by search`, s);
    },
  },
  {
    id: 'LEAD-PATCH/wrong-campaign',
    title: 'SHOULD answer 404 to a lead addressed under a campaign that does not hold it',
    clauses: ['LEAD-PATCH-WRONG-CAMPAIGN'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const one = await campaignWithLeads(ctx, ws.api, 1);
      const { id: other } = await createCampaign(ctx, ws.api);
      expectError(await ws.api.patch(`/v1/campaigns/${other}/leads/${one.leads[0]!.id}`, { firstName: 'X' }), 404, ctx.profile, 'PATCH of a lead under another campaign', 'not_found');
      expectError(await ws.api.delete(`/v1/campaigns/${other}/leads/${one.leads[0]!.id}`), 404, ctx.profile, 'DELETE of a lead under another campaign', 'not_found');
    },
  },
  {
    id: 'LEAD-SEARCH/cross-campaign',
    title: "lead search finds an email or a case-insensitive fragment across campaigns, one row per campaign, as lead search hits, and never another workspace's leads of the same address (profile: parameter name)",
    clauses: [
      'LEAD-SEARCH-PARAM', 'LEAD-SEARCH-FRAGMENT', 'LEAD-SEARCH-CASE-INSENSITIVE', 'LEAD-SEARCH-ANSWER', 'LEAD-SEARCH-ONE-ROW-PER-CAMPAIGN', 'LEAD-SEARCH-CROSS-CAMPAIGN',
      'LEAD-SEARCH-PARAM-PROFILE', 'LEAD-SEARCH-ROWS-PROFILE', 'LEADHIT-FIELDS', 'SVC-LEAD-SEARCH', 'LEAD-SEARCH-WORKSPACE',
    ],
    level: 'MUST',
    features: ['op:leads.list'],
    budget: 11,
    async run(ctx) {
      const ws = await ctx.workspace();
      const param = ctx.profile.names.leadsSearchParam;
      const email = leadAddress(ctx, 'srch');
      const twin = email.replace('@', 'x@'); // matches the fragment below, not the whole address
      const c1 = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}search one`, leads: [email, leadAddress(ctx), twin] });
      // The second campaign's copy is written with capitals: a search must match what is stored case-insensitively too.
      const capitals = email.replace(/^[^@]+/, (l) => l.toUpperCase());
      const c2 = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}search two`, leads: [capitals] });
      expect2xx(c1, 'setup: POST /v1/campaigns');
      expect2xx(c2, 'setup: POST /v1/campaigns');
      // The same two addresses are leads of another workspace too: the search is the caller's workspace's (4.4, 5).
      const other = await ctx.workspace();
      const elsewhere = await other.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}search elsewhere`, leads: [email, twin] });
      expect2xx(elsewhere, 'setup: POST /v1/campaigns in another workspace with the same addresses');
      // (A run that could lease only one workspace gives the same one twice: then nothing is foreign.)
      const distinct = other !== ws && (other.organizationId === undefined || other.organizationId !== ws.organizationId);
      const foreign = distinct ? (elsewhere.body.campaign.id as string) : undefined;
      const names = new Map([[c1.body.campaign.id, c1.body.campaign.name], [c2.body.campaign.id, c2.body.campaign.name]]);
      // The searched lead of the second campaign gets a first and a last name: its hits must carry them.
      const c2id = c2.body.campaign.id as string;
      const [named] = await allLeads(ctx, ws.api, c2id);
      if (!named) fail(msg`setup: the second campaign lists no lead, though it was created with one`);
      const person = { firstName: 'Searchfirst', lastName: 'Searchlast' };
      expect2xx(await ws.api.patch(`/v1/campaigns/${c2id}/leads/${named.id}`, person), 'setup: PATCH /v1/campaigns/{cid}/leads/{leadId} with a first and a last name');
      const local = email.split('@')[0]!;
      for (const q of [email, local.slice(-10).toUpperCase(), email.toUpperCase()]) {
        const res = await ws.api.get('/v1/leads/search', { [param]: q });
        expect2xx(res, `GET /v1/leads/search?${param}=${q}`);
        expectSchema(res, 'LeadSearchResponse', 'GET /v1/leads/search');
        const hits = res.body.data as any[];
        expectThat(!foreign || !hits.some((h) => h.campaignId === foreign), msg`"${q}" found leads of another workspace's campaign ${foreign}: a search finds only the caller's workspace's leads`, res);
        const whole = q.includes('@');
        const rows: RowReading[] = whole ? ['per-campaign'] : fragmentRows(ctx.profile.declarations.leadSearchRows);
        expectThat(hits.every((h) => (whole ? h.email.toLowerCase() === email.toLowerCase() : h.email.toLowerCase().includes(q.toLowerCase()))) && rows.some((r) => rowsFollow(r, hits, c1.body.campaign.id, c2.body.campaign.id, email, twin)),
          msg`"${q}" must find ${whole ? 'one row in each of the 2 campaigns containing the address' : `${rows.map((r) => ROW_READINGS[r]).join(', or ')} (a fragment matching two leads of one campaign)`}, got ${JSON.stringify(hits.map((h) => [h.email, h.campaignId]))}`, res);
        expectThat(hits.every((h) => h.campaignName === names.get(h.campaignId)), msg`campaignName must be the campaign's name, got ${JSON.stringify(hits.map((h) => h.campaignName))}`, res);
        const ofNamed = hits.filter((h) => h.campaignId === c2id);
        expectThat(ofNamed.every((h) => h.firstName === person.firstName && h.lastName === person.lastName),
          msg`the hit of the lead named ${person.firstName} ${person.lastName} must carry firstName and lastName, got ${JSON.stringify(ofNamed.map((h) => ({ firstName: h.firstName, lastName: h.lastName })))}`, res);
      }
    },
  },
  {
    id: 'LEAD-SEARCH/max10',
    title: 'lead search answers at most 10 matches (profile: parameter name)',
    clauses: ['LEAD-SEARCH-MAX10', 'LIMIT-SEARCH-10', 'LEAD-SEARCH-ONE-ROW-PER-CAMPAIGN', 'LEAD-SEARCH-PARAM-PROFILE'],
    level: 'MUST',
    features: [],
    budget: 13,
    async run(ctx) {
      const ws = await ctx.workspace();
      const email = leadAddress(ctx, 'max');
      for (let i = 0; i < 12; i++) expect2xx(await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}max10 ${i}`, leads: [email] }), 'setup: POST /v1/campaigns');
      const res = await ws.api.get('/v1/leads/search', { [ctx.profile.names.leadsSearchParam]: email });
      expect2xx(res, 'GET /v1/leads/search');
      expectSchema(res, 'LeadSearchResponse', 'GET /v1/leads/search (12 campaigns hold the email)');
      expectThat(res.body.data.length === 10, msg`12 campaigns hold ${email}: the search must answer the maximum of 10 matches, got ${res.body.data.length}`, res);
    },
  },
  {
    id: 'LEAD-STATUS/after-reply',
    title: 'MUST set lead_replied_* and lead_converted once the lead has replied, by PATCH and by mutate set_status, and lead_lost and blacklisted still (the replies sent through the sinks, or recorded by the control API)',
    // LEAD-TIMESTAMPS: the leads have replied, so their lastRepliedAt is typed here (the shape checks read leads never contacted).
    clauses: ['STATE-LEAD-REPLIED-AFTER-REPLY', 'STATE-LEAD-RULES-BOTH-PATHS', 'LEAD-MUTATE-SET-STATUS-EFFECT', 'STATE-LEAD-USER-SETTABLE', 'LEAD-TIMESTAMPS', 'STATE-LEAD-LOST-ANYTIME', 'STATE-LEAD-BLACKLISTED-ANYTIME'],
    level: 'MUST',
    features: ['op:leads.list'],
    uses: ['control:lead-events', 'sinks', 'imap'],
    budget: 14 + 2 * MAIL_HISTORY_REQUESTS,
    // Below default one lead_replied_* status and lead_converted by PATCH.
    shallowerAt: ['smoke', 'quick'],
    async run(ctx) {
      const ws = await ctx.workspace();
      const { cid, leads } = await leadsWith(ctx, ws, 2, 'replied');
      const [a, b] = leads.map((l) => l.id) as [string, string];
      // Then lead_lost and blacklisted: "any time" holds once the lead replied too (3.3).
      const statuses = [...casesAt(ctx, LEAD_AFTER_REPLY_STATUSES, (x) => x === LEAD_AFTER_REPLY_STATUSES[0] || x === 'lead_converted'), 'lead_lost', 'blacklisted'];
      for (const s of statuses) {
        const res = await ws.api.patch(`/v1/campaigns/${cid}/leads/${a}`, { status: s });
        expect2xx(res, `PATCH lead { status: ${s} } after the lead replied`);
        expectThat(res.body.status === s, msg`status must be ${s} once the lead replied, got ${res.body.status}`, res);
      }
      const m = await mutate(ctx, ws.api, cid, 'set_status', { ids: [b] }, 'lead_replied_meeting_request');
      expectMutate(m, 'set_status', 'mutate set_status lead_replied_meeting_request after the lead replied');
      const now = (await allLeads(ctx, ws.api, cid)).find((l) => l.id === b);
      expectThat(now?.status === 'lead_replied_meeting_request', msg`mutate must set lead_replied_meeting_request, got ${now?.status}`);
      const typed = leadShape.safeParse(now);
      expectThat(typed.success, msg`the listed lead once replied does not match the shape of 2.6: ${typed.error?.issues.slice(0, 4).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    },
  },
  {
    id: 'LEAD-PATCH/email-contacted',
    title: 'MUST reject changing the email of a lead already contacted (sent a step through the sinks, or recorded by the control API)',
    // Its refusal is held to the table's row of the status answered (a 409 is `conflict`, 7).
    clauses: ['STATE-LEAD-EMAIL-CHANGE-CONTACTED', 'LEAD-TIMESTAMPS', 'RES-TS-ISO8601', 'ERR-TABLE-409'],
    level: 'MUST',
    features: ['op:leads.list'],
    uses: ['control:lead-events', 'sinks'],
    budget: 4 + MAIL_HISTORY_REQUESTS,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { cid, leads } = await leadsWith(ctx, ws, 1, 'contacted');
      const lead = leads[0]!;
      expectRejected(await ws.api.patch(`/v1/campaigns/${cid}/leads/${lead.id}`, { email: leadAddress(ctx, 'late') }), ctx, 'PATCH lead { email } after the lead was contacted');
      const now = (await allLeads(ctx, ws.api, cid)).find((l) => l.id === lead.id);
      expectThat(now?.email === lead.email, msg`the email of a contacted lead changed to ${now?.email}`);
      // A contacted lead: its lastContactedAt is typed too (the shape checks read leads never contacted).
      const typed = leadShape.safeParse(now);
      expectThat(typed.success, msg`the listed lead once contacted does not match the shape of 2.6: ${typed.error?.issues.slice(0, 4).map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    },
  },
  {
    id: 'LEAD-DELETE/contacted',
    title: 'MUST soft-delete a contacted lead with a retention window in days (retentionDays > 0), hiding it at once (sent a step through the sinks, or recorded by the control API)',
    clauses: ['STATE-LEAD-DELETE-SOFT', 'STATE-LEAD-DELETE-RETENTION', 'LEAD-DELETE-ANSWER'],
    level: 'MUST',
    features: ['op:leads.list'],
    uses: ['control:lead-events', 'sinks'],
    budget: 4 + MAIL_HISTORY_REQUESTS,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { cid, leads } = await leadsWith(ctx, ws, 1, 'contacted');
      const lead = leads[0]!;
      const res = await ws.api.delete(`/v1/campaigns/${cid}/leads/${lead.id}`);
      expect2xx(res, 'DELETE of a contacted lead');
      expectSchema(res, 'LeadDeleteResponse', 'DELETE of a contacted lead');
      expectThat(Number.isInteger(res.body.retentionDays) && res.body.retentionDays > 0, msg`a contacted lead is soft-deleted with a retention window: retentionDays must be a positive integer, got ${res.body.retentionDays}`, res);
      const now = await allLeads(ctx, ws.api, cid);
      expectThat(!now.some((l) => l.id === lead.id), msg`a soft-deleted lead is still listed`);
    },
  },
  {
    id: 'LEAD-SEQPROGRESS/total-steps',
    title: "SHOULD report sequenceProgress.totalSteps as the number of steps of the campaign's sequence",
    clauses: ['LEAD-SEQPROGRESS-TOTALSTEPS'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 3,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { leads } = await campaignWithLeads(ctx, ws.api, 1, 3);
      const l = leads[0] as any;
      expectThat(l.sequenceProgress?.totalSteps === 3, msg`a lead of a 3-step campaign reports totalSteps ${l.sequenceProgress?.totalSteps}`);
    },
  },
  {
    id: 'LEAD-MUTATE/not-found-counts',
    title: 'SHOULD count ids not in the campaign as failed (affected + failed = ids) and leave other campaigns alone',
    clauses: ['LEAD-MUTATE-COUNTS', 'LEAD-MUTATE-OTHER-CAMPAIGN'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 6,
    async run(ctx) {
      const { ws, res, other, foreign } = await mutateWithStrangers(ctx);
      expectMutate(res, 'set_status', 'mutate set_status with 1 lead of the campaign and 2 ids not in it', { affected: 1, failed: 2 });
      const lead = (await allLeads(ctx, ws.api, other)).find((l) => l.id === foreign);
      expectThat(lead?.status !== 'lead_lost', msg`a mutate of one campaign changed a lead of another campaign`);
    },
  },
  {
    id: 'LEAD-MUTATE/tags-no-duplicate',
    title: 'SHOULD not duplicate a tag that mutate add_tags gives a lead again',
    clauses: ['LEAD-MUTATE-ADD-TAGS-NO-DUP'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 5,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 1);
      const a = leads[0]!.id;
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [a], tags: ['hot'] }), 'add_tags', 'mutate add_tags');
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [a], tags: ['hot'] }), 'add_tags', 'mutate add_tags of a tag the lead has');
      const tags = byId(await allLeads(ctx, ws.api, cid)).get(a)?.tags ?? [];
      expectThat(JSON.stringify(tags) === '["hot"]', msg`a tag added twice should be listed once, got ${JSON.stringify(tags)}`);
    },
  },
  {
    id: 'LEAD-MUTATE/delete-filter',
    title: 'SHOULD delete by filter exactly the leads of the campaign that match (search: case-insensitive fragment; tags)',
    clauses: ['LEAD-MUTATE-FILTER-MATCH'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 8,
    async run(ctx) {
      const ws = await ctx.workspace();
      const { id: cid, leads } = await campaignWithLeads(ctx, ws.api, 3);
      const [b, c, d] = leads as [any, any, any];
      const left = async () => (await allLeads(ctx, ws.api, cid)).map((l) => l.id).sort();
      const fragment = String(b.email).split('@')[0]!.slice(-8).toUpperCase();
      expectMutate(await mutate(ctx, ws.api, cid, 'delete', { filter: { search: fragment } }), 'delete', `mutate delete by filter search "${fragment}"`, { affected: 1 });
      let got = await left();
      expectThat(JSON.stringify(got) === JSON.stringify([c.id, d.id].sort()), msg`delete by filter search "${fragment}" (a case-insensitive fragment of one address) should leave ${c.id}, ${d.id}; left ${JSON.stringify(got)}`);
      expectMutate(await mutate(ctx, ws.api, cid, 'add_tags', { ids: [c.id], tags: ['doomed'] }), 'add_tags', 'mutate add_tags');
      expectMutate(await mutate(ctx, ws.api, cid, 'delete', { filter: { tags: ['doomed'] } }), 'delete', 'mutate delete by filter tags', { affected: 1 });
      got = await left();
      expectThat(JSON.stringify(got) === JSON.stringify([d.id]), msg`delete by filter tags ["doomed"] should leave ${d.id}; left ${JSON.stringify(got)}`);
    },
  },
  {
    id: 'LEAD-SEARCH/hits-consistent',
    title: "SHOULD name in each hit the lead's id in that campaign and the campaign's name, and answer data [] when nothing matches",
    clauses: ['LEADHIT-CONSISTENT', 'LEAD-SEARCH-NO-MATCH'],
    level: 'SHOULD',
    features: ['op:leads.list'],
    budget: 4,
    async run(ctx) {
      const ws = await ctx.workspace();
      const param = ctx.profile.names.leadsSearchParam;
      const email = leadAddress(ctx, 'hit');
      const c = await ws.api.post('/v1/campaigns', { ...(await setupCampaignBody(ctx)), name: `${ctx.prefix}hit`, leads: [email] });
      expect2xx(c, 'setup: POST /v1/campaigns');
      const cid = c.body.campaign.id as string;
      const res = await ws.api.get('/v1/leads/search', { [param]: email });
      expect2xx(res, `GET /v1/leads/search?${param}=${email}`);
      const hit = (res.body?.data ?? []).find((h: any) => h.campaignId === cid);
      expectThat(hit, msg`the search for ${email} found no row for campaign ${cid}`, res);
      expectThat(hit.campaignName === c.body.campaign.name, msg`campaignName should be the campaign's name ${JSON.stringify(c.body.campaign.name)}, got ${JSON.stringify(hit.campaignName)}`, res);
      const lead = (await allLeads(ctx, ws.api, cid)).find((l) => l.email === email);
      expectThat(hit.id === lead?.id, msg`the hit's id ${hit.id} should be the lead's id ${lead?.id} in campaign ${cid}`, res);
      const none = await ws.api.get('/v1/leads/search', { [param]: `${ctx.prefix}nothing-matches-${randomUUID()}` });
      expect2xx(none, 'GET /v1/leads/search for nothing');
      expectThat(Array.isArray(none.body.data) && none.body.data.length === 0, msg`a query matching nothing should answer data [], got ${JSON.stringify(none.body.data)}`, none);
    },
  },
];
