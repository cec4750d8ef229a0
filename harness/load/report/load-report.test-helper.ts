// Synthetic load reports for the tests of load.html: an API run against a server that stalls
// (so corrected and service latency part), with 429 and 5xx seconds, four endpoints and a send
// path of 30 mailboxes in simulated time; and a report of a run that measured nothing (a send-path
// run's report is sendpath/sendpath-report.test-helper.ts).

import { encode, newHistogram, record, type Histogram } from './histogram.ts';
import { seededRandom } from '../../ground/seed.ts';
import { LOAD_SCHEMA_VERSION, type EndpointStats, type LoadReport, type SendpathMailbox, type TimelinePoint } from './types.ts';

const rng = seededRandom;

/** Log-normal sample with the given median. */
function logNormal(rand: () => number, median: number, sigma: number): number {
  const u = Math.max(rand(), 1e-12);
  const v = rand();
  return median * Math.exp(sigma * Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v));
}

const ENDPOINTS = [
  { label: 'GET /v1/campaigns', weight: 4, ok: 200, medianMs: 6 },
  { label: 'GET /v1/campaigns/{id}', weight: 3, ok: 200, medianMs: 4 },
  { label: 'POST /v1/campaigns/{id}/leads', weight: 2, ok: 201, medianMs: 18 },
  { label: 'GET /v1/accounts', weight: 1, ok: 200, medianMs: 9 },
];

/** Stalls: the server answers nothing from `from` until `to` (ms since the start). */
const STALLS = [
  { from: 20_000, to: 22_600 },
  { from: 45_000, to: 45_900 },
];

export function syntheticLoadReport(seed = 7): LoadReport {
  const rand = rng(seed);
  const rate = 50;
  const durationMs = 60_000;
  const connections = 8;
  const n = (rate * durationMs) / 1000;
  const free = new Array<number>(connections).fill(0);
  const totalC = newHistogram();
  const totalS = newHistogram();
  const perEp = ENDPOINTS.map(() => ({ c: newHistogram(), s: newHistogram(), count: 0, status: {} as Record<string, number> }));
  const seconds = Array.from({ length: durationMs / 1000 }, () => ({ intended: 0, achieved: 0, h: newHistogram() as Histogram, s429: 0, s5xx: 0 }));
  const status: Record<string, number> = {};
  let late = 0;
  let errors = 0;
  const totalWeight = ENDPOINTS.reduce((a, x) => a + x.weight, 0);
  for (let i = 0; i < n; i++) {
    const intended = (i * 1000) / rate;
    let k = 0;
    for (let j = 1; j < connections; j++) if (free[j]! < free[k]!) k = j;
    const sent = Math.max(intended, free[k]!);
    if (sent - intended > 1) late++;
    let w = rand() * totalWeight;
    let ep = 0;
    while (w > ENDPOINTS[ep]!.weight && ep < ENDPOINTS.length - 1) w -= ENDPOINTS[ep++]!.weight;
    const e = ENDPOINTS[ep]!;
    let done = sent + logNormal(rand, e.medianMs, 0.45);
    for (const st of STALLS) if (sent >= st.from && sent < st.to) done = st.to + logNormal(rand, e.medianMs, 0.3);
    free[k] = done;
    const sec = Math.floor(intended / 1000);
    const doneSec = Math.min(seconds.length - 1, Math.floor(done / 1000));
    seconds[sec]!.intended++;
    let code = e.ok;
    if (doneSec >= 33 && doneSec <= 35 && rand() < 0.25) code = 429;
    if ((doneSec === 22 || doneSec === 23) && rand() < 0.3) code = 503;
    if (doneSec === 47 && rand() < 0.1) code = 500;
    if (i === 1234 || i === 2345) code = 0;
    status[code] = (status[code] ?? 0) + 1;
    const pe = perEp[ep]!;
    pe.count++;
    pe.status[code] = (pe.status[code] ?? 0) + 1;
    if (code === 0 || code >= 500) errors++;
    if (code === 429) seconds[doneSec]!.s429++;
    if (code >= 500) seconds[doneSec]!.s5xx++;
    if (code === 0) continue;
    const corrected = (done - intended) * 1000;
    const service = (done - sent) * 1000;
    record(totalC, corrected);
    record(totalS, service);
    record(pe.c, corrected);
    record(pe.s, service);
    seconds[doneSec]!.achieved++;
    record(seconds[doneSec]!.h, corrected);
  }
  const timeline: TimelinePoint[] = seconds.map((s, i) => ({
    t: i * 1000,
    intended: s.intended,
    achieved: s.achieved,
    p50: s.h.totalCount ? s.h.getValueAtPercentile(50) : 0,
    p99: s.h.totalCount ? s.h.getValueAtPercentile(99) : 0,
    s429: s.s429,
    s5xx: s.s5xx,
  }));
  const endpoints: EndpointStats[] = ENDPOINTS.map((e, i) => ({ label: e.label, count: perEp[i]!.count, status: perEp[i]!.status, corrected: encode(perEp[i]!.c), service: encode(perEp[i]!.s) }));
  const completed = n - (status['0'] ?? 0);
  return {
    schemaVersion: LOAD_SCHEMA_VERSION,
    kind: 'api',
    runId: '20250101-101500-load-api',
    startedAt: '2025-01-01T10:15:00.000Z',
    finishedAt: '2025-01-01T10:16:01.250Z',
    environment: {
      cpu: 'AMD EPYC 7B13',
      cpus: 8,
      node: 'v20.18.0',
      kit: '0.9.0',
      os: 'Linux 6.1.0-28-cloud-amd64',
      targetUrl: 'https://api.outreach.example.test',
      profileHash: 'c2a1f0e6d9b84c1a7e3f5b2d8c6a4e9f1b3d5c7a9e2f4b6d8c0a1e3f5b7d9c2a',
    },
    plan: { rate, durationMs, intended: n, workspaces: 12, mix: { browse: 4, 'read-campaign': 3, 'add-leads': 2, mailboxes: 1 }, shard: '1/2' },
    totals: { sent: n, completed, late, errors, status: Object.fromEntries(Object.entries(status).map(([k, v]) => [k, v])), throughput: completed / 61.25, corrected: encode(totalC), service: encode(totalS) },
    endpoints,
    flows: { browse: { count: 1200, errors: 12 }, 'read-campaign': { count: 900, errors: 9 }, 'add-leads': { count: 600, errors: 4 }, mailboxes: { count: 300, errors: 2 } },
    timeline,
    violations: [
      {
        rule: 'no 5xx',
        clauses: ['7.2-server-errors'],
        message: 'GET /v1/campaigns answered 503 under 50 req/s',
        request: { method: 'GET', path: '/v1/campaigns?limit=20' },
        response: { status: 503, body: '{"error":{"type":"api_error","code":"unavailable","message":"upstream timed out"}}' },
        at: 22_614,
      },
      {
        rule: 'unplanned 429',
        clauses: ['8.1-rate-limit', '8.3-retry-after'],
        message: 'a 429 at 50 req/s, under the declared limit of 120 per 60 s per workspace',
        request: { method: 'POST', path: '/v1/campaigns/cmp_81f2/leads' },
        response: { status: 429, body: '{"error":{"type":"rate_limit_error","code":"rate_limited","message":"Too many requests"}}' },
        at: 33_480,
      },
      { rule: 'transport', message: 'socket hang up before the response', request: { method: 'GET', path: '/v1/accounts' }, at: 24_690 },
    ],
    violationCounts: { 'no 5xx': (status['503'] ?? 0) + (status['500'] ?? 0), 'unplanned 429': status['429'] ?? 0, transport: status['0'] ?? 0 },
    thresholds: [
      { expr: 'p99<300ms', ok: false, actual: 2612.7, unit: 'ms' },
      { expr: 'service.p99<100ms', ok: true, actual: 41.2, unit: 'ms' },
      { expr: 'errors<1%', ok: false, actual: 1.53, unit: '%' },
      { expr: 'late<5%', ok: true, actual: 3.4, unit: '%' },
      { expr: 'duplicates<1', ok: false, actual: NaN, unit: '', note: 'an api run does not measure duplicates (a sendpath run does)' },
    ],
    sendpath: syntheticSendpath(rand),
    ok: false,
  };
}

