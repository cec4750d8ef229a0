import { z } from 'zod';
import { absent, uuid, isoTimestamp, int, count } from './primitives.ts';

// ---------------------------------------------------------------------------------------------
// 2.6 Lead
// ---------------------------------------------------------------------------------------------

export const LEAD_REPLIED_STATUSES = [
  'lead_replied_interested', 'lead_replied_meeting_request', 'lead_replied_out_of_office',
  'lead_replied_wrong_person', 'lead_replied_not_interested', 'lead_replied_unsubscribed',
  'lead_replied_uncategorized',
] as const;
/** Settable only once the lead has replied (3.3). */
export const LEAD_AFTER_REPLY_STATUSES = [...LEAD_REPLIED_STATUSES, 'lead_converted'] as const;
/** Settable at any time (3.3). */
export const LEAD_ANYTIME_STATUSES = ['lead_lost', 'blacklisted'] as const;
export const LEAD_USER_SETTABLE_STATUSES = [...LEAD_AFTER_REPLY_STATUSES, ...LEAD_ANYTIME_STATUSES] as const;
/** Platform-managed statuses named by the spec (the full set is not shown); setting them is rejected. */
export const LEAD_PLATFORM_STATUSES_NAMED = ['email_sent', 'scheduled', 'not_contacted'] as const;

export const lead = z.looseObject({
  id: uuid,
  email: z.string(),
  firstName: absent(z.string()),
  lastName: absent(z.string()),
  companyName: absent(z.string()),
  jobTitle: absent(z.string()),
  website: absent(z.string()),
  linkedinProfile: absent(z.string()),
  location: absent(z.string()),
  tags: z.array(z.string()),
  customFields: z.record(z.string(), z.unknown()),
  // Value set beyond part 3 not shown (seen: not_contacted).
  status: z.string(),
  // Value sets not shown (seen: valid, email_ok).
  verification: absent(z.looseObject({ status: z.string(), subStatus: z.string() })),
  metrics: z.looseObject({ sent: count(), opened: count(), clicked: count(), replied: count() }),
  provider: absent(z.string()),
  sequenceProgress: z.looseObject({
    totalSteps: count(),
    sentCount: count(),
    plannedCount: count(),
    failedCount: count(),
    nextPlannedAt: absent(isoTimestamp),
  }),
  createdAt: isoTimestamp,
  lastContactedAt: absent(isoTimestamp),
  lastRepliedAt: absent(isoTimestamp),
});

export const LEAD_PATCH_FIELDS = [
  'email', 'firstName', 'lastName', 'companyName', 'jobTitle', 'website', 'linkedinProfile', 'location',
  'tags', 'customFields', 'customFieldLabels', 'customFieldTypes', 'status',
] as const;

/** PATCH /v1/campaigns/{cid}/leads/{leadId} body (rules of 3.3 are behaviour, not shape). */
export const leadPatchBody = z.object({
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  companyName: z.string(),
  jobTitle: z.string(),
  website: z.string(),
  linkedinProfile: z.string(),
  location: z.string(),
  tags: z.array(z.string()),
  customFields: z.record(z.string(), z.unknown()),
  customFieldLabels: z.record(z.string(), z.unknown()),
  customFieldTypes: z.record(z.string(), z.unknown()),
  status: z.string(),
}).partial();

export const leadDeleteResponse = z.looseObject({ success: z.literal(true), retentionDays: int().min(0) });

// Mutate (4.4). The request field names of the operation and the status are not shown: the
// profile declares them, and `mutateBody(names)` builds the body schema with them.
export const MUTATE_OPERATIONS = ['set_status', 'add_tags', 'remove_tags', 'delete'] as const;
export type MutateOperation = (typeof MUTATE_OPERATIONS)[number];
export const MUTATE_MAX_IDS = 1000;

export const mutateIds = z.array(uuid).min(1).max(MUTATE_MAX_IDS);
export const mutateTags = z.array(z.string());
export const mutateAll = z.boolean();

/** True when a mutate filter holds at least one condition (a non-empty search or tags). */
export function filterHasCondition(f: { search?: unknown; tags?: unknown }): boolean {
  return (typeof f.search === 'string' && f.search.trim().length > 0) || (Array.isArray(f.tags) && f.tags.length > 0);
}
export const mutateFilter = z
  .object({ search: z.string().optional(), tags: z.array(z.string()).optional() })
  .refine(filterHasCondition, { message: 'filter must hold at least one condition; an empty filter is rejected' });

/** Builds the mutate body schema with the profile's names for the operation and status fields. */
export function mutateBody(names: { operation: string; status: string }) {
  return z
    .object({
      [names.operation]: z.enum(MUTATE_OPERATIONS),
      ids: mutateIds.optional(),
      filter: mutateFilter.optional(),
      all: mutateAll.optional(),
      [names.status]: z.enum(LEAD_USER_SETTABLE_STATUSES).optional(),
      tags: mutateTags.optional(),
    })
    .superRefine((raw, ctx) => {
      const b = raw as Record<string, unknown>;
      const op = b[names.operation] as MutateOperation;
      const has = (k: string) => b[k] !== undefined;
      if (op !== 'delete' && (has('filter') || has('all'))) {
        ctx.addIssue({ code: 'custom', message: '`filter` and `all` are only for delete' });
      }
      if (b.all === true && (has('ids') || has('filter'))) {
        ctx.addIssue({ code: 'custom', message: '`all` is mutually exclusive with `ids` and `filter`' });
      }
      const filterBasedDelete = op === 'delete' && (has('filter') || b.all === true);
      if (!has('ids') && !filterBasedDelete) {
        ctx.addIssue({ code: 'custom', path: ['ids'], message: '`ids` is required except for a filter-based delete' });
      }
      if (op === 'set_status' && !has(names.status)) {
        ctx.addIssue({ code: 'custom', path: [names.status], message: 'a status is required for set_status' });
      }
      if ((op === 'add_tags' || op === 'remove_tags') && !has('tags')) {
        ctx.addIssue({ code: 'custom', path: ['tags'], message: '`tags` is required for add_tags and remove_tags' });
      }
    });
}

export const leadMutateResponse = z.looseObject({
  operation: z.enum(MUTATE_OPERATIONS),
  affected: count(),
  failed: count(),
  errors: z.array(z.string()),
});

export const leadSearchHit = z.looseObject({
  id: uuid,
  email: z.string(),
  campaignId: uuid,
  campaignName: z.string(),
  firstName: absent(z.string()),
  lastName: absent(z.string()),
});

export const LEAD_SEARCH_MAX_HITS = 10;

/** GET /v1/leads/search: up to 10 hits, one row per campaign containing the email. */
export const leadSearchResponse = z
  .looseObject({ data: z.array(leadSearchHit).max(LEAD_SEARCH_MAX_HITS) })
  .superRefine((v, ctx) => {
    const seen = new Set<string>();
    v.data.forEach((h, i) => {
      const key = `${h.campaignId}\u0000${h.email.toLowerCase()}`;
      if (seen.has(key)) ctx.addIssue({ code: 'custom', path: ['data', i], message: 'one row per campaign: duplicate (campaign, email) row' });
      seen.add(key);
    });
  });

export type Lead = z.infer<typeof lead>;
export type LeadSearchHit = z.infer<typeof leadSearchHit>;
