import { z } from 'zod';
import { absent, uuid, isoTimestamp, ianaTimezone, int, count } from './primitives.ts';
import { tag } from './accounts.ts';

// ---------------------------------------------------------------------------------------------
// 2.5 Campaign
// ---------------------------------------------------------------------------------------------

export const CAMPAIGN_STATUSES = ['draft', 'scheduled', 'active', 'paused', 'stopped', 'completed', 'failed'] as const;

const scheduleShape = {
  timezone: ianaTimezone,
  // Numbering of days (0 = Sunday or 1 = Monday...) is not shown: the profile declares it.
  sendingDays: z.array(int()),
  sendingMinutesStart: int(),
  sendingMinutesEnd: int(),
  dailyLimit: int(),
  startDate: isoTimestamp,
  endDate: isoTimestamp,
};

/** The schedule in a campaign. startDate/endDate may be unset (a campaign with no end). */
export const schedule = z.looseObject({
  ...scheduleShape,
  startDate: absent(isoTimestamp),
  endDate: absent(isoTimestamp),
});

export const settings = z.looseObject({
  trackOpens: z.boolean(),
  trackClicks: z.boolean(),
  sendAsTextOnly: z.boolean(),
  stopOnReply: z.boolean(),
});

export const campaignMetrics = z.looseObject({
  leadsCount: count(),
  sent: count(),
  opens: count(),
  clicks: count(),
  replies: count(),
});

/**
 * One sequence step. Steps carry variants (the test email names a "sequence step variant"), but
 * the variant shape is not shown, so extra fields pass.
 */
export const sequenceStep = z.looseObject({
  subject: z.string(),
  body: z.string(),
  delayDays: int(),
  delayHours: int(),
});

export const campaign = z.looseObject({
  id: uuid,
  name: z.string().min(1),
  status: z.enum(CAMPAIGN_STATUSES),
  schedule,
  settings,
  metrics: campaignMetrics,
  tags: z.array(tag),
  createdAt: isoTimestamp,
  updatedAt: isoTimestamp,
  sequence: z.array(sequenceStep),
  accounts: z.array(uuid),
});

export const campaignListItem = z.looseObject({
  id: uuid,
  name: z.string().min(1),
  status: z.enum(CAMPAIGN_STATUSES),
  leadsCount: count(),
  tags: z.array(tag),
  createdAt: isoTimestamp,
});

/** GET /v1/campaigns/{id}/status. nextScheduleOpensAt: null when in-window or not active. */
export const campaignStatusView = z
  .looseObject({
    id: uuid,
    status: z.enum(CAMPAIGN_STATUSES),
    isWithinSchedule: z.boolean(),
    metrics: campaignMetrics,
    nextScheduleOpensAt: isoTimestamp.nullable(),
  })
  .superRefine((v, ctx) => {
    if ((v.isWithinSchedule || v.status !== 'active') && v.nextScheduleOpensAt !== null) {
      ctx.addIssue({
        code: 'custom',
        path: ['nextScheduleOpensAt'],
        message: 'nextScheduleOpensAt must be null when the campaign is within its schedule or not active',
      });
    }
  });

// Campaign inputs. Required fields and bounds of the create fields are not shown (2.5): every
// field is optional here and only its type is enforced.
export const scheduleInput = z.object(scheduleShape).partial();
export const settingsInput = settings.partial();
export const sequenceStepInput = z.object({
  subject: z.string(),
  body: z.string(),
  delayDays: int(),
  delayHours: int(),
}).partial();

/** POST /v1/campaigns body. `leads`: email address strings; `launch` needs campaigns:lifecycle too. */
export const campaignCreateBody = z.object({
  name: z.string().min(1).optional(),
  schedule: scheduleInput.optional(),
  settings: settingsInput.optional(),
  sequence: z.array(sequenceStepInput).optional(),
  accounts: z.array(uuid).optional(),
  leads: z.array(z.string()).optional(),
  launch: z.boolean().optional(),
});

/** PATCH /v1/campaigns/{id}: only supplied sections change; accounts and sequence replace. */
export const campaignPatchBody = z.object({
  name: z.string().min(1),
  schedule: scheduleInput,
  settings: settingsInput,
  sequence: z.array(sequenceStepInput),
  accounts: z.array(uuid),
}).partial();

/**
 * POST /v1/campaigns answer. `launchError` is typed string and "says why it could not launch";
 * when no launch failed (launched, or no launch asked) there is no reason, so null or omission
 * is accepted. `campaignCreateResponseFor()` adds the rules that depend on the request.
 */
export const campaignCreateResponse = z.looseObject({
  campaign,
  launched: z.boolean(),
  leads: z.looseObject({ submitted: count(), created: count(), duplicates: count(), invalid: count() }),
  launchError: z.string().nullable().optional(),
});

/**
 * The create answer for a request with or without `launch: true`: without it, `launched` is
 * false; with it and `launched` false, `launchError` is a non-empty string (the reason).
 */
export function campaignCreateResponseFor(req: { launch: boolean }) {
  return campaignCreateResponse.superRefine((v, ctx) => {
    if (!req.launch && v.launched) {
      ctx.addIssue({ code: 'custom', path: ['launched'], message: 'launched must be false when no launch was asked' });
    }
    if (req.launch && !v.launched && !(typeof v.launchError === 'string' && v.launchError.length > 0)) {
      ctx.addIssue({ code: 'custom', path: ['launchError'], message: 'launchError must say why the campaign could not launch' });
    }
  });
}

/** POST /v1/campaigns/{id}/start and /resume (and the referenced pause). */
export const campaignLifecycleResponse = z.looseObject({
  id: uuid,
  status: z.enum(CAMPAIGN_STATUSES),
  success: z.boolean(),
});

export const TEST_EMAIL_PERSONALIZATION = ['dummy', 'lead'] as const;

/** POST /v1/campaigns/{id}/test-email body: leadId required for `lead`, omitted for `dummy`. */
export const testEmailBody = z
  .object({
    variantId: uuid,
    accountId: uuid,
    recipient: z.email(),
    personalization: z.enum(TEST_EMAIL_PERSONALIZATION),
    leadId: uuid.optional(),
  })
  .superRefine((v, ctx) => {
    if (v.personalization === 'lead' && v.leadId === undefined) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'leadId is required when personalization is "lead"' });
    }
    if (v.personalization !== 'lead' && v.leadId !== undefined) {
      ctx.addIssue({ code: 'custom', path: ['leadId'], message: 'leadId must be omitted unless personalization is "lead"' });
    }
  });

export const testEmailResponse = z.looseObject({ sent: z.boolean(), messageId: z.string() });

/** Test emails per day per workspace (part 8). */
export const TEST_EMAILS_PER_DAY = 12;

export type Campaign = z.infer<typeof campaign>;
export type CampaignListItem = z.infer<typeof campaignListItem>;
export type CampaignStatusView = z.infer<typeof campaignStatusView>;
