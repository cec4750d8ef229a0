import { describe, expect, it } from 'vitest';
import { classify, type Inbound } from './classify.ts';

const msg = (headers: Record<string, string>, text = '', raw = ''): Inbound => ({
  headers: new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  subject: headers.Subject ?? '',
  text,
  raw: raw || `${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n${text}`,
});

describe('classify', () => {
  it('a reply threads on the email it answers', () => {
    const c = classify(msg({ Subject: 'Re: Hello', 'In-Reply-To': '<a@x>', References: '<root@x> <a@x>' }, 'Sounds good.'));
    expect(c).toEqual({ kind: 'reply', refersTo: ['<a@x>', '<a@x>', '<root@x>'] });
  });
  it('a DSN is a hard bounce for 5.x.x and a soft one for 4.x.x, naming the returned message', () => {
    const report = (status: string) =>
      msg({ Subject: 'Undelivered', 'Content-Type': 'multipart/report; report-type="delivery-status"; boundary="b"', 'Message-ID': '<dsn@mta>' }, '', [
        'Content-Type: multipart/report; report-type=delivery-status; boundary="b"', 'Message-ID: <dsn@mta>', '', '--b', 'Content-Type: message/delivery-status', '',
        'Reporting-MTA: dns; mta.test', '', 'Final-Recipient: rfc822; ann@lead.test', 'Action: failed', `Status: ${status}`, '', '--b', 'Content-Type: text/rfc822-headers', '',
        'Message-ID: <sent-1@sender.test>', 'Subject: Hello', '--b--',
      ].join('\r\n'));
    expect(classify(report('5.1.1'))).toMatchObject({ kind: 'bounce_hard', status: '5.1.1', refersTo: ['<sent-1@sender.test>'] });
    expect(classify(report('4.2.2')).kind).toBe('bounce_soft');
  });
  it('an auto-reply is out of office, by header or by subject', () => {
    expect(classify(msg({ Subject: 'Re: Hello', 'Auto-Submitted': 'auto-replied' })).kind).toBe('ooo');
    expect(classify(msg({ Subject: 'Automatic reply: Hello' })).kind).toBe('ooo');
    expect(classify(msg({ Subject: 'Re: Hello', 'Auto-Submitted': 'no' }, 'Happy to talk.')).kind).toBe('reply');
  });
  it('a reply asking to be removed is an unsubscribe, a quoted word is not', () => {
    expect(classify(msg({ Subject: 'Re: Hello' }, 'Please unsubscribe me.')).kind).toBe('unsubscribe');
    expect(classify(msg({ Subject: 'Re: Hello' }, 'Great, call me.\n> To unsubscribe click here')).kind).toBe('reply');
  });
});
