import { z } from 'zod';
import { uuid, ianaTimezone } from './primitives.ts';

// ---------------------------------------------------------------------------------------------
// 2.9 Workspace and usage
// ---------------------------------------------------------------------------------------------

export const LIMIT_TYPES = [
  'monthly_emails', 'active_contacts', 'ai_credits', 'email_validation', 'monthly_imports', 'lead_finder_credits',
] as const;

export const workspace = z.looseObject({ organizationId: uuid, name: z.string(), timezone: ianaTimezone });

/** Tolerance (percentage points) for usagePercentage = used / limit x 100 (allows rounding). */
export const USAGE_PERCENT_TOLERANCE = 0.5;

export const usage = z
  .looseObject({
    used: z.number(),
    limit: z.number().nullable(),
    remaining: z.number().nullable(),
    isUnlimited: z.boolean(),
    usagePercentage: z.number(),
    limitType: z.enum(LIMIT_TYPES),
  })
  .superRefine((u, ctx) => {
    if (u.isUnlimited) {
      if (u.limit !== null) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'limit is null when unlimited' });
      if (u.remaining !== null) ctx.addIssue({ code: 'custom', path: ['remaining'], message: 'remaining is null when unlimited' });
      if (u.usagePercentage !== 0) ctx.addIssue({ code: 'custom', path: ['usagePercentage'], message: 'usagePercentage is 0 when unlimited' });
      return;
    }
    if (u.limit === null) ctx.addIssue({ code: 'custom', path: ['limit'], message: 'limit is a number unless unlimited' });
    if (u.remaining === null) ctx.addIssue({ code: 'custom', path: ['remaining'], message: 'remaining is a number unless unlimited' });
    if (u.limit !== null && u.limit > 0) {
      const expected = (u.used / u.limit) * 100;
      if (Math.abs(expected - u.usagePercentage) > USAGE_PERCENT_TOLERANCE) {
        ctx.addIssue({ code: 'custom', path: ['usagePercentage'], message: `usagePercentage must be used / limit x 100 (${expected})` });
      }
    }
  });

/** DELETE /v1/api-keys/{id}. */
export const successResponse = z.looseObject({ success: z.literal(true) });

export type Workspace = z.infer<typeof workspace>;
export type Usage = z.infer<typeof usage>;
