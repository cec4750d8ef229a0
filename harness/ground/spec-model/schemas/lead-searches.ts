import { z } from 'zod';
import { uuid, isoTimestamp, int, count } from './primitives.ts';

// ---------------------------------------------------------------------------------------------
// 2.8 Lead search (Lead Finder)
// ---------------------------------------------------------------------------------------------

export const LEAD_SEARCH_STATUSES = [
  'draft', 'queued', 'discovering', 'processing', 'crawling', 'enriching', 'verifying', 'completed', 'stopped', 'failed',
] as const;
export const LEAD_SEARCH_TERMINAL_STATUSES = ['completed', 'stopped', 'failed'] as const;
export const LEAD_SEARCH_MODES = ['companies', 'people'] as const;

function isTerminalSearch(status: string): boolean {
  return (LEAD_SEARCH_TERMINAL_STATUSES as readonly string[]).includes(status);
}

function checkCompletedAt(v: { status: string; completedAt: string | null }, ctx: z.RefinementCtx) {
  if (isTerminalSearch(v.status) && v.completedAt === null) {
    ctx.addIssue({ code: 'custom', path: ['completedAt'], message: 'completedAt is set when a terminal state is reached' });
  }
  if (!isTerminalSearch(v.status) && v.completedAt !== null) {
    ctx.addIssue({ code: 'custom', path: ['completedAt'], message: 'completedAt is null while the search is not finished' });
  }
}

export const leadSearch = z
  .looseObject({
    id: uuid,
    query: z.string(),
    status: z.enum(LEAD_SEARCH_STATUSES),
    searchMode: z.enum(LEAD_SEARCH_MODES),
    maxResults: int(),
    discoveryFinished: z.boolean(),
    progress: z.looseObject({ companiesFound: count(), companiesProcessed: count(), emailsFound: count() }),
    createdAt: isoTimestamp,
    updatedAt: isoTimestamp,
    errorMessage: z.string().nullable(),
    completedAt: isoTimestamp.nullable(),
  })
  .superRefine((v, ctx) => {
    if (v.status === 'failed' && v.errorMessage === null) {
      ctx.addIssue({ code: 'custom', path: ['errorMessage'], message: 'errorMessage is set when status is failed' });
    }
    if (v.status !== 'failed' && v.errorMessage !== null) {
      ctx.addIssue({ code: 'custom', path: ['errorMessage'], message: 'errorMessage is null unless status is failed' });
    }
    checkCompletedAt(v, ctx);
  });

export const leadSearchListItem = z
  .looseObject({
    id: uuid,
    query: z.string(),
    status: z.enum(LEAD_SEARCH_STATUSES),
    searchMode: z.enum(LEAD_SEARCH_MODES),
    maxResults: int(),
    createdAt: isoTimestamp,
    completedAt: isoTimestamp.nullable(),
  })
  .superRefine(checkCompletedAt);

export type LeadSearch = z.infer<typeof leadSearch>;
