import { randomBytes } from 'node:crypto';
import type { Profile } from '../ground/profile-schema.ts';
import { parseProfile } from '../ground/profile.ts';
import { parseChoices, profileFor, startReference } from '../reference/index.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';
import { LEAD_MS, type ClockEdge } from './clock-edges.ts';

// A portability target: the reference started with one set of "not shown" choices, described
// by the profile a vendor with those choices would write. Without the control API the kit is
// handed only workspaces provisioned beforehand (what a staging deployment gives a CI job).

export interface PortabilityOptions {
  /** 'default' | 'alt' | 'random:SEED' */
  choices: string;
  /** Hand the kit the control API (true) or withhold it (false). */
  control: boolean;
  /** Workspaces provisioned beforehand when the control API is withheld. */
  workspaces?: number;
  /** A reference this many times slower on purpose (`reference --slow`); default 1. */
  slow?: number;
  /**
   * Start the target's clock LEAD_MS before this edge, every workspace in its zone: with the control
   * API by advancing the clock (it only advances), without it by starting the reference there
   * (`reference --clock-start`, as faketime would).
   */
  clockEdge?: ClockEdge;
}

export interface PortabilityTarget {
  profile: Profile;
  baseUrl: string;
  control?: ControlEndpoint;
  choicesName: string;
  /** The workspaces' zones the run makes through the control API (a clock edge's); default the pool's. */
  zones?: readonly string[];
  /** The target's clock when the run was handed the target (ISO 8601). */
  clockAt?: string;
  stop(): Promise<void>;
}

export async function startPortabilityTarget(opts: PortabilityOptions): Promise<PortabilityTarget> {
  const choices = parseChoices(opts.choices);
  const edge = opts.clockEdge;
  const clockStartMs = edge && !opts.control ? edge.next(Date.now()) - LEAD_MS : undefined;
  const ref = await startReference({ choices, ...(opts.slow ? { slow: opts.slow } : {}), ...(clockStartMs !== undefined ? { clockStartMs } : {}) });
  try {
    const control = { baseUrl: ref.controlUrl, token: ref.controlToken };
    const raw = profileFor(choices, { baseUrl: ref.baseUrl, ...(opts.control ? { control } : {}) });
    if (!opts.control) raw.workspaces = await provision(control, opts.workspaces ?? 48, edge?.zone);
    const clockAt = edge && opts.control ? await advanceToEdge(control, edge) : edge ? await controlCall(control, 'GET', '/clock') : undefined;
    return {
      profile: parseProfile(raw, `profile for choices ${choices.name}`),
      baseUrl: ref.baseUrl,
      ...(opts.control ? { control } : {}),
      choicesName: choices.name,
      ...(edge ? { zones: [edge.zone], clockAt } : {}),
      stop: () => ref.stop(),
    };
  } catch (e) {
    await ref.stop();
    throw e;
  }
}

/** Advances the target's clock (through its control API, as a run could) to LEAD_MS before the edge; answers the clock then. */
async function advanceToEdge(control: ControlEndpoint, edge: ClockEdge): Promise<string> {
  const now = Date.parse(await controlCall(control, 'GET', '/clock'));
  const seconds = Math.floor((edge.next(now) - LEAD_MS - now) / 1000);
  return controlCall(control, 'POST', '/clock/advance', { seconds });
}

async function controlCall(control: ControlEndpoint, method: string, path: string, body?: unknown): Promise<string> {
  const res = await fetch(`${control.baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${control.token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  const answer = (await res.json().catch(() => ({}))) as { now?: unknown };
  if (res.status !== 200 || typeof answer.now !== 'string') throw new Error(`control ${method} ${path} answered ${res.status} without { now }`);
  return answer.now;
}

/**
 * What a dashboard does before a CI job: workspaces with an all:all + apikeys:manage key (in
 * `timezone`, when given), stated in the profile with the name and zone the dashboard shows.
 */
async function provision(control: ControlEndpoint, n: number, timezone?: string) {
  const out: { apiKey: string; apiKeyId: string; organizationId: string; name: string; timezone: string }[] = [];
  const tag = randomBytes(2).toString('hex');
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${control.baseUrl}/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Staging ${tag} ${i}`, ...(timezone ? { timezone } : {}) }),
    });
    if (res.status !== 201) throw new Error(`provisioning workspace ${i} answered ${res.status}: ${await res.text()}`);
    const w = (await res.json()) as { apiKey: string; apiKeyId: string; organizationId: string; name: string; timezone: string };
    out.push({ apiKey: w.apiKey, apiKeyId: w.apiKeyId, organizationId: w.organizationId, name: w.name, timezone: w.timezone });
  }
  return out;
}
