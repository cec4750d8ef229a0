import { describe, expect, it } from 'vitest';
import { ALT_SENDING, DEFAULT_SENDING } from '../switches/sending-options.ts';
import { htmlToText, renderEmail, type RenderInput } from './render.ts';

const base = (over: Partial<RenderInput> = {}): RenderInput => ({
  step: { subject: 'Hi {{firstName}} at {{companyName}}', body: '<p>Dear {{firstName}}, see <a href="https://example.com/x?a=1&amp;b=2">this</a>.</p>' },
  lead: { email: 'ann@lead.test', firstName: 'Ann', companyName: 'Acme <Labs> & Co', customFields: { plan: 'gold' } },
  mailbox: { emailAddress: 'sam@sender.test', firstName: 'Sam', lastName: 'Sender', displayName: 'Sam from Sales', signature: '<p>-- Sam</p>', replyToAddress: 'replies@sender.test', bcc: 'archive@sender.test' },
  settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: false },
  choices: DEFAULT_SENDING,
  ...over,
});

describe('renderEmail', () => {
  it("renders the lead's values, escaped in HTML and raw in the subject, with the signature appended", () => {
    const e = renderEmail(base());
    expect(e.subject).toBe('Hi Ann at Acme <Labs> & Co');
    expect(e.html).toContain('Dear Ann');
    expect(e.html).toContain('<p>-- Sam</p>');
    expect(e.text).toContain('-- Sam');
    expect(e.from).toEqual({ name: 'Sam from Sales', address: 'sam@sender.test' });
    expect(e.replyTo).toBe('replies@sender.test');
    expect(e.bcc).toBe('archive@sender.test');
    expect(e.messageId).toMatch(/^<[0-9a-f-]{36}@sender\.test>$/);
    const withCompany = renderEmail(base({ step: { subject: 's', body: '<p>{{companyName}}</p>' } }));
    expect(withCompany.html).toContain('Acme &lt;Labs&gt; &amp; Co');
  });

  it('never lets CR/LF of a value reach a header', () => {
    const e = renderEmail(base({ lead: { email: 'x@y.test', firstName: 'Ann\r\nBcc: evil@attacker.test' } }));
    expect(e.subject).not.toMatch(/[\r\n]/);
    const named = renderEmail(base({ mailbox: { emailAddress: 'sam@sender.test', displayName: 'Sam\r\nX-Evil: 1' } }));
    expect(named.from.name).not.toMatch(/[\r\n]/);
  });

  it('names merge variables by the chosen naming; an unknown one renders as chosen', () => {
    const snake = renderEmail(base({ choices: ALT_SENDING, step: { subject: '{{first_name}} {{firstName}} {{plan}}', body: 'x' } }));
    expect(snake.subject).toBe('Ann {{firstName}} gold');
    const empty = renderEmail(base({ step: { subject: 'a {{nope}} b', body: 'x' } }));
    expect(empty.subject).toBe('a b');
  });

  it('fills every placeholder with dummy personalization', () => {
    const e = renderEmail(base({ lead: 'dummy', step: { subject: '{{firstName}} {{someCustomField}}', body: '<p>{{companyName}}</p>' } }));
    expect(`${e.subject}${e.html}`).not.toContain('{{');
    expect(e.subject).toMatch(/^\S+ \S+$/);
  });

  it('sends text only when asked, and tracks only when asked', () => {
    const plain = renderEmail(base({ settings: { trackOpens: true, trackClicks: true, sendAsTextOnly: true }, tracking: { baseUrl: 'http://t.test', token: 'tok' } }));
    expect(plain.html).toBeNull();
    expect(plain.text).toContain('Dear Ann');
    const off = renderEmail(base({ tracking: { baseUrl: 'http://t.test', token: 'tok' } }));
    expect(off.html).toContain('href="https://example.com/x?a=1&amp;b=2"');
    expect(off.html).not.toContain('<img');
    const on = renderEmail(base({ settings: { trackOpens: true, trackClicks: true, sendAsTextOnly: false }, tracking: { baseUrl: 'http://t.test', token: 'tok' } }));
    expect(on.html).toContain('href="http://t.test/t/c/tok/0"');
    expect(on.links).toEqual(['https://example.com/x?a=1&b=2']);
    expect(on.html).toContain('<img src="http://t.test/t/o/tok"');
  });

  it('turns HTML into readable text', () => {
    expect(htmlToText('<p>One &amp; two</p><p>Three<br>four</p>')).toBe('One & two\nThree\nfour');
  });
});
