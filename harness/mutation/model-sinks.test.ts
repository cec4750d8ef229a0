import { describe, expect, it } from 'vitest';
import type { RunEvent } from '../ground/events.ts';
import { loadProfile } from '../ground/profile.ts';
import { MODEL_CHECKS } from '../../suites/checks/state/index.ts';
import { runAgainstReference } from './run.ts';

// The sinks variant of the mailbox model check, through the real runner (which starts the mail
// sinks and hands them to the check): it passes against the reference, and it is not vacuous:
// verification against the sinks really makes mailboxes active.

describe('STATE-MODEL/mailbox-sinks against the reference', () => {
  it('passes, and verification on the sinks makes mailboxes active', async () => {
    const profile = await loadProfile();
    const events: RunEvent[] = [];
    const check = MODEL_CHECKS.find((c) => c.id === 'STATE-MODEL/mailbox-sinks')!;
    const [result] = await runAgainstReference(profile, [check], [], { emit: (e) => events.push(e) });
    expect(result!.verdict, result!.message).toBe('pass');
    const active = events.filter((e) => {
      if (e.type !== 'exchange' || e.request.method !== 'GET' || !/\/v1\/accounts\/[0-9a-f-]{36}$/.test(e.request.url)) return false;
      try {
        return JSON.parse(e.response?.body ?? '{}').status === 'active';
      } catch {
        return false;
      }
    });
    expect(active.length).toBeGreaterThan(0);
  });
});
