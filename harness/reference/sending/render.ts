// One campaign step rendered for one lead (or dummy values) and one mailbox: the message the
// transport sends. Merge variables {{name}} take lead fields, custom fields and sender fields
// (names: options.ts mergeName); values are HTML-escaped in the HTML body, and nothing that
// reaches a header keeps a control character (no CR/LF header injection). The mailbox's
// signature is appended; Bcc is an envelope recipient only; sendAsTextOnly sends text/plain.
// trackOpens adds a pixel and trackClicks rewrites http(s) links, both on the reference's own URL.
import { randomUUID } from 'node:crypto';
import { mergeName, type SendingChoices } from '../switches/sending-options.ts';
import type { RenderedEmail } from '../domain/email.ts';

export interface LeadValues {
  email: string;
  firstName?: string; lastName?: string; companyName?: string; jobTitle?: string; website?: string;
  linkedinProfile?: string; location?: string;
  customFields?: Record<string, unknown>;
}

export interface SenderMailbox {
  emailAddress: string; firstName?: string; lastName?: string; displayName?: string;
  signature?: string; replyToAddress?: string; bcc?: string;
}

export interface RenderInput {
  step: { subject: string; body: string };
  lead: LeadValues | 'dummy';
  mailbox: SenderMailbox;
  settings: { trackOpens: boolean; trackClicks: boolean; sendAsTextOnly: boolean };
  /** Where the pixel and the click redirects live, and the token naming this email there. */
  /** firstLinkOnly: set by a mutant, only the first link is rewritten for click tracking. */
  tracking?: { baseUrl: string; token: string; firstLinkOnly?: boolean };
  choices: SendingChoices;
  /** What an unknown variable renders to where the choice is `empty` (a mutant's fallback word; none: nothing). */
  unknownFallback?: string;
  /** How the subject renders an unknown variable, where a mutant merges it by another path (none: as the body). */
  subjectUnknown?: SendingChoices['unknownMergeVariable'];
  /** A lead field the body renders empty, where a mutant merges the body by another path (none: as the subject). */
  bodyBlank?: 'firstName';
}


const LEAD_FIELDS = ['email', 'firstName', 'lastName', 'companyName', 'jobTitle', 'website', 'linkedinProfile', 'location'] as const;

const DUMMY: Required<Omit<LeadValues, 'customFields'>> = {
  email: 'alex.sample@example.com', firstName: 'Alex', lastName: 'Sample', companyName: 'Example Ltd',
  jobTitle: 'Head of Operations', website: 'https://example.com', linkedinProfile: 'https://www.linkedin.com/in/alex-sample', location: 'Lisbon',
};

/** Removes control characters (CR, LF, NUL...) so a value can never start a header. */
export function headerSafe(s: string): string {
  return s.replace(/[\u0000-\u001f\u007f]+/g, ' ').replace(/\s{2,}/g, ' ').trim();
}

export function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

/** The values of every known variable, by its name under the chosen naming. */
function variables(input: RenderInput): Map<string, string> {
  const c = input.choices;
  const lead = input.lead === 'dummy' ? DUMMY : input.lead;
  const m = new Map<string, string>();
  for (const f of LEAD_FIELDS) m.set(mergeName(c, f), String(lead[f] ?? ''));
  if (input.lead !== 'dummy') for (const [k, v] of Object.entries(input.lead.customFields ?? {})) m.set(k, v === null || v === undefined ? '' : String(v));
  const box = input.mailbox;
  const senderName = box.displayName ?? [box.firstName, box.lastName].filter(Boolean).join(' ');
  m.set(mergeName(c, 'senderFirstName'), box.firstName ?? '');
  m.set(mergeName(c, 'senderLastName'), box.lastName ?? '');
  m.set(mergeName(c, 'senderName'), senderName);
  m.set(mergeName(c, 'senderEmail'), box.emailAddress);
  return m;
}

const VARIABLE = /\{\{\s*([A-Za-z_][\w.-]*)\s*\}\}/g;

