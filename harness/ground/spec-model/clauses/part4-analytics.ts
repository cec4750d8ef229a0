import type { Clause } from './types.ts';

// Part 4.6 "Analytics": the three endpoints, breakdowns, interval coarsening, reporting windows
// and the out-of-office exclusion. Ids: ANLT-.
const M = (id: string, text: string): Clause => ({ id, section: '4.6', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '4.6', text, level: 'SHOULD' });
const P = (id: string, text: string): Clause => ({ id, section: '4.6', text, level: 'PROFILE' });

export const CLAUSES_PART4_ANALYTICS: readonly Clause[] = [
  // GET /v1/campaigns/{id}/analytics
  M('ANLT-CAMP-SCOPE', 'GET /v1/campaigns/{id}/analytics requires scope metrics:read.'),
  M('ANLT-CAMP-QUERY', 'GET /v1/campaigns/{id}/analytics query: window start, window end, out-of-office exclusion flag, `breakdown`.'),
  M('ANLT-CAMP-BREAKDOWN-VALUES', '`breakdown` values `smtp`, `sequence`, `bounce`.'),
  M('ANLT-CAMP-BREAKDOWN-REPEAT', '`breakdown`: repeat the parameter (breakdown=smtp&breakdown=bounce requests both).'),
  M('ANLT-CAMP-BREAKDOWN-COMMA', '`breakdown`: or comma-separate (breakdown=smtp,bounce requests both).'),
  M('ANLT-CAMP-BREAKDOWN-UNKNOWN', 'A `breakdown` value other than `smtp`, `sequence`, `bounce` (the values the endpoint states) is invalid input: 400 validation_failed (part 7).'),
  M('ANLT-CAMP-ANSWER', 'GET /v1/campaigns/{id}/analytics answers `{ campaignId, period, totals, bySmtp?, bySequence?, bounceBreakdown? }`.'),
  M('ANLT-CAMP-BREAKDOWN-PRESENT', 'Each breakdown is present when requested (`smtp` -> `bySmtp`, `sequence` -> `bySequence`, `bounce` -> `bounceBreakdown`).'),
  M('ANLT-CAMP-BREAKDOWN-ABSENT', 'Each breakdown is present only when requested (an unrequested breakdown is absent).'),
  S('ANLT-CAMP-CAMPAIGNID', 'Reading: `campaignId` is the id of the campaign in the path.'),
  S('ANLT-CAMP-BYSMTP-MAILBOXES', 'Reading: `bySmtp` has one entry per mailbox that sent for the campaign in the window, and their `sent` values add up to `totals.sent`.'),
  S('ANLT-CAMP-TOTALS-MATCH-SENDS', 'Reading: `totals.sent` equals the number of campaign emails sent in the window (as seen at the mail sink).'),
  // GET /v1/campaigns/{id}/analytics/timeseries
  M('ANLT-TS-SCOPE', 'GET /v1/campaigns/{id}/analytics/timeseries requires scope metrics:read.'),
  M('ANLT-TS-QUERY', 'GET /v1/campaigns/{id}/analytics/timeseries query: window start, window end, out-of-office exclusion flag, interval.'),
  M('ANLT-TS-INTERVAL-ENUM', 'Timeseries `interval` (enum `day`, `week`, `month`).'),
  M('ANLT-TS-INTERVAL-UNKNOWN', 'An interval other than `day`, `week`, `month` (the enum stated) is invalid input: 400 validation_failed (part 7).'),
  M('ANLT-TS-ANSWER', 'GET /v1/campaigns/{id}/analytics/timeseries answers `{ campaignId, period, interval, data: [point] }`.'),
  M('ANLT-TS-COARSEN', 'Timeseries: long windows are coarsened automatically (day, then week, then month).'),
  P('ANLT-TS-COARSEN-PROFILE', 'How long a window is before the time series coarsens it (the longest window answered by day, by week): not given (profile declarations.analytics.coarsening).'),
  M('ANLT-TS-INTERVAL-STATED', 'Timeseries: the response states the interval used.'),
  S('ANLT-TS-COARSEN-ONLY-UP', 'Reading: the interval used is never finer than the one requested, and a short window keeps the requested interval.'),
  M('ANLT-TS-BOUNCES-UNSUBS', 'Timeseries: includes bounces and unsubscribes.'),
  S('ANLT-TS-POINTS-ORDER', 'Reading: points are in ascending `timestamp` order, one per interval, within `period`.'),
  S('ANLT-TS-SUM-TOTALS', 'Reading: over one window, the points\' `sent` add up to the campaign analytics `totals.sent`.'),
  // GET /v1/campaigns/analytics/overview
  M('ANLT-OV-SCOPE', 'GET /v1/campaigns/analytics/overview requires scope metrics:read.'),
  M('ANLT-OV-QUERY', 'GET /v1/campaigns/analytics/overview query: window start, window end, out-of-office exclusion flag.'),
  M('ANLT-OV-ANSWER', 'GET /v1/campaigns/analytics/overview answers `{ period, totals, activeCampaigns, sendingAccounts, topCampaigns }`.'),
  S('ANLT-OV-WORKSPACE', 'Reading: the overview rolls up only the caller\'s workspace.'),
  // Reporting windows
  M('ANLT-WINDOW-ISO-DATES', 'Reporting windows: dates are ISO 8601.'),
  M('ANLT-WINDOW-WHOLE-DAYS', 'Reporting is by whole calendar day in the workspace timezone.'),
  M('ANLT-WINDOW-TIME-IGNORED', 'Reporting windows: the time component is ignored.'),
  M('ANLT-WINDOW-START-OF-DAY', 'Reporting windows: the start counts from the start of its day.'),
  M('ANLT-WINDOW-END-INCLUSIVE', 'Reporting windows: the end is inclusive through the end of its day.'),
  M('ANLT-WINDOW-END-DEFAULT-NOW', 'Reporting windows: the end defaults to now.'),
  S('ANLT-WINDOW-INVALID', 'Reading: a window date that is not ISO 8601, or an end before the start, is rejected (400 validation_failed).'),
  S('ANLT-WINDOW-PERIOD', 'Reading: `period.start`/`period.end` report the effective window (start of the start day, end of the end day, in the workspace timezone).'),
  M('ANLT-OOO-REPLIES', 'The out-of-office flag removes out-of-office auto-replies from reply counts.'),
  M('ANLT-OOO-RATE', 'The out-of-office flag removes out-of-office auto-replies from the reply rate.'),
  S('ANLT-OOO-DEFAULT', 'Reading: without the flag, out-of-office auto-replies count as replies.'),
  S('ANLT-RETENTION-CLAMP', 'Reading: a window reaching further back than `period.retentionDays` is clamped and `period.clamped` is true; otherwise `clamped` is false.'),
  P('ANLT-PARAMS-PROFILE', 'Names of the window and out-of-office query parameters: not shown (profile).'),
  P('ANLT-CLAMP-PROFILE', 'The exact clamping rule behind `period.clamped`: not shown (profile).'),
];
