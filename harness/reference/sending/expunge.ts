// Only for the mutant `email-delete-expunges-server` (4.5: a DELETE leaves the copy on the mail
// server untouched): the message is removed from the mailbox's IMAP INBOX, as a product that
// mirrors deletes to the server would. The reference itself never writes to a mail server.
import { ImapFlow } from 'imapflow';
import type { Services } from '../request/context.ts';

/** Removes the message with this Message-ID from the INBOX of the account's IMAP login. */
export async function expungeOnServer(s: Services, accountId: string, messageId: string): Promise<void> {
  const a = s.db.prepare('SELECT doc, secrets FROM accounts WHERE id = ?').get(accountId) as { doc: string; secrets: string } | undefined;
  const d = a ? (JSON.parse(a.doc) as Record<string, any>) : undefined;
  if (!a || !d?.imap) return;
  const sealed = (JSON.parse(a.secrets) as { imapPassword?: string }).imapPassword;
  const client = new ImapFlow({
    host: d.imap.host, port: d.imap.port, secure: d.imap.port === 993,
    auth: { user: d.imap.username, pass: sealed ? s.decrypt(sealed) : '' },
    tls: { rejectUnauthorized: d.imapAllowInvalidCert !== true }, logger: false,
  });
  // A socket error (the server resetting after LOGOUT) comes as an 'error' event: without a listener
  // it would crash the reference; a failure that matters rejects the awaited call instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const lock = await client.getMailboxLock('INBOX');
    try {
      const uids = await client.search({ header: { 'message-id': messageId.replace(/^<|>$/g, '') } }, { uid: true });
      if (Array.isArray(uids) && uids.length) await client.messageDelete(uids, { uid: true });
    } finally {
      lock.release();
    }
  } finally {
    await client.logout().catch(() => undefined);
  }
}
