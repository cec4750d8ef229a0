// Postfix's smtp-source (a real SMTP load client) delivers thousands of messages into the
// sink over persistent sessions: every one is recorded, none twice, raw bytes kept.
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSinks, type MailSink } from './index.ts';

const SMTP_SOURCE = '/usr/sbin/smtp-source';
const missing = existsSync(SMTP_SOURCE) ? null : `${SMTP_SOURCE} is missing (install it with \`apt-get install postfix\`; the daemon need not run)`;
if (missing) console.warn(`smtp-source.test.ts skipped: ${missing}`);

function run(cmd: string, args: string[], timeoutMs: number): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const p = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    p.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const t = setTimeout(() => p.kill('SIGKILL'), timeoutMs);
    p.on('error', reject);
    p.on('exit', (code) => {
      clearTimeout(t);
      resolve({ code, stderr });
    });
  });
}

let sink: MailSink;

describe.skipIf(!!missing)('Postfix smtp-source into the sink', () => {
  beforeAll(async () => {
    sink = await startSinks({ imap: false, smtpsPort: null });
  });
  afterAll(() => sink?.stop());

  it('delivers 4000 messages over 10 persistent sessions with nothing lost or doubled', async () => {
    const n = 4000;
    const r = await run(SMTP_SOURCE, ['-d', '-N', '-s', '10', '-m', String(n), '-l', '1000', '-f', 'load@source.test', '-t', 'lead@prospect.test', '-M', 'source.test', `127.0.0.1:${sink.smtp.port}`], 60_000);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const msgs = sink.messages({ from: 'load@source.test' });
    expect(msgs).toHaveLength(n);
    // -N numbers every recipient: each one exactly once
    const rcpts = new Set(msgs.map((m) => m.envelope.rcptTo[0]));
    expect(rcpts.size).toBe(n);
    expect(msgs.every((m) => m.size >= 1000)).toBe(true);
    expect(sink.attempts({ kind: 'mail', from: 'load@source.test' }).filter((a) => a.outcome !== 'accepted')).toEqual([]);
    expect(new Set(msgs.map((m) => m.session.id)).size).toBe(10);
  });
});
