// `npm run bench:sendpath`: the reference's sending engine under a campaign of 2,000 leads over 100
// mailboxes at the kit's SMTP sink, in simulated time (control clock: advance one gap, drain).
// Prints wall time, emails per wall-second through the sink, the achieved send rate against the
// ideal one the caps and gaps allow, duplicates and losses. A benchmark, not a test.
import { startReference } from '../reference/index.ts';
import { startSinks } from '../sinks/index.ts';

const LEADS = Number(process.env.BENCH_LEADS ?? 2000);
const MAILBOXES = Number(process.env.BENCH_MAILBOXES ?? 100);
const GAP_MINUTES = 1;
const PER_DAY = 200;
const MINUTE = 60_000;

const sink = await startSinks({ requireAuth: true, maxLifetimeMs: 30 * MINUTE });
const ref = await startReference({ log: () => {}, backgroundTimer: false });
async function call(base: string, token: string, method: string, path: string, body?: unknown) {
  const r = await fetch(base + path, { method, headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) }, body: body ? JSON.stringify(body) : undefined });
  const text = await r.text();
  if (r.status >= 300) throw new Error(`${method} ${path}: ${r.status} ${text.slice(0, 300)}`);
  return text ? JSON.parse(text) : undefined;
}
const ctl = (method: string, path: string, body?: unknown) => call(ref.controlUrl, ref.controlToken, method, path, body);
try {
  const ws = await ctl('POST', '/workspaces', { name: 'bench', timezone: 'UTC' });
  const api = (method: string, path: string, body?: unknown) => call(ref.baseUrl, ws.apiKey, method, path, body);
  const ids: string[] = [];
  for (let i = 0; i < MAILBOXES; i += 50) {
    const accounts = [];
    for (let j = i; j < Math.min(MAILBOXES, i + 50); j++) {
      const c = await sink.addUser(`sender${j}@bench.test`);
      accounts.push({
        emailAddress: c.address, firstName: 'Bench', lastName: `Sender ${j}`, smtpHost: sink.smtp.host, smtpPort: sink.smtp.port, smtpUsername: c.smtp.username,
        smtpPassword: c.smtp.password, imapHost: c.imap!.host, imapPort: c.imap!.port, imapUsername: c.imap!.username, imapPassword: c.imap!.password, imapAllowInvalidCert: true,
        maxEmailsPerDay: PER_DAY, sendingGapMinutes: GAP_MINUTES,
      });
    }
    ids.push(...(await api('POST', '/v1/accounts', { accounts })).accounts.map((a: { id: string }) => a.id));
  }
  await ctl('POST', '/work/drain', {});
  const leads = Array.from({ length: LEADS }, (_, i) => `lead${i}@leads.bench.test`);
  const created = await api('POST', '/v1/campaigns', {
    name: 'bench', accounts: ids, leads,
    schedule: { timezone: 'UTC', sendingDays: [0, 1, 2, 3, 4, 5, 6], sendingMinutesStart: 0, sendingMinutesEnd: 1440, dailyLimit: 100_000 },
    settings: { trackOpens: false, trackClicks: false, sendAsTextOnly: false, stopOnReply: true },
    sequence: [{ subject: 'Hello {{firstName}}', body: '<p>Hi</p>', delayDays: 0, delayHours: 0 }],
  });
  const active = (await api('GET', `/v1/accounts/${ids[0]}`)).status;
  if (active !== 'active') throw new Error(`the bench's mailboxes are ${active} after verification`);
  await api('POST', `/v1/campaigns/${created.campaign.id}/start`);
  const t0 = Date.now();
  let simMinutes = 0;
  while (sink.messages().length < LEADS && simMinutes < 24 * 60) {
    await ctl('POST', '/work/drain', {});
    if (sink.messages().length >= LEADS) break;
    await ctl('POST', '/clock/advance', { seconds: GAP_MINUTES * 60 });
    simMinutes += GAP_MINUTES;
  }
  const wallS = (Date.now() - t0) / 1000;
  const got = sink.messages();
  const per = new Map<string, number>();
  for (const m of got) for (const r of m.envelope.rcptTo) per.set(r, (per.get(r) ?? 0) + 1);
  const duplicates = [...per.values()].filter((n) => n > 1).length;
  const losses = leads.filter((l) => !per.has(l)).length;
  // Ideal: every mailbox sends once per gap from the first minute; a mailbox past its daily cap
  // waits for the next day.
  const perMailbox = Math.ceil(LEADS / MAILBOXES);
  const fullDays = Math.floor((perMailbox - 1) / PER_DAY);
  const idealMinutes = fullDays * 24 * 60 + ((perMailbox - 1) % PER_DAY) * GAP_MINUTES;
  console.log(`send path: ${LEADS} leads over ${MAILBOXES} mailboxes (gap ${GAP_MINUTES} min, cap ${PER_DAY}/day), simulated time`);
  console.log(`wall ${wallS.toFixed(1)} s  |  ${(got.length / wallS).toFixed(0)} emails/s through the sink  |  simulated ${simMinutes} min, ideal ${idealMinutes} min  |  achieved/ideal ${(Math.max(idealMinutes, 1) / Math.max(simMinutes, 1)).toFixed(2)}  |  duplicates ${duplicates}  |  losses ${losses}`);
} finally {
  await ref.stop();
  await sink.stop();
}