function syntheticSendpath(rand: () => number): NonNullable<LoadReport['sendpath']> {
  const MIN = 60_000;
  const DAY = 86_400_000;
  const cap = 40;
  const gapMinutes = 10;
  const mailboxes: SendpathMailbox[] = [];
  const fromAllowed = newHistogram();
  let gapViolations = 0;
  for (let i = 0; i < 30; i++) {
    const count = 25 + ((i * 7) % 30);
    const sends: number[] = [];
    // mailboxes join the campaign at different times and send at their own pace
    const start = (i % 5) * 45 * MIN;
    const pace = gapMinutes + (i % 4) * 1.5;
    let t = start + rand() * 10 * MIN;
    let today = 0;
    let day = 0;
    for (let k = 0; k < count; k++) {
      if (today === cap) {
        day++;
        today = 0;
        t = day * DAY + start + rand() * 10 * MIN;
      }
      sends.push(Math.round(t));
      today++;
      const short = i % 9 === 0 && k === 12;
      if (short) gapViolations++;
      t += (short ? 6 + rand() * 2 : pace + rand() * 3) * MIN;
      record(fromAllowed, logNormal(rand, 18, 0.8) * 1_000_000);
    }
    mailboxes.push({ id: `mbx_${String(i).padStart(3, '0')}`, address: `sender${i}@outreach.example.test`, cap, gapMinutes, sends });
  }
  const leads = mailboxes.reduce((a, m) => a + m.sends.length, 0) + 3;
  return {
    simulated: true,
    leads,
    mailboxes,
    fromAllowed: encode(fromAllowed),
    duplicates: 1,
    losses: 3,
    achievedPerDay: 1041.5,
    idealPerDay: 1200,
    emailsPerWallSecond: 184.3,
    gapViolations,
    capViolations: 0,
  };
}

/** A run that measured nothing: no request, no timeline, no endpoint. */
export function emptyLoadReport(): LoadReport {
  const empty = encode(newHistogram());
  return {
    schemaVersion: LOAD_SCHEMA_VERSION,
    kind: 'api',
    runId: 'empty-run',
    startedAt: '2025-01-01T10:15:00.000Z',
    finishedAt: '2025-01-01T10:15:00.100Z',
    environment: { cpu: 'test cpu', cpus: 2, node: 'v20.0.0', kit: '0.9.0', os: 'Linux', targetUrl: 'http://127.0.0.1:1', profileHash: '0'.repeat(64) },
    plan: { rate: 10, durationMs: 0, intended: 0, workspaces: 0, mix: {} },
    totals: { sent: 0, completed: 0, late: 0, errors: 0, status: {}, throughput: 0, corrected: empty, service: empty },
    endpoints: [],
    flows: {},
    timeline: [],
    violations: [],
    thresholds: [],
    ok: true,
  };
}
