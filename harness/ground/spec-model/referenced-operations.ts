// Operations the spec references without showing their shape (4.7, last paragraph, and 4.2): a
// profile declares each one's method, path and names (harness/ground/profile-schema.ts).

/** Logical ids of the referenced operations (spec 4.7, last paragraph, and 4.2). */
export const REFERENCED_OPERATIONS = [
  'apikeys.list', // fields: -; result: items (path of the array)
  'apikeys.create', // fields: name, scopes; result: id, secret, scopes
  'accounts.list',
  'accounts.get', // result: item (path of the mailbox; the answer itself when omitted)
  'accounts.resume', // result: item (as accounts.get)
  'accounts.oauthStatus', // GET /v1/accounts/oauth/{provider}/status?<state param>; result: status, accountId
  'usage.all', // result: items
  'subscription.get', // result: plan, limits
  'leads.list',
  'leads.create', // fields: leads (array of { email, ... }); result: created, items
  'campaigns.pause', // result: status
  'emails.reply', // fields: body, accountId
  'emails.forward', // fields: to, body
  'emails.markRead', // fields: isUnread
  'emails.list', // the inbox listing DELETE /v1/emails/{id} hides from (4.5); query fields: campaignId, leadId; result: items
] as const;
export type ReferencedOperationId = (typeof REFERENCED_OPERATIONS)[number];
