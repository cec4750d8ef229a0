// A raw SMTP line client for tests that must see exactly what is on the wire (no library
// between): replies as they arrive, and whether the server closed the connection.
import net from 'node:net';

export interface RawReply {
  code: number;
  text: string;
  lines: string[];
}

export class RawSmtp {
  private buf = '';
  private replies: RawReply[] = [];
  private waiters: ((r: RawReply | null) => void)[] = [];
  private partial: string[] = [];
  closed = false;
  readonly closedPromise: Promise<void>;
  readonly socket: net.Socket;

  private constructor(port: number, host: string) {
    this.socket = net.connect({ port, host });
    this.socket.on('error', () => undefined);
    this.closedPromise = new Promise((resolve) =>
      this.socket.on('close', () => {
        this.closed = true;
        for (const w of this.waiters.splice(0)) w(null);
        resolve();
      }),
    );
    this.socket.on('data', (d: Buffer) => {
      this.buf += d.toString('latin1');
      let i: number;
      while ((i = this.buf.indexOf('\r\n')) >= 0) {
        const line = this.buf.slice(0, i);
        this.buf = this.buf.slice(i + 2);
        this.partial.push(line);
        if (/^\d{3}-/.test(line)) continue;
        const m = /^(\d{3}) ?(.*)$/.exec(line);
        const reply: RawReply = { code: m ? Number(m[1]) : 0, text: m ? m[2]! : line, lines: this.partial };
        this.partial = [];
        const w = this.waiters.shift();
        if (w) w(reply);
        else this.replies.push(reply);
      }
    });
  }

  static async connect(port: number, host = '127.0.0.1'): Promise<RawSmtp> {
    const c = new RawSmtp(port, host);
    await new Promise<void>((resolve, reject) => {
      c.socket.once('connect', () => resolve());
      c.socket.once('error', reject);
    });
    return c;
  }

  /** The next reply, or null when the connection closed first. */
  next(timeoutMs = 30_000): Promise<RawReply | null> {
    const r = this.replies.shift();
    if (r) return Promise.resolve(r);
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve, reject) => {
      const t = setTimeout(() => reject(new Error(`no SMTP reply within ${timeoutMs} ms`)), timeoutMs);
      this.waiters.push((x) => {
        clearTimeout(t);
        resolve(x);
      });
    });
  }

  write(data: string | Buffer): void {
    if (!this.closed) this.socket.write(data);
  }

  /** Sends one command line and returns its reply (null if the server closed instead). */
  async cmd(line: string, timeoutMs = 30_000): Promise<RawReply | null> {
    this.write(line + '\r\n');
    return this.next(timeoutMs);
  }

  close(): void {
    this.socket.destroy();
  }
}