function substitute(template: string, vars: Map<string, string>, input: RenderInput, escape: (s: string) => string): string {
  return template.replace(VARIABLE, (whole, name: string) => {
    const v = vars.get(name);
    if (v !== undefined) return escape(v);
    // A custom field the dummy lead lacks still gets a value: dummy fills every placeholder (4.3).
    if (input.lead === 'dummy') return escape('Sample');
    return escape(input.choices.unknownMergeVariable === 'verbatim' ? whole : (input.unknownFallback ?? ''));
  });
}

/** Plain text of an HTML body: block ends become line breaks, tags go, entities are decoded. */
export function htmlToText(html: string): string {
  return html
    .replace(/<(br|\/p|\/div|\/li|\/h\d|\/tr)\b[^>]*>/gi, '\n')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>(.*?)<\/a>/gi, (_m, href: string, label: string) => `${label} (${href})`)
    .replace(/<[^>]+>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/[ \t]+\n/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

/** The HTML part's document under the chosen form (sending-options.ts htmlDocument). */
function htmlDocument(c: SendingChoices, subject: string, text: string, body: string): string {
  if (c.htmlDocument === 'bare') return `<!doctype html><html><body>${body}</body></html>`;
  const preheader = escapeHtml(text.replace(/\s+/g, ' ').slice(0, 40));
  return `<!doctype html><html><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title><style>p{margin:0 0 1em}</style></head>`
    + `<body><div style="display:none;max-height:0;overflow:hidden">${preheader}</div>${body}</body></html>`;
}

export function renderEmail(input: RenderInput): RenderedEmail {
  const c = input.choices;
  const vars = variables(input);
  const dummy = input.lead === 'dummy';
  const box = input.mailbox;
  const domain = box.emailAddress.split('@')[1] ?? 'outreach-reference.local';
  const subjectInput = input.subjectUnknown ? { ...input, choices: { ...c, unknownMergeVariable: input.subjectUnknown } } : input;
  const mergedSubject = substitute(input.step.subject, vars, subjectInput, (s) => s);
  const subject = headerSafe(mergedSubject);
  const bodyVars = input.bodyBlank ? new Map([...vars, [mergeName(c, input.bodyBlank), '']]) : vars;
  let html = substitute(input.step.body, bodyVars, input, escapeHtml);
  if (box.signature) html += `<br><br>${box.signature}`;
  const links: string[] = [];
  const t = input.tracking;
  if (!input.settings.sendAsTextOnly && t && input.settings.trackClicks) {
    html = html.replace(t.firstLinkOnly ? /(<a\b[^>]*\bhref=")(https?:[^"]+)(")/i : /(<a\b[^>]*\bhref=")(https?:[^"]+)(")/gi, (_m, a: string, url: string, z: string) => {
      links.push(url.replace(/&amp;/g, '&'));
      return `${a}${t.baseUrl}/t/c/${t.token}/${links.length - 1}${z}`;
    });
  }
  const text = htmlToText(html);
  if (!input.settings.sendAsTextOnly && t && input.settings.trackOpens) html += `<img src="${t.baseUrl}/t/o/${t.token}" width="1" height="1" alt="" style="display:none">`;
  const name = headerSafe(box.displayName ?? [box.firstName, box.lastName].filter(Boolean).join(' '));
  const replyTo = box.replyToAddress && box.replyToAddress.toLowerCase() !== box.emailAddress.toLowerCase() ? headerSafe(box.replyToAddress) : undefined;
  return {
    messageId: `<${randomUUID()}@${headerSafe(domain)}>`,
    from: { name, address: box.emailAddress },
    ...(replyTo ? { replyTo } : {}),
    ...(box.bcc ? { bcc: headerSafe(box.bcc) } : {}),
    subject,
    mergedSubject,
    html: input.settings.sendAsTextOnly ? null : htmlDocument(c, subject, text, html),
    text,
    links,
  };
}
