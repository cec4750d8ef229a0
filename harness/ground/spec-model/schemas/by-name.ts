import type { z } from 'zod';
import {
  tag, statusMessage, warmupInput, warmup, mailboxVerification, verificationResult, mailbox,
  accountCreateInput, accountsCreateBody, accountPatchBody, accountsCreateResponse, deletedResponse,
  oauthInitResponse,
} from './accounts.ts';
import {
  schedule, settings, campaignMetrics, sequenceStep, campaign, campaignListItem, campaignStatusView,
  campaignCreateBody, campaignPatchBody, campaignCreateResponse, campaignLifecycleResponse, testEmailBody,
  testEmailResponse,
} from './campaigns.ts';
import { lead, leadPatchBody, leadDeleteResponse, leadMutateResponse, leadSearchHit, leadSearchResponse } from './leads.ts';
import { emailSummary, email } from './emails.ts';
import { leadSearch, leadSearchListItem } from './lead-searches.ts';
import { workspace, usage, successResponse } from './workspace.ts';
import {
  period, totals, breakdownTotals, bySmtpItem, bySequenceItem, bounceBreakdown, timeseriesPoint,
  campaignAnalytics, campaignTimeseries, analyticsOverview,
} from './analytics.ts';
import { errorEnvelope } from './envelopes.ts';

// ---------------------------------------------------------------------------------------------
// By name (the endpoint catalog names its response schema; list endpoints name the item)
// ---------------------------------------------------------------------------------------------

export const SCHEMAS = {
  Mailbox: mailbox,
  Tag: tag,
  StatusMessage: statusMessage,
  Warmup: warmup,
  WarmupInput: warmupInput,
  MailboxVerification: mailboxVerification,
  VerificationResult: verificationResult,
  AccountCreateInput: accountCreateInput,
  AccountsCreateBody: accountsCreateBody,
  AccountPatchBody: accountPatchBody,
  AccountsCreateResponse: accountsCreateResponse,
  DeletedResponse: deletedResponse,
  OAuthInitResponse: oauthInitResponse,
  Campaign: campaign,
  CampaignListItem: campaignListItem,
  CampaignStatusView: campaignStatusView,
  Schedule: schedule,
  Settings: settings,
  CampaignMetrics: campaignMetrics,
  SequenceStep: sequenceStep,
  CampaignCreateBody: campaignCreateBody,
  CampaignPatchBody: campaignPatchBody,
  CampaignCreateResponse: campaignCreateResponse,
  CampaignLifecycleResponse: campaignLifecycleResponse,
  TestEmailBody: testEmailBody,
  TestEmailResponse: testEmailResponse,
  Lead: lead,
  LeadPatchBody: leadPatchBody,
  LeadDeleteResponse: leadDeleteResponse,
  LeadMutateResponse: leadMutateResponse,
  LeadSearchHit: leadSearchHit,
  LeadSearchResponse: leadSearchResponse,
  Email: email,
  EmailSummary: emailSummary,
  LeadSearch: leadSearch,
  LeadSearchListItem: leadSearchListItem,
  Workspace: workspace,
  Usage: usage,
  SuccessResponse: successResponse,
  Period: period,
  Totals: totals,
  BreakdownTotals: breakdownTotals,
  BySmtpItem: bySmtpItem,
  BySequenceItem: bySequenceItem,
  BounceBreakdown: bounceBreakdown,
  TimeseriesPoint: timeseriesPoint,
  CampaignAnalytics: campaignAnalytics,
  CampaignTimeseries: campaignTimeseries,
  AnalyticsOverview: analyticsOverview,
  ErrorEnvelope: errorEnvelope,
} as const satisfies Record<string, z.ZodType>;

export type SchemaName = keyof typeof SCHEMAS;

export function schemaByName(name: string): z.ZodType {
  const s = (SCHEMAS as Record<string, z.ZodType>)[name];
  if (!s) throw new Error(`unknown schema "${name}"; known: ${Object.keys(SCHEMAS).join(', ')}`);
  return s;
}
