// The send-path load's options: each checked against the spec's bounds (a clear KitError per
// problem) before anything reaches the target, and the defaults filled in.
import { KitError } from '../../ground/errors.ts';
import { MINUTE } from './calendar.ts';
import type { SendpathLoadOptions } from './types.ts';

/** The options a run goes by once defaults are filled. */
export interface SendpathSettings {
  campaigns: number;
  gapMinutes: number;
  capPerDay: number;
  steps: number;
  maxWallMs: number;
  maxSimulatedDays: number;
}

function checkInt(name: string, v: number, min: number, max: number): void {
  if (!Number.isInteger(v) || v < min || v > max) throw new KitError(`sendpath load: ${name} must be a whole number from ${min} to ${max}, got ${v}`);
}

/** Validates the options (a clear KitError per problem) and fills the defaults. */
export function resolveSendpathOptions(o: SendpathLoadOptions): SendpathSettings {
  const d: SendpathSettings = {
    campaigns: o.campaigns ?? 2,
    gapMinutes: o.gapMinutes ?? (o.control ? 5 : 1),
    capPerDay: o.capPerDay ?? 200,
    steps: o.steps ?? 1,
    maxWallMs: o.maxWallMs ?? 10 * MINUTE,
    maxSimulatedDays: o.maxSimulatedDays ?? 14,
  };
  checkInt('mailboxes', o.mailboxes, 1, 10_000);
  checkInt('leads', o.leads, 1, 1_000_000);
  checkInt('campaigns', d.campaigns, 1, Math.min(100, o.leads));
  // spec 2.2: maxEmailsPerDay 1 to 200, sendingGapMinutes 1 to 300
  checkInt('capPerDay (maxEmailsPerDay)', d.capPerDay, 1, 200);
  checkInt('gapMinutes (sendingGapMinutes)', d.gapMinutes, 1, 300);
  checkInt('steps', d.steps, 1, 20);
  if (!(d.maxWallMs > 0) || !Number.isFinite(d.maxWallMs)) throw new KitError(`sendpath load: maxWallMs must be a positive number of ms, got ${d.maxWallMs}`);
  if (!(d.maxSimulatedDays > 0) || !Number.isFinite(d.maxSimulatedDays)) throw new KitError(`sendpath load: maxSimulatedDays must be a positive number, got ${d.maxSimulatedDays}`);
  if (!o.control && !o.apiKey) throw new KitError('sendpath load: give a workspace apiKey, or the control API (which creates a fresh workspace)');
  if (!o.profile.names.sendingDays) throw new KitError('sendpath load: the profile does not declare names.sendingDays (the numbering of schedule.sendingDays is not shown in the spec); the campaigns need a schedule open every day');
  try {
    new URL(o.baseUrl);
  } catch {
    throw new KitError(`sendpath load: baseUrl is not a URL: ${o.baseUrl}`);
  }
  return d;
}
