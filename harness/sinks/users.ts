// Mailbox users of a sink: address + password, shared by SMTP AUTH and the Dovecot passwd-file.
// Passwords never leave this module except to the caller that created the user.
import { randomBytes, timingSafeEqual } from 'node:crypto';

export type ImapRefusal = 'wrong-password' | 'disabled';

/** Bad input about users (HTTP status 400) or an unknown user (404). */
export class UserError extends Error {
  override name = 'UserError';
  constructor(
    message: string,
    readonly status: 400 | 404,
  ) {
    super(message);
  }
}

export interface MailboxUser {
  /** lower case; Dovecot lower-cases user names too */
  address: string;
  password: string;
  /** when set, IMAP LOGIN is refused (see faults) */
  imapRefusal: ImapRefusal | null;
}

// No ':' (passwd-file separator), '/' (path), whitespace or control characters; not starting with '.'.
const ADDRESS = /^[A-Za-z0-9!#$%&'*+=?^_`{|}~.-]+@[A-Za-z0-9.-]+$/;

export function validateAddress(address: string): string {
  const a = String(address ?? '').trim().toLowerCase();
  if (!ADDRESS.test(a) || a.startsWith('.') || a.length > 254) {
    throw new UserError(`invalid mailbox address ${JSON.stringify(String(address).slice(0, 100))}: expected local@domain without spaces, ':' or '/'`, 400);
  }
  return a;
}

export function generatePassword(): string {
  return randomBytes(12).toString('base64url');
}

export class UserRegistry {
  private readonly users = new Map<string, MailboxUser>();
  private readonly listeners = new Set<() => void | Promise<void>>();

  /** Called after every change (Dovecot rewrites its passwd-file). */
  onChange(fn: () => void | Promise<void>): void {
    this.listeners.add(fn);
  }

  private async changed(): Promise<void> {
    for (const fn of this.listeners) await fn();
  }

  /** Adds (or updates the password of) a user. */
  async add(address: string, password?: string): Promise<MailboxUser> {
    const a = validateAddress(address);
    const pw = password ?? generatePassword();
    if (typeof pw !== 'string' || pw.length === 0 || /[\r\n\0]/.test(pw)) throw new UserError('invalid password: empty or containing line breaks/NUL', 400);
    const existing = this.users.get(a);
    const user: MailboxUser = { address: a, password: pw, imapRefusal: existing?.imapRefusal ?? null };
    this.users.set(a, user);
    await this.changed();
    return user;
  }

  async remove(address: string): Promise<boolean> {
    const ok = this.users.delete(String(address).toLowerCase());
    if (ok) await this.changed();
    return ok;
  }

  get(address: string): MailboxUser | undefined {
    return this.users.get(String(address ?? '').toLowerCase());
  }

  has(address: string): boolean {
    return this.users.has(String(address ?? '').toLowerCase());
  }

  list(): MailboxUser[] {
    return [...this.users.values()];
  }

  /** Constant-time password check. */
  check(address: string, password: string): boolean {
    const u = this.get(address);
    if (!u) return false;
    const a = Buffer.from(u.password);
    const b = Buffer.from(String(password ?? ''));
    return a.length === b.length && timingSafeEqual(a, b);
  }

  async setImapRefusal(address: string, refusal: ImapRefusal | null): Promise<void> {
    const u = this.get(address);
    if (!u) throw new UserError(`unknown mailbox user ${JSON.stringify(address)}`, 404);
    u.imapRefusal = refusal;
    await this.changed();
  }
}
