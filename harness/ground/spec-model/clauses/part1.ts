import type { Clause } from './types.ts';

// Part 1 "What the service does". Ids: SVC-.
const M = (id: string, text: string): Clause => ({ id, section: '1', text, level: 'MUST' });
const S = (id: string, text: string): Clause => ({ id, section: '1', text, level: 'SHOULD' });

export const CLAUSES_PART1: readonly Clause[] = [
  M('SVC-REST-JSON', 'The service is a task-shaped REST API over JSON for outreach by email.'),
  M('SVC-CAMP-CREATE-ONE-CALL', 'Campaigns: create with schedule, settings, multi-step sequence, sending mailboxes and optionally leads in one call.'),
  M('SVC-CAMP-START-RESUME-STATUS', 'Campaigns: start, resume, inspect status.'),
  M('SVC-CAMP-TEST-EMAIL', 'Campaigns: send a test email.'),
  M('SVC-LEAD-UPDATE-DELETE', 'Leads: update, delete.'),
  M('SVC-LEAD-MUTATE', 'Leads: mutate in bulk (set status, add or remove tags, delete).'),
  M('SVC-LEAD-SEARCH', 'Leads: search across campaigns by email.'),
  M('SVC-ACCT-CONNECT-SMTP', 'Mailboxes (email accounts): connect by SMTP/IMAP (any provider, including Gmail or Outlook with an app password).'),
  M('SVC-ACCT-CONNECT-OAUTH', 'Mailboxes: connect by OAuth (`google`, `microsoft`).'),
  M('SVC-ACCT-MANAGE', 'Mailboxes: update settings and credentials; pause; delete; read verification results.'),
  M('SVC-EMAIL-READ', 'Emails: read one inbox email with its body.'),
  M('SVC-EMAIL-DELETE', 'Emails: delete it from the inbox view.'),
  M('SVC-ANLT', 'Analytics: per-campaign totals with optional breakdowns, per-campaign time series, and a workspace roll-up.'),
  M('SVC-LF', 'Lead Finder: list lead discovery searches and read the progress of one.'),
  M('SVC-WORKSPACE', 'Workspace: read identity and the current usage of one plan limit.'),
  M('SVC-APIKEY-REVOKE', 'API keys: revoke a key.'),
  M('SVC-KEY-EVERY-REQUEST', 'Every request carries an API key.'),
  M('SVC-KEY-IDENTIFIES-WORKSPACE', 'The key identifies both caller and workspace (organization).'),
  M('SVC-NO-ORG-IN-PATH', 'No organization id appears in any path.'),
  M('SVC-ACCT-NEW-INACTIVE', 'Newly connected mailboxes start `inactive`.'),
  M('SVC-ACCT-BACKGROUND-VERIFY', 'Newly connected mailboxes are verified in the background.'),
  S('SVC-PATHS-BASE-URL', 'All paths are relative to `{base_url}` (the kit joins every path to the profile\'s base URL; a target must serve them there).'),
];
