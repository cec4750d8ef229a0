// Headings of the spec's sections (Outreach Email Service API v1), for report headings.
// A section not listed here is shown by its number alone.
export const SECTION_TITLES: Readonly<Record<string, string>> = {
  '1': 'What the service does',
  '2': 'Resources and their fields',
  '2.1': 'Mailbox (email account)',
  '2.2': 'Mailbox create input',
  '2.3': 'Warmup object',
  '2.4': 'Mailbox verification',
  '2.5': 'Campaign',
  '2.6': 'Lead',
  '2.7': 'Email (inbox message)',
  '2.8': 'Lead search (Lead Finder)',
  '2.9': 'Workspace and usage',
  '2.10': 'Analytics objects',
  '3': 'States and transitions',
  '3.1': 'Campaign states',
  '3.2': 'Mailbox states',
  '3.3': 'Lead states',
  '3.4': 'Lead search states',
  '4': 'Endpoints',
  '4.1': 'Conventions',
  '4.2': 'Mailboxes',
  '4.3': 'Campaigns',
  '4.4': 'Leads',
  '4.5': 'Emails',
  '4.6': 'Analytics',
  '4.7': 'Lead Finder, workspace, API keys',
  '5': 'Authentication',
  '6': 'Events',
  '7': 'Errors',
  '8': 'Limits',
  '9': 'Versioning',
};

export function sectionTitle(section: string): string {
  return SECTION_TITLES[section] ?? '';
}
