// --sinks URL: a standalone `outreach-conformance sinks` in its own process, driven through its
// HTTP API as the in-process sinks are (synchronous reads, waits, faults, users), what it cannot
// do skipping with the reason, and a real conformance run of sending checks through it.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { FaultRuleError, imapUnavailableReason, WaitTimeoutError, type MailSink } from './index.ts';
import { CheckSkipped } from '../ground/check.ts';
import { connectRemoteSinks } from './remote-sinks.ts';
import { BIN, cliOk } from '../cli/cli.test-helper.ts';

const children: ChildProcess[] = [];

/** Starts `outreach-conformance sinks` on free ports; resolves with its HTTP API URL. */
function startSinksProcess(extra: string[] = []): Promise<string> {
  const child = spawn(process.execPath, [BIN, 'sinks', '--smtp-port', '0', '--imap-port', '0', '--http-port', '0', '--require-auth', ...extra], { stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('\n')) resolve((JSON.parse(out.slice(0, out.indexOf('\n'))) as { http: { url: string } }).http.url);
    });
    child.on('exit', (code) => reject(new Error(`sinks exited ${code} before printing its endpoints`)));
  });
}

afterAll(async () => {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await Promise.all(children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : undefined)));
});

async function send(sink: MailSink, user: { address: string; password: string }, to: string, subject: string) {
  const t = nodemailer.createTransport({ host: sink.smtp.host, port: sink.smtp.port, secure: false, auth: { user: user.address, pass: user.password }, tls: { rejectUnauthorized: false }, logger: false });
  try {
    return await t.sendMail({ from: user.address, to, subject, text: `body of ${subject}` });
  } finally {
    t.close();
  }
}

describe('remote sinks (--sinks URL)', () => {
  let url: string;
  let sink: MailSink;
  beforeAll(async () => {
    url = await startSinksProcess();
    sink = await connectRemoteSinks(url);
  });
  afterAll(() => sink?.stop());

  it('reads, waits and faults as the in-process sinks do', async () => {
    const box = await sink.addUser('remote-box@sink.outreach.test');
    expect(box.smtp.host).toBe('127.0.0.1');
    const lead = 'remote-lead@leads.sink.test';
    await send(sink, box, lead, 'first');
    // A predicate (not expressible over HTTP) and synchronous reads right after.
    const got = await sink.waitFor((m) => m.envelope.rcptTo.includes(lead) && m.session.authUser === box.address, { timeout: 30_000 });
    expect(got.header('subject')).toBe('first');
    expect(sink.messages({ to: lead }).map((m) => m.id)).toEqual([got.id]);
    expect(sink.message(got.id)?.raw.toString()).toContain('body of first');

    const rule = sink.faults.add({ stage: 'RCPT', recipient: lead, action: 'reply', code: 550, enhancedCode: '5.1.1', text: 'User unknown' });
    expect(sink.faults.list().map((r) => r.id)).toContain(rule.id);
    await expect(send(sink, box, lead, 'refused')).rejects.toThrow(/550/);
    // The client sees the 550 at RCPT before the sink process has closed and recorded the attempt: wait for it (bounded).
    const refused = await vi.waitFor(
      () => {
        const r = sink.attempts({ user: box.address, outcome: 'rejected' });
        expect(r.map((a) => a.faultRuleId)).toContain(rule.id);
        return r;
      },
      { timeout: 30_000, interval: 50 },
    );
    expect(sink.attemptRaw(refused[0]!.id)).toBeUndefined(); // refused at RCPT: no DATA
    expect(sink.faults.remove(rule.id)).toBe(true);
    expect(sink.faults.remove(rule.id)).toBe(false);
    expect(() => sink.faults.add({ stage: 'RCPT', action: 'reply', code: 250 } as never)).toThrow(FaultRuleError);
    await expect(sink.waitFor({ to: 'nobody@leads.sink.test' }, { timeout: 300 })).rejects.toThrow(WaitTimeoutError);
    expect(sink.users().map((u) => u.address)).toContain(box.address);

    const reply = await sink.inject.reply(got, { body: 'Interested' });
    expect(reply.raw.toString()).toContain('Interested');
    expect(sink.messages({ inReplyTo: got.messageIdHeader! }).length).toBe(1);
  });

  it('skips, naming the sinks and what they lack, what they cannot do', async () => {
    const bare = await connectRemoteSinks(await startSinksProcess(['--no-imap', '--smtps-port', 'off']));
    try {
      expect(bare.imap).toBeNull();
      expect(bare.imapUnavailableReason).toMatch(/^the mail sinks at http:\/\/127\.0\.0\.1:\d+ have no IMAP: IMAP sink disabled/);
      const box = await bare.addUser('bare-box@sink.outreach.test');
      await send(bare, box, 'bare-lead@leads.sink.test', 'hello');
      const m = await bare.waitFor({ to: 'bare-lead@leads.sink.test' });
      const err = await bare.inject.reply(m, { via: 'maildir' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(CheckSkipped);
      expect((err as Error).message).toMatch(/mail sinks at http:\/\/127\.0\.0\.1:\d+ cannot do that: .*Maildir delivery needs the IMAP sink/);
    } finally {
      await bare.stop();
    }
  });

  it('carries a conformance run of sending checks against the embedded reference', async () => {
    const out = await mkdtemp(join(tmpdir(), 'oc-remote-sinks-'));
    const imap = !imapUnavailableReason();
    const ids = ['SEND/start-begins', 'TEST-EMAIL/delivered', ...(imap ? ['EMAIL/received'] : [])];
    const { stdout } = await cliOk(['run', '--sinks', url, '--check', `^(${ids.join('|')})$`, '--out', out, '--quiet']);
    expect(stdout).toMatch(/mail sinks|PASS/);
    const results = JSON.parse(await readFile(join(out, 'latest', 'results.json'), 'utf8')) as { checks: { id: string; verdict: string; message?: string }[] };
    for (const id of ids) expect(results.checks.find((c) => c.id === id), id).toMatchObject({ verdict: 'pass' });
  });
});
