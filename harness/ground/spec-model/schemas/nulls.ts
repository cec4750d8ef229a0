// ---------------------------------------------------------------------------------------------
// Nulls the spec states (for the SHOULD reading RES-NULL-ONLY-WHERE-STATED)
// ---------------------------------------------------------------------------------------------

/**
 * Paths (dotted; `[]` for any array element) where the spec states `null` for each resource.
 * `meta.nextCursor` (4.1: a string) and `launchError` (4.3: a string) are not among them: the last
 * page and a launch with nothing to report omit them. `smtp.error`/`imap.error` of the verification answer have no stated type at all.
 */
export const STATED_NULLABLE: Readonly<Record<string, readonly string[]>> = {
  Mailbox: ['statusMessage', 'imap'],
  AccountsCreateResponse: ['accounts[].statusMessage', 'accounts[].imap'],
  CampaignStatusView: ['nextScheduleOpensAt'],
  Email: ['threadId', 'isUnread', 'body.html', 'body.text'],
  EmailSummary: ['threadId', 'isUnread'],
  LeadSearch: ['errorMessage', 'completedAt'],
  LeadSearchListItem: ['completedAt'],
  Usage: ['limit', 'remaining'],
  VerificationResult: ['smtp.error', 'imap.error'],
  List: [],
  // 7: `details?` and `retryAfter?` are present or absent, never stated null.
  ErrorEnvelope: [],
};

/** Every path in `value` that holds null (array elements as `[]`). */
export function nullPaths(value: unknown, prefix = ''): string[] {
  if (value === null) return prefix ? [prefix] : [];
  if (typeof value !== 'object') return [];
  const out = new Set<string>();
  if (Array.isArray(value)) {
    for (const v of value) for (const p of nullPaths(v, `${prefix}[]`)) out.add(p);
  } else {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      for (const p of nullPaths(v, prefix ? `${prefix}.${k}` : k)) out.add(p);
    }
  }
  return [...out];
}

/** Parts of an answer whose shape is "not shown" (4.2: each element of the batch `errors`): nothing to hold there. */
export const NOT_SHOWN_PARTS: Readonly<Record<string, readonly string[]>> = {
  AccountsCreateResponse: ['errors[]'],
};

/** Null paths of a resource that the spec does not state as nullable (SHOULD: none). */
export function unstatedNulls(resource: keyof typeof STATED_NULLABLE | string, value: unknown): string[] {
  const stated = new Set(STATED_NULLABLE[resource] ?? []);
  const unshown = NOT_SHOWN_PARTS[resource] ?? [];
  return nullPaths(value).filter((p) => !stated.has(p) && !unshown.some((u) => p === u || p.startsWith(`${u}.`)));
}
