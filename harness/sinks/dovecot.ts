// The IMAP side: one Dovecot per sink, spawned in the foreground with a generated config in a
// temp dir, passwd-file users rewritten at run time, Maildir storage, loopback, unprivileged.
// A shell watchdog holds a pipe from this process: when this process dies for any reason
// (even SIGKILL), the pipe closes and the watchdog stops Dovecot, so no test leaves it running.
import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, constants, readFileSync } from 'node:fs';
import { chmod, chown, mkdir, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import net from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { MaildirStore, type MailOwner } from './maildir.ts';
import type { MailboxUser } from './users.ts';

export const DOVECOT_INSTALL_HINT = 'apt-get install dovecot-imapd';

/** The dovecot binary: OUTREACH_DOVECOT's (a path, or `none`: run without IMAP), else the first on PATH or in the sbin folders. */
export function findDovecot(): string | null {
  const given = process.env.OUTREACH_DOVECOT;
  if (given) return given !== 'none' && executable(given) ? given : null;
  const dirs = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin', '/usr/local/sbin', '/sbin'];
  return dirs.map((d) => join(d, 'dovecot')).find(executable) ?? null;
}

/** Can this process run the file at `p`? */
export function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** Why IMAP cannot run here, or null when it can. */
export function imapUnavailableReason(): string | null {
  if (findDovecot()) return null;
  const given = process.env.OUTREACH_DOVECOT;
  if (given === 'none') return 'IMAP sink unavailable: OUTREACH_DOVECOT=none';
  if (given) return `IMAP sink unavailable: OUTREACH_DOVECOT=${given} is not an executable file`;
  return `IMAP sink unavailable: dovecot is not installed (install it with \`${DOVECOT_INSTALL_HINT}\`)`;
}

interface Identity {
  user: string;
  group: string;
  owner: MailOwner | null; // chown target when running as root
}

function lookup(file: string, name: string): number | null {
  try {
    for (const line of readFileSync(file, 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[0] === name && f[2] !== undefined) return Number(f[2]);
    }
  } catch {
    /* none */
  }
  return null;
}

/** Root: run mail as `nobody` (login as dovenull, internals as dovecot). Otherwise: as ourselves. */
function groupName(gid: number): string | null {
  try {
    for (const line of readFileSync('/etc/group', 'utf8').split('\n')) {
      const f = line.split(':');
      if (f[2] !== undefined && Number(f[2]) === gid) return f[0]!;
    }
  } catch {
    /* none */
  }
  return null;
}

function identity(): { mail: Identity; internal: string; internalGroup: string | null; login: string; authGid: number | null } {
  if (process.getuid?.() === 0) {
    const uid = lookup('/etc/passwd', 'nobody');
    const group = lookup('/etc/group', 'nogroup') !== null ? 'nogroup' : 'nobody';
    const gid = lookup('/etc/group', group);
    if (uid === null || gid === null) throw new Error('cannot find the unprivileged user nobody/nogroup for Dovecot mail processes');
    const internal = lookup('/etc/passwd', 'dovecot') !== null ? 'dovecot' : 'nobody';
    const login = lookup('/etc/passwd', 'dovenull') !== null ? 'dovenull' : 'nobody';
    // the auth process runs as the internal user and must read the passwd-file
    const authGid = lookup('/etc/group', internal === 'dovecot' ? 'dovecot' : group);
    return { mail: { user: 'nobody', group, owner: { uid, gid } }, internal, internalGroup: null, login, authGid };
  }
  // unprivileged: everything runs as ourselves (the sockets' group must be one of ours)
  const me = userInfo();
  const group = groupName(me.gid) ?? String(me.gid);
  return { mail: { user: me.username, group, owner: null }, internal: me.username, internalGroup: group, login: me.username, authGid: null };
}

export function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, host, () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

/** One IMAP LOGIN over a raw socket: 'ok', 'no' or an error text. */
export function imapLoginProbe(host: string, port: number, user: string, password: string, timeoutMs = 2000): Promise<'ok' | 'no' | string> {
  return new Promise((resolve) => {
    const sock = net.connect({ host, port });
    let buf = '';
    let sent = false;
    const finish = (r: string) => {
      clearTimeout(timer);
      sock.destroy();
      resolve(r);
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    sock.on('error', (e) => finish(e.message));
    sock.on('data', (d) => {
      buf += d.toString('latin1');
      if (!sent && buf.includes('\r\n')) {
        sent = true;
        sock.write(`p1 LOGIN ${quote(user)} ${quote(password)}\r\n`);
      }
      const m = /^p1 (OK|NO|BAD)/m.exec(buf);
      if (m) {
        sock.write('p2 LOGOUT\r\n');
        finish(m[1] === 'OK' ? 'ok' : 'no');
      }
    });
  });
}

const quote = (s: string) => `"${s.replace(/[\\"]/g, (c) => '\\' + c)}"`;

export interface DovecotOptions {
  host: string;
  port?: number;
  log?: (line: string) => void;
}


/** How long a user change may take to be in force at Dovecot, and one LOGIN probe's wait for its answer. */
const SETTLE_MS = 60_000;
const PROBE_MS = 5_000;
export class Dovecot {
  readonly dir: string;
  readonly maildirs: MaildirStore;
  port = 0;
  private child: ChildProcess | null = null;
  private exited: Promise<void> = Promise.resolve();
  private readonly probe = { address: `probe-${randomBytes(4).toString('hex')}@sink.invalid`, password: randomBytes(12).toString('base64url') };
  private users: MailboxUser[] = [];
  private writing: Promise<void> = Promise.resolve();
  private stopped = false;

  private constructor(
    dir: string,
    private readonly bin: string,
    private readonly id: ReturnType<typeof identity>,
    private readonly opts: DovecotOptions,
  ) {
    this.dir = dir;
    this.maildirs = new MaildirStore(join(dir, 'mail'), id.mail.owner);
  }

  static async start(opts: DovecotOptions): Promise<Dovecot> {
    const bin = findDovecot();
    if (!bin) throw new Error(imapUnavailableReason()!);
    const id = identity();
    const dir = await mkdtemp(join(tmpdir(), 'outreach-sink-'));
    await chmod(dir, 0o755); // the unprivileged mail processes traverse it
    const d = new Dovecot(dir, bin, id, opts);
    try {
      await mkdir(join(dir, 'mail'), { mode: 0o755 });
      if (id.mail.owner) await chown(join(dir, 'mail'), id.mail.owner.uid, id.mail.owner.gid);
      await d.writeProbe();
      let lastErr: unknown;
      for (let i = 0; i < 4; i++) {
        const port = opts.port || (await freePort(opts.host));
        try {
          await d.spawnOn(port);
          return d;
        } catch (err) {
          lastErr = err;
          await d.kill();
          if (opts.port) break; // a fixed port that fails will not get better
        }
      }
      throw lastErr;
    } catch (err) {
      await d.stop();
      throw err;
    }
  }

  private conf(port: number): string {
    const { mail, internal, login } = this.id;
    // chroot needs root; an unprivileged Dovecot runs its login and anvil processes without
    const chroot = process.getuid?.() === 0 ? '' : '  chroot =\n';

    return `# generated by outreach-conformance (harness/sinks/dovecot.ts)
base_dir = ${this.dir}/run
state_dir = ${this.dir}/state
log_path = ${this.dir}/dovecot.log
instance_name = outreach-sink-${port}
listen = ${this.opts.host}
protocols = imap
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
auth_failure_delay = 0
auth_cache_size = 0
mail_fsync = never
mailbox_idle_check_interval = 1 secs
first_valid_uid = 1
default_internal_user = ${internal}
${this.id.internalGroup ? `default_internal_group = ${this.id.internalGroup}\n` : ''}default_login_user = ${login}
mail_uid = ${mail.user}
mail_gid = ${mail.group}
mail_location = maildir:${this.dir}/mail/%u/Maildir
login_greeting = outreach-conformance IMAP sink ready.
passdb {
  driver = passwd-file
  args = ${this.dir}/users/%u
}
userdb {
  driver = passwd-file
  args = ${this.dir}/users/%u
}
protocol imap {
  mail_max_userip_connections = 1000
}
service imap-login {
  inet_listener imap {
    address = ${this.opts.host}
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
  service_count = 0
  process_min_avail = 1
  client_limit = 1000
${chroot}}
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
${chroot}}
`;
  }

  private async spawnOn(port: number): Promise<void> {
    const confPath = join(this.dir, 'dovecot.conf');
    await writeFile(confPath, this.conf(port), { mode: 0o644 });
    await rm(join(this.dir, 'run'), { recursive: true, force: true });
    // watchdog: Dovecot in the background, `cat` holding our pipe; EOF (we stopped or died) -> TERM.
    // (a background job's stdin is /dev/null in sh, hence the explicit fd 3)
    const script = 'exec 3<&0; "$1" -F -c "$2" </dev/null & pid=$!; ( cat <&3 >/dev/null; kill -TERM $pid 2>/dev/null ) & exec 3<&-; wait $pid';
    const child = spawn('/bin/sh', ['-c', script, 'sink-dovecot', this.bin, confPath], { stdio: ['pipe', 'ignore', 'pipe'] });
    this.child = child;
    let stderr = '';
    child.stderr!.on('data', (d: Buffer) => {
      if (stderr.length < 4000) stderr += d.toString();
    });
    child.stdin!.on('error', () => undefined);
    this.exited = new Promise((r) => child.once('exit', () => r()));
    let exitedEarly = false;
    void this.exited.then(() => {
      exitedEarly = true;
    });
    liveChildren.add(child);
    void this.exited.then(() => liveChildren.delete(child));
    this.port = port;
    // readiness: a real LOGIN, with retry (a TCP connect alone is not enough)
    const deadline = Date.now() + SETTLE_MS; // a Dovecot that dies says so at once (exitedEarly)
    for (;;) {
      const r = await imapLoginProbe(this.opts.host, port, this.probe.address, this.probe.password, PROBE_MS);
      if (r === 'ok') return;
      if (exitedEarly || Date.now() > deadline) {
        const log = await readFile(join(this.dir, 'dovecot.log'), 'utf8').catch(() => '');
        const tail = (stderr + '\n' + log).trim().split('\n').slice(-5).join('\n');
        throw new Error(`Dovecot did not become ready on ${this.opts.host}:${port} (${r}): ${tail}`);
      }
      await new Promise((res) => setTimeout(res, 30));
    }
  }

  /**
   * Sets the users. Each user has a passwd-file of its own (`users/<address>`): Dovecot opens
   * a new user's file at the first lookup, but re-reads a known file at most once a second, so
   * a changed user is probed until Dovecot answers as it now should.
   */
  setUsers(users: MailboxUser[]): Promise<void> {
    const next = users.map((u) => ({ ...u }));
    const run = async () => {
      const before = new Map(this.users.map((u) => [u.address, u]));
      this.users = next;
      const changed: MailboxUser[] = [];
      for (const u of next) {
        const old = before.get(u.address);
        before.delete(u.address);
        if (old && old.password === u.password && old.imapRefusal === u.imapRefusal) continue;
        await this.maildirs.ensure(u.address);
        await this.writeUserFile(u.address, this.passwdLine(u));
        if (old) changed.push(u);
      }
      for (const [gone, old] of before) {
        await rm(join(this.dir, 'users', gone), { force: true });
        changed.push({ ...old, imapRefusal: 'disabled' }); // settles once the old password fails
      }
      if (this.child) await Promise.all(changed.map((u) => this.settle(u)));
    };
    this.writing = this.writing.then(run, run);
    return this.writing;
  }

  private passwdLine(u: { address: string; password: string; imapRefusal: MailboxUser['imapRefusal'] }): string {
    const line = (password: string, extra = '') =>
      `${u.address}:{PLAIN.b64}${Buffer.from(password).toString('base64')}::::${this.maildirs.userDir(u.address)}::${extra}`;
    if (u.imapRefusal === 'disabled') return line(u.password, 'nologin reason=Account_disabled');
    if (u.imapRefusal === 'wrong-password') return line(randomBytes(16).toString('hex'));
    return line(u.password);
  }

  private async writeUserFile(address: string, line: string): Promise<void> {
    const tmp = join(this.dir, 'users', `.${address}.${randomBytes(3).toString('hex')}`);
    await writeFile(tmp, line + '\n', { mode: 0o640 });
    if (this.id.authGid !== null) await chown(tmp, 0, this.id.authGid);
    await rename(tmp, join(this.dir, 'users', address));
  }

  /**
   * Waits until a LOGIN with the user's real password gives the expected answer, so a change is
   * in force when its promise resolves. Gives up loudly after SETTLE_MS: a fault that silently did
   * not take would let a check pass or fail for the wrong reason. Dovecot's auth answers slowly on
   * a loaded machine (a LOGIN took over 1 s at a load average of 20), so a probe waits up to 5 s and
   * the whole wait is a minute: long for a change that takes, short beside a run.
   */
  private async settle(u: MailboxUser): Promise<void> {
    const want = u.imapRefusal ? 'no' : 'ok';
    const deadline = Date.now() + SETTLE_MS;
    let last = '';
    while (Date.now() < deadline) {
      last = await imapLoginProbe(this.opts.host, this.port, u.address, u.password, PROBE_MS);
      if (last === want) return;
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`IMAP sink: the change to ${u.address} did not take effect within ${SETTLE_MS / 1000} s (LOGIN answers ${last}, expected ${want})`);
  }

  private async writeProbe(): Promise<void> {
    await mkdir(join(this.dir, 'users'), { mode: 0o750 });
    if (this.id.authGid !== null) await chown(join(this.dir, 'users'), 0, this.id.authGid);
    await this.writeUserFile(this.probe.address, this.passwdLine({ ...this.probe, imapRefusal: null }));
  }

  get running(): boolean {
    return !!this.child && this.child.exitCode === null && this.child.signalCode === null;
  }

  private async kill(): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = null;
    if (child.exitCode === null && child.signalCode === null) {
      child.stdin!.end(); // the watchdog sends TERM to Dovecot
      // Dovecot's master takes about a second to leave after TERM, and a run waits for it before
      // its report; nothing here needs a graceful end (the temp dir goes with it). KILLed, its
      // children (logins, sessions, auth) leave by themselves when their master is gone.
      const hurry = setTimeout(() => killMaster(this.dir), 100);
      const t = setTimeout(() => {
        killMaster(this.dir);
        child.kill('SIGKILL');
      }, 5000);
      await this.exited;
      clearTimeout(hurry);
      clearTimeout(t);
    }
  }

  /** Stops Dovecot (waits for its master to exit) and removes the temp dir. Idempotent. */
  async stop(): Promise<void> {
    if (this.stopped) return;
    this.stopped = true;
    await this.kill();
    await this.writing.catch(() => undefined);
    await rm(this.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

function killMaster(dir: string): void {
  try {
    const pid = Number(readFileSync(join(dir, 'run', 'master.pid'), 'utf8').trim());
    if (pid > 1) process.kill(pid, 'SIGKILL');
  } catch {
    /* gone */
  }
}

// Last resort when the process exits without stop(): close the pipes (watchdog stops Dovecot).
const liveChildren = new Set<ChildProcess>();
process.once('exit', () => {
  for (const c of liveChildren) {
    try {
      c.stdin?.destroy();
      c.kill('SIGTERM');
    } catch {
      /* ignore */
    }
  }
});
