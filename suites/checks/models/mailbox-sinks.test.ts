import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReference, type ReferenceHandle } from '../../../harness/reference/index.ts';
import { startSinks, type MailSink } from '../../../harness/sinks/index.ts';
import { createClient, createControlClient, Recorder, Redactor } from '../../../harness/client/index.ts';
import type { ApiClient } from '../../../harness/client/types.ts';
import { loadProfile } from '../../../harness/runner/profile.ts';
import type { CheckContext, Workspace } from '../../lib/check.ts';
import { MAILBOX_MODEL_CHECKS } from './mailbox.ts';

// The sinks variant of the mailbox model check, run against the reference with the kit's mail
// sinks handed over by hand (the runner does not put `sinks` into the check context yet, so a
// conformance run skips that check). Mailboxes get working credentials: verification can make them
// active, and pause must then follow "400 unless active".

let ref: ReferenceHandle;
let sinks: MailSink;
let statuses: Record<string, number>;

beforeAll(async () => {
  ref = await startReference();
  sinks = await startSinks({ host: '127.0.0.1', requireAuth: true });
});

afterAll(async () => {
  await sinks?.stop();
  await ref?.stop();
});

async function context(seed: number): Promise<CheckContext> {
  statuses = {};
  const recorder = new Recorder(
    {
      emit: (e) => {
        if (e.type !== 'exchange' || e.request.method !== 'GET' || !/\/v1\/accounts\/[0-9a-f-]{36}$/.test(e.request.url)) return;
        let status: unknown;
        try {
          status = JSON.parse(String(e.response?.body ?? '{}'))?.status;
        } catch {
          status = undefined;
        }
        statuses[String(status)] = (statuses[String(status)] ?? 0) + 1;
      },
    },
    new Redactor(),
  );
  const control = createControlClient({ baseUrl: ref.controlUrl, token: ref.controlToken, recorder });
  const profile = await loadProfile('fixtures/profiles/reference.json');
  const workspace = async (): Promise<Workspace> => {
    const w = await control.createWorkspace({ name: 'zz-model-sinks' });
    const api: ApiClient = createClient({ baseUrl: ref.baseUrl, key: w.apiKey, recorder });
    return { organizationId: w.organizationId, api, createKey: () => Promise.reject(new Error('not needed')) };
  };
  const first = await workspace();
  return {
    checkId: 'STATE-MODEL/mailbox-sinks',
    profile,
    depth: 'default',
    prefix: 'zz-model-sinks-',
    seed,
    workspace,
    anonymous: first.api.withKey(null),
    control,
    sinks,
    observed: () => [],
    log: () => {},
  };
}

describe('STATE-MODEL/mailbox-sinks against the reference', () => {
  const check = MAILBOX_MODEL_CHECKS.find((c) => c.id === 'STATE-MODEL/mailbox-sinks')!;
  it('passes, and verification on the sinks makes mailboxes active', async () => {
    const seen: Record<string, number> = {};
    for (const seed of [1, 2]) {
      await check.run(await context(seed));
      for (const [k, n] of Object.entries(statuses)) seen[k] = (seen[k] ?? 0) + n;
    }
    expect(seen.active ?? 0).toBeGreaterThan(0);
  });
});
