// The store alone: filters, waitFor by events, eviction of the oldest beyond the limit.
import { describe, expect, it } from 'vitest';
import { SinkStore, WaitTimeoutError } from './store.ts';
import { StoredMessage } from './message.ts';
import { decodeEncodedWords, readHeaders } from './headers.ts';
import type { SessionInfo } from './types.ts';

const session: SessionInfo = { id: 's1', remoteAddress: '127.0.0.1', remotePort: 1, ehlo: 'x', tls: 'none', authUser: 'sdr@outreach.test', connectedAt: 0 };
function msg(store: SinkStore, subject: string, to = 'lead@prospect.test'): StoredMessage {
  const raw = Buffer.from(`Subject: ${subject}\r\nMessage-ID: <${subject.replace(/\W/g, '')}@x>\r\nIn-Reply-To: <parent@x>\r\n\r\nbody\r\n`);
  return new StoredMessage(store.nextId('m'), store.nextId('a'), Date.now(), { mailFrom: 'sdr@outreach.test', rcptTo: [to] }, session, raw, false);
}

describe('SinkStore', () => {
  it('filters on envelope, session and lazily read headers', () => {
    const s = new SinkStore();
    s.addMessage(msg(s, 'First one'));
    s.addMessage(msg(s, 'Second', 'other@prospect.test'));
    expect(s.messages({ to: 'LEAD@prospect.test' }).map((m) => m.subject)).toEqual(['First one']);
    expect(s.messages({ subject: 'second' })).toHaveLength(1);
    expect(s.messages({ messageId: '<Second@x>' })).toHaveLength(1);
    expect(s.messages({ inReplyTo: 'parent@x' })).toHaveLength(2);
    expect(s.messages({ user: 'nobody@x' })).toHaveLength(0);
    expect(s.messages({ injected: true })).toHaveLength(0);
  });

  it('waitFor resolves on a later arrival and ignores non-matching ones', async () => {
    const s = new SinkStore();
    const p = s.waitFor({ subject: 'wanted' }, { timeout: 30_000 });
    s.addMessage(msg(s, 'unrelated'));
    s.addMessage(msg(s, 'the wanted one'));
    expect((await p).subject).toBe('the wanted one');
    await expect(s.waitFor({ subject: 'never' }, { timeout: 20 })).rejects.toBeInstanceOf(WaitTimeoutError);
    const ac = new AbortController();
    const aborted = s.waitFor({ subject: 'never' }, { timeout: 5000, signal: ac.signal });
    ac.abort();
    await expect(aborted).rejects.toThrow(/aborted/);
  });

  it('drops the oldest beyond the limit', () => {
    const s = new SinkStore(10);
    for (let i = 0; i < 25; i++) s.addMessage(msg(s, `m${i}`));
    expect(s.messageCount).toBeLessThanOrEqual(11);
    expect(s.messages().at(-1)!.subject).toBe('m24');
    expect(s.evicted.messages).toBe(25 - s.messageCount);
    expect(s.message(s.messages()[0]!.id)).toBeDefined();
  });
});

describe('header reading', () => {
  it('unfolds, decodes encoded words and skips garbage lines', () => {
    const h = readHeaders(Buffer.from('Subject: =?UTF-8?B?w5xuw69jb2Rl?= =?UTF-8?Q?_ok?=\r\n folded\r\ngarbage line\r\nX-A: 1\r\n\r\nbody: no'));
    expect(h).toEqual([
      ['Subject', 'Ünïcode ok folded'],
      ['X-A', '1'],
    ]);
    expect(decodeEncodedWords('=?iso-8859-1?Q?caf=E9?=')).toBe('café');
    expect(decodeEncodedWords('=?x-unknown?B?aGk=?=')).toBe('hi');
  });
});
