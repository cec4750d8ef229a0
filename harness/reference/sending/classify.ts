// What an inbound message is, for the campaign it answers: a DSN bounce (multipart/report with a
// delivery-status part: Status 5.x.x hard, 4.x.x soft; RFC 3464), an out-of-office auto-reply
// (Auto-Submitted other than "no", X-Autoreply, or a usual subject), a request to unsubscribe, a
// reply, or none of them. The sent email it answers is found by its Message-ID in In-Reply-To or
// References (a bounce also quotes it in the returned headers).

export type Kind = 'bounce_hard' | 'bounce_soft' | 'ooo' | 'unsubscribe' | 'reply';

export interface Inbound {
  headers: Map<string, string>;
  subject: string;
  text: string;
  raw: string;
}

export interface Classified {
  kind: Kind;
  /** Message-IDs this message refers to, newest first (In-Reply-To, References, quoted headers). */
  refersTo: string[];
  /** RFC 3463 status of a bounce. */
  status?: string;
}

const OOO_SUBJECT = /\b(out of (the )?office|automatic reply|auto(matic)?[- ]?reply|autoreply|abwesenheit|absence|on vacation|away from (the )?office)\b/i;
const UNSUBSCRIBE = /\b(unsubscribe|remove me|take me off|stop (emailing|contacting) me|do not (contact|email) me)\b/i;
const IDS = /<[^<>\s]+>/g;

export function classify(m: Inbound): Classified {
  const h = (n: string) => m.headers.get(n) ?? '';
  const refersTo = [...(h('in-reply-to').match(IDS) ?? []), ...(h('references').match(IDS) ?? []).reverse()];
  const type = h('content-type').toLowerCase();
  if (type.includes('multipart/report') && /report-type\s*=\s*"?delivery-status/i.test(type)) {
    const status = /^Status:\s*([245]\.\d{1,3}\.\d{1,3})/im.exec(m.raw)?.[1];
    const quoted = [...m.raw.matchAll(/^Message-ID:\s*(<[^<>\s]+>)/gim)].map((x) => x[1]!).filter((id) => id !== h('message-id'));
    return { kind: status?.startsWith('4') ? 'bounce_soft' : 'bounce_hard', refersTo: [...refersTo, ...quoted], ...(status ? { status } : {}) };
  }
  const auto = h('auto-submitted').toLowerCase();
  if ((auto && auto !== 'no') || h('x-autoreply') || /auto_reply/i.test(h('precedence')) || OOO_SUBJECT.test(m.subject)) return { kind: 'ooo', refersTo };
  if (UNSUBSCRIBE.test(m.text.split(/\n>|\nOn .* wrote:/)[0] ?? '')) return { kind: 'unsubscribe', refersTo };
  return { kind: 'reply', refersTo };
}
