// npm run bench:sink — the mail sink's speed, side by side with Postfix's smtp-sink in one run.
//  1. SMTP ingest: `smtp-source -d -s 20 -m 20000 -l 2000` into our sink (raw bytes kept) and
//     into Postfix's smtp-sink (discards), alternated over rounds; msg/s (median) and the ratio.
//  2. Delivery into IMAP: the same load addressed to a local mailbox user (Maildir drop per
//     message), msg/s, checked over IMAP STATUS.
//  3. Time until an IDLE client sees an injected reply: p50/p99 over 200 (SMTP injection).
// Bounded: every child has a timeout, the whole run stops after --budget-s (default 240 s).
// Options: --rounds N (3), --messages N (20000), --idle N (200), --quick (small numbers).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import { cpus } from 'node:os';
import { ImapFlow } from 'imapflow';
import nodemailer from 'nodemailer';
import { startSinks, type MailSink } from '../sinks/index.ts';
import { freePort } from '../sinks/dovecot.ts';

const SMTP_SOURCE = '/usr/sbin/smtp-source';
const SMTP_SINK = '/usr/sbin/smtp-sink';

function arg(name: string, def: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
}
const quick = process.argv.includes('--quick');
const ROUNDS = arg('rounds', quick ? 1 : 3);
const MESSAGES = arg('messages', quick ? 2000 : 20000);
const IDLE_N = arg('idle', quick ? 20 : 200);
const BUDGET_MS = arg('budget-s', 240) * 1000;
const started = Date.now();
const left = () => BUDGET_MS - (Date.now() - started);

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; ms: number; stderr: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('error', reject);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, ms: performance.now() - t0, stderr });
    });
  });
}

const sourceArgs = (port: number, to: string, n: number) => ['-d', '-s', '20', '-m', String(n), '-l', '2000', '-f', 'bench@source.test', '-t', to, '-M', 'source.test', `127.0.0.1:${port}`];

async function startPostfixSink(): Promise<{ port: number; stop: () => void }> {
  const port = await freePort('127.0.0.1');
  const args = [...(process.getuid?.() === 0 ? ['-u', 'nobody'] : []), `127.0.0.1:${port}`, '1024'];
  const p = spawn(SMTP_SINK, args, { stdio: ['ignore', 'ignore', 'pipe'] });
  let err = '';
  p.stderr.on('data', (d: Buffer) => (err += d.toString()));
  for (let i = 0; i < 100; i++) {
    const up = await new Promise<boolean>((resolve) => {
      const s = net.connect({ host: '127.0.0.1', port }, () => {
        s.destroy();
        resolve(true);
      });
      s.on('error', () => resolve(false));
    });
    if (up) return { port, stop: () => p.kill('SIGTERM') };
    if (p.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 30));
  }
  p.kill('SIGKILL');
  throw new Error(`smtp-sink did not start: ${err}`);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)]!;
};
const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

async function ingest(sink: MailSink): Promise<void> {
  const ours: number[] = [];
  const theirs: number[] = [];
  const pf = await startPostfixSink();
  try {
    for (let r = 0; r < ROUNDS && left() > 30_000; r++) {
      await sink.reset();
      const a = await run(SMTP_SOURCE, sourceArgs(sink.smtp.port, 'lead@prospect.test', MESSAGES), Math.min(120_000, left()));
      const got = sink.messages().length;
      const rawOk = sink.messages().every((m) => m.raw.length >= 2000);
      if (a.code !== 0 || got !== MESSAGES || !rawOk) throw new Error(`our sink: smtp-source exit ${a.code}, ${got}/${MESSAGES} recorded, raw kept: ${rawOk} ${a.stderr}`);
      ours.push((MESSAGES / a.ms) * 1000);
      const b = await run(SMTP_SOURCE, sourceArgs(pf.port, 'lead@prospect.test', MESSAGES), Math.min(120_000, left()));
      if (b.code !== 0) throw new Error(`smtp-sink: smtp-source exit ${b.code} ${b.stderr}`);
      theirs.push((MESSAGES / b.ms) * 1000);
      console.log(`  round ${r + 1}: sink ${fmt(ours.at(-1)!)} msg/s, smtp-sink ${fmt(theirs.at(-1)!)} msg/s`);
    }
  } finally {
    pf.stop();
  }
  const o = median(ours);
  const t = median(theirs);
  console.log(`SMTP ingest (smtp-source -d -s 20 -m ${MESSAGES} -l 2000), median of ${ours.length}:`);
  console.log(`  outreach sink (raw bytes kept): ${fmt(o)} msg/s`);
  console.log(`  postfix smtp-sink (discards):   ${fmt(t)} msg/s`);
  console.log(`  ratio: ${(o / t).toFixed(2)}x (goal >= 0.30x) ${o / t >= 0.3 ? 'OK' : 'BELOW GOAL'}`);
  await sink.reset();
}

