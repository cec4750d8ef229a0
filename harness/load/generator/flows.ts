import type { Faker } from '@faker-js/faker';
import type { Profile } from '../../ground/profile-schema.ts';
import { campaignBody } from '../../../fixtures/factories/index.ts';
import { fillPath, getPath, operation } from '../../ground/operations.ts';
import { KitError } from '../../ground/errors.ts';

// The API load's flows: each is one real request of a user's day, valid by the spec, built from
// the state a workspace was given at setup (a mailbox, a campaign with leads). Names the spec
// leaves "not shown" (page size, search parameter, mutate fields, referenced operations) come
// from the profile; a flow whose name or operation the profile lacks is left out, and said so.

/** What a workspace holds for the flows: made at setup, grown by the create flow. */
export interface FlowState {
  accountId: string;
  campaignIds: string[];
  /** lead ids of campaignIds[0] (empty when the profile has no leads.list) */
  leadIds: string[];
  leadEmails: string[];
}

export interface FlowRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  query?: Record<string, string | number>;
  body?: unknown;
  /** the endpoint as reports group it, e.g. "GET /v1/campaigns/{id}/status" */
  label: string;
  /** the spec model's schema of a 2xx answer (harness/ground/spec-model/schemas/); `list` wraps it in { data, meta } */
  schema?: string;
  list?: boolean;
}

export interface Flow {
  name: string;
  weight: number;
  /** why it cannot run against this profile, if it cannot */
  unavailable?(profile: Profile): string | undefined;
  build(s: FlowState, f: Faker, profile: Profile): FlowRequest;
  /** learns from a 2xx answer (the create flow adds its campaign) */
  learn?(s: FlowState, body: unknown): void;
}

const pick = <T>(f: Faker, xs: readonly T[]): T => xs[f.number.int({ min: 0, max: xs.length - 1 })]!;
/** A workspace keeps this many campaigns to read from (the create flow adds, the oldest go). */
const CAMPAIGNS_KEPT = 20;

export const FLOWS: readonly Flow[] = [
  {
    name: 'campaigns.create',
    weight: 1,
    build: (_s, f, _p) => ({ method: 'POST', path: '/v1/campaigns', body: campaignBody(f, 'load-', { leads: 5, steps: 1 }), label: 'POST /v1/campaigns', schema: 'CampaignCreateResponse' }),
    learn(s, body) {
      const id = getPath(body, 'campaign.id');
      if (typeof id !== 'string') return;
      s.campaignIds.push(id);
      if (s.campaignIds.length > CAMPAIGNS_KEPT) s.campaignIds.splice(1, 1); // the setup campaign (index 0) stays
    },
  },
  {
    name: 'campaigns.status',
    weight: 4,
    build: (s, f) => ({ method: 'GET', path: fillPath('/v1/campaigns/{id}/status', { id: pick(f, s.campaignIds) }), label: 'GET /v1/campaigns/{id}/status', schema: 'CampaignStatusView' }),
  },
  {
    name: 'campaigns.list',
    weight: 3,
    build: (_s, _f, p) => ({ method: 'GET', path: '/v1/campaigns', query: { [p.names.list.pageSize]: 20 }, label: 'GET /v1/campaigns', schema: 'CampaignListItem', list: true }),
  },
  {
    name: 'campaigns.update',
    weight: 1,
    build: (s, f) => ({ method: 'PATCH', path: fillPath('/v1/campaigns/{id}', { id: pick(f, s.campaignIds) }), body: { name: `load-${f.company.catchPhrase()}`.slice(0, 120) }, label: 'PATCH /v1/campaigns/{id}', schema: 'Campaign' }),
  },
  {
    name: 'leads.mutate',
    weight: 1,
    unavailable: (p) => (operation(p, 'leads.list') ? undefined : 'needs the referenced operation "leads.list" in the profile (lead ids to mutate)'),
    build: (s, f, p) => ({
      method: 'POST',
      path: fillPath('/v1/campaigns/{cid}/leads/mutate', { cid: s.campaignIds[0]! }),
      body: { [p.names.mutate.operation]: pick(f, ['add_tags', 'remove_tags'] as const), ids: f.helpers.arrayElements(s.leadIds, { min: 1, max: 3 }), tags: ['load'] },
      label: 'POST /v1/campaigns/{cid}/leads/mutate',
      schema: 'LeadMutateResponse',
    }),
  },
  {
    name: 'leads.search',
    weight: 2,
    build: (s, f, p) => ({ method: 'GET', path: '/v1/leads/search', query: { [p.names.leadsSearchParam]: pick(f, s.leadEmails).split('@')[0]!.slice(-8) }, label: 'GET /v1/leads/search', schema: 'LeadSearchResponse' }),
  },
  {
    name: 'analytics.campaign',
    weight: 2,
    build: (s, f) => ({ method: 'GET', path: fillPath('/v1/campaigns/{id}/analytics', { id: pick(f, s.campaignIds) }), label: 'GET /v1/campaigns/{id}/analytics', schema: 'CampaignAnalytics' }),
  },
  {
    name: 'analytics.overview',
    weight: 1,
    build: () => ({ method: 'GET', path: '/v1/campaigns/analytics/overview', label: 'GET /v1/campaigns/analytics/overview', schema: 'AnalyticsOverview' }),
  },
  {
    name: 'accounts.verification',
    weight: 1,
    build: (s) => ({ method: 'GET', path: fillPath('/v1/accounts/{id}/verification', { id: s.accountId }), label: 'GET /v1/accounts/{id}/verification', schema: 'VerificationResult' }),
  },
  {
    name: 'accounts.get',
    weight: 1,
    unavailable: (p) => (operation(p, 'accounts.get') ? undefined : 'needs the referenced operation "accounts.get" in the profile'),
    build: (s, _f, p) => {
      const op = operation(p, 'accounts.get')!;
      return { method: op.method as 'GET', path: fillPath(op.path, { id: s.accountId }), label: `${op.method} ${op.path}` };
    },
  },
  {
    name: 'workspace.get',
    weight: 1,
    build: () => ({ method: 'GET', path: '/v1/workspace', label: 'GET /v1/workspace', schema: 'Workspace' }),
  },
];

