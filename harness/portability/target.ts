import { randomBytes } from 'node:crypto';
import type { Profile } from '../ground/profile-schema.ts';
import { parseProfile } from '../ground/profile.ts';
import { parseChoices, profileFor, startReference } from '../reference/index.ts';
import type { ControlEndpoint } from '../ground/control-endpoint.ts';

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
}

export interface PortabilityTarget {
  profile: Profile;
  baseUrl: string;
  control?: ControlEndpoint;
  choicesName: string;
  stop(): Promise<void>;
}

export async function startPortabilityTarget(opts: PortabilityOptions): Promise<PortabilityTarget> {
  const choices = parseChoices(opts.choices);
  const ref = await startReference({ choices, ...(opts.slow ? { slow: opts.slow } : {}) });
  try {
    const control = { baseUrl: ref.controlUrl, token: ref.controlToken };
    const raw = profileFor(choices, { baseUrl: ref.baseUrl, ...(opts.control ? { control } : {}) });
    if (!opts.control) raw.workspaces = await provision(control, opts.workspaces ?? 48);
    return {
      profile: parseProfile(raw, `profile for choices ${choices.name}`),
      baseUrl: ref.baseUrl,
      ...(opts.control ? { control } : {}),
      choicesName: choices.name,
      stop: () => ref.stop(),
    };
  } catch (e) {
    await ref.stop();
    throw e;
  }
}

/** What a dashboard does before a CI job: workspaces with an all:all + apikeys:manage key. */
async function provision(control: ControlEndpoint, n: number) {
  const out: { apiKey: string; apiKeyId: string; organizationId: string }[] = [];
  const tag = randomBytes(2).toString('hex');
  for (let i = 0; i < n; i++) {
    const res = await fetch(`${control.baseUrl}/workspaces`, {
      method: 'POST',
      headers: { authorization: `Bearer ${control.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `staging-${tag}-${i}` }),
    });
    if (res.status !== 201) throw new Error(`provisioning workspace ${i} answered ${res.status}: ${await res.text()}`);
    const w = (await res.json()) as { apiKey: string; apiKeyId: string; organizationId: string };
    out.push({ apiKey: w.apiKey, apiKeyId: w.apiKeyId, organizationId: w.organizationId });
  }
  return out;
}