async function imapDelivery(sink: MailSink): Promise<void> {
  const u = await sink.addUser('bench-inbox@outreach.test');
  const n = Math.min(MESSAGES, quick ? 1000 : 5000);
  const r = await run(SMTP_SOURCE, sourceArgs(sink.smtp.port, u.address, n), Math.min(120_000, left()));
  const delivered = sink.messages({ to: u.address }).filter((m) => m.deliveredTo.includes(u.address)).length;
  const c = new ImapFlow({ host: sink.imap!.host, port: sink.imap!.port, secure: false, auth: { user: u.address, pass: u.password }, logger: false });
  c.on('error', () => undefined);
  await c.connect();
  const status = (await c.status('INBOX', { messages: true })) as { messages?: number };
  await c.logout();
  console.log(`Delivery into IMAP (Maildir drop per message, ${n} messages, 20 sessions):`);
  console.log(`  ${fmt((delivered / r.ms) * 1000)} msg/s; ${delivered} delivered, IMAP STATUS says ${status.messages}${status.messages === n ? '' : ' (MISMATCH)'}`);
  await sink.reset();
}

/** One mailbox with an IDLE client; measures `n` injections one after another. */
async function idleLane(sink: MailSink, lane: number, n: number, lat: number[]): Promise<void> {
  const box = await sink.addUser(`bench-idle-${lane}@outreach.test`);
  const t = nodemailer.createTransport({ host: '127.0.0.1', port: sink.smtp.port, secure: false, ignoreTLS: true, auth: { user: box.address, pass: box.password }, logger: false });
  await t.sendMail({ from: box.address, to: `lead${lane}@prospect.test`, subject: `bench original ${lane}`, text: 'x', messageId: `<bench.original.${lane}@outreach.test>` });
  t.close();
  const original = sink.messages({ subject: `bench original ${lane}` })[0]!;
  const c = new ImapFlow({ host: sink.imap!.host, port: sink.imap!.port, secure: false, auth: { user: box.address, pass: box.password }, logger: false });
  c.on('error', () => undefined);
  await c.connect();
  await c.mailboxOpen('INBOX');
  let notify: (() => void) | null = null;
  c.on('exists', () => notify?.());
  void c.idle();
  await new Promise((r) => setTimeout(r, 100));
  for (let i = 0; i < n && left() > 5000; i++) {
    const seen = new Promise<void>((resolve) => (notify = resolve));
    const t0 = performance.now();
    await sink.inject.reply(original.id, { body: `reply ${i}` });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((r) => (timer = setTimeout(() => r('timeout'), 5000)));
    const r = await Promise.race([seen, timeout]);
    clearTimeout(timer);
    if (r === 'timeout') console.log(`  lane ${lane}: IDLE missed injection ${i} (5 s)`);
    else lat.push(performance.now() - t0);
  }
  c.close();
}

async function idleLatency(sink: MailSink): Promise<void> {
  // Dovecot batches change notifications (about 0.5 s), so 200 samples one by one would take
  // 100 s: 8 mailboxes run side by side, each measuring its own injections one after another.
  const lanes = Math.min(8, IDLE_N);
  const lat: number[] = [];
  await Promise.all(Array.from({ length: lanes }, (_, i) => idleLane(sink, i, Math.ceil(IDLE_N / lanes), lat)));
  console.log(`IDLE sees an injected reply (SMTP injection -> Maildir -> IDLE EXISTS), n=${lat.length}, ${lanes} mailboxes in parallel:`);
  console.log(`  p50 ${pct(lat, 50).toFixed(0)} ms, p99 ${pct(lat, 99).toFixed(0)} ms, max ${Math.max(...lat).toFixed(0)} ms`);
}

async function main(): Promise<number> {
  if (!existsSync(SMTP_SOURCE) || !existsSync(SMTP_SINK)) {
    console.error(`bench:sink needs Postfix's smtp-source and smtp-sink (${SMTP_SOURCE}): apt-get install postfix`);
    return 2;
  }
  const sink = await startSinks({ smtpsPort: null, maxLifetimeMs: BUDGET_MS + 60_000 });
  const stop = setTimeout(() => {
    console.error(`bench:sink: over the ${BUDGET_MS / 1000} s budget, stopping`);
    void sink.stop().then(() => process.exit(3));
  }, BUDGET_MS + 30_000);
  stop.unref();
  try {
    console.log(`bench:sink on ${process.platform}, node ${process.version}, ${cpus().length} cores`);
    await ingest(sink);
    if (sink.imap) {
      await imapDelivery(sink);
      await idleLatency(sink);
    } else console.log(`IMAP figures skipped: ${sink.imapUnavailableReason}`);
    return 0;
  } finally {
    clearTimeout(stop);
    await sink.stop();
  }
}

process.exitCode = await main();