export interface Mix {
  /** flow name -> weight (only flows that run) */
  weights: Record<string, number>;
  /** flows left out, with the reason */
  left: { flow: string; reason: string }[];
}

/** "campaigns.status=4,leads.search=2" -> { "campaigns.status": 4, ... }; a bad entry names itself. */
export function parseMix(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const part of text.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([\w.]+)=(\d+(?:\.\d+)?)$/.exec(part);
    if (!m) throw new KitError(`--mix entry "${part}" is not flow=weight (e.g. campaigns.status=4)`);
    out[m[1]!] = Number(m[2]);
  }
  return out;
}

/**
 * The mix that runs: the defaults, overridden by the profile's `load.mix`, overridden by `--mix`
 * (an override names every flow it wants; flows it leaves out get weight 0). Unknown flow names
 * are refused with the known ones; flows the profile cannot serve are left out with the reason.
 */
export function resolveMix(profile: Profile, override?: Record<string, number>, source = '--mix'): Mix {
  const given = override ?? profile.load?.mix;
  const where = override ? source : 'load.mix';
  const known = new Set(FLOWS.map((f) => f.name));
  for (const name of Object.keys(given ?? {}))
    if (!known.has(name)) throw new KitError(`${where}: unknown flow "${name}"; known: ${[...known].join(', ')}`);
  const weights: Record<string, number> = {};
  const left: Mix['left'] = [];
  for (const flow of FLOWS) {
    const w = given ? (given[flow.name] ?? 0) : flow.weight;
    if (!(w > 0)) continue;
    const reason = flow.unavailable?.(profile);
    if (reason) left.push({ flow: flow.name, reason });
    else weights[flow.name] = w;
  }
  if (Object.keys(weights).length === 0) throw new KitError(`${where}: no flow left to run${left.length ? ` (${left.map((l) => `${l.flow} ${l.reason}`).join('; ')})` : ''}`);
  return { weights, left };
}

/** The flow of each scheduled request: a seeded weighted draw, the same for the same seed. */
export function flowSequence(mix: Mix, n: number, f: Faker): Flow[] {
  const entries = Object.entries(mix.weights);
  const total = entries.reduce((a, [, w]) => a + w, 0);
  const byName = new Map(FLOWS.map((x) => [x.name, x]));
  return Array.from({ length: n }, () => {
    let r = f.number.float({ min: 0, max: total });
    for (const [name, w] of entries) {
      if ((r -= w) <= 0) return byName.get(name)!;
    }
    return byName.get(entries[entries.length - 1]![0])!;
  });
}

