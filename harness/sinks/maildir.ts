// Maildir delivery: write into tmp/, then rename into new/ (atomic for readers), owned by the
// mail uid/gid so Dovecot (running unprivileged) can read and move it.
import { chown, mkdir, open, rename } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export interface MailOwner {
  uid: number;
  gid: number;
}

let seq = 0;
const host = hostname().replace(/[/:]/g, '_');

export class MaildirStore {
  private readonly ready = new Map<string, Promise<void>>();

  constructor(
    /** <root>/<address>/Maildir */
    readonly root: string,
    /** chown to this owner when set (running as root) */
    readonly owner: MailOwner | null,
  ) {}

  userDir(address: string): string {
    return join(this.root, address);
  }

  maildir(address: string): string {
    return join(this.root, address, 'Maildir');
  }

  /** Creates <root>/<address>/Maildir/{cur,new,tmp} once, owned by the mail user. */
  ensure(address: string): Promise<void> {
    let p = this.ready.get(address);
    if (!p) {
      p = (async () => {
        const dirs = [this.userDir(address), this.maildir(address), ...['cur', 'new', 'tmp'].map((d) => join(this.maildir(address), d))];
        for (const d of dirs) {
          await mkdir(d, { recursive: true, mode: 0o700 });
          if (this.owner) await chown(d, this.owner.uid, this.owner.gid);
        }
      })();
      p.catch(() => this.ready.delete(address));
      this.ready.set(address, p);
    }
    return p;
  }

  /** Delivers one message into the user's INBOX (new/). Returns the file name. */
  async deliver(address: string, bytes: Buffer): Promise<string> {
    await this.ensure(address);
    const now = Date.now();
    const name = `${Math.floor(now / 1000)}.M${(now % 1000) * 1000}P${process.pid}Q${++seq}.${host},S=${bytes.length}`;
    const tmp = join(this.maildir(address), 'tmp', name);
    const fh = await open(tmp, 'wx', 0o600);
    try {
      await fh.writeFile(bytes);
      if (this.owner) await fh.chown(this.owner.uid, this.owner.gid);
    } finally {
      await fh.close();
    }
    await rename(tmp, join(this.maildir(address), 'new', name));
    return name;
  }

  forget(address: string): void {
    this.ready.delete(address);
  }
}
