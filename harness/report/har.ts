// traffic.har: HAR 1.2 of every exchange of the run (http://www.softwareishard.com/blog/har-12-spec/).
// Custom fields (allowed by the spec with a leading underscore): `_checkId`, `_exchangeId`,
// `_error` (transport failure: the response is then status 0), `_curl`.

import { STATUS_CODES } from 'node:http';
import type { ExchangeEvent, RunEvent } from '../ground/events.ts';
import type { Results } from './results.ts';
import { headerValue } from './text.ts';

interface HarNameValue {
  name: string;
  value: string;
}

export interface HarEntry {
  startedDateTime: string;
  time: number;
  request: {
    method: string;
    url: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    queryString: HarNameValue[];
    postData?: { mimeType: string; text: string };
    headersSize: number;
    bodySize: number;
  };
  response: {
    status: number;
    statusText: string;
    httpVersion: string;
    cookies: HarNameValue[];
    headers: HarNameValue[];
    content: { size: number; mimeType: string; text?: string };
    redirectURL: string;
    headersSize: number;
    bodySize: number;
  };
  cache: Record<string, never>;
  timings: { blocked: number; dns: number; connect: number; ssl: number; send: number; wait: number; receive: number };
  _checkId?: string;
  _exchangeId: string;
  _error?: string;
  _curl?: string;
}

export interface Har {
  log: {
    version: '1.2';
    creator: { name: string; version: string; comment?: string };
    comment?: string;
    entries: HarEntry[];
  };
}

const nv = (h: Record<string, string> | undefined): HarNameValue[] =>
  Object.entries(h ?? {}).map(([name, value]) => ({ name, value: String(value) }));

function queryString(url: string): HarNameValue[] {
  try {
    const u = new URL(url);
    return [...u.searchParams.entries()].map(([name, value]) => ({ name, value }));
  } catch {
    return [];
  }
}

function isoDate(s: string): string {
  const t = Date.parse(s);
  return Number.isNaN(t) ? new Date(0).toISOString() : new Date(t).toISOString();
}

export function harEntry(e: ExchangeEvent): HarEntry {
  const time = Math.max(0, Number(e.durationMs) || 0);
  // Time queued on the kit's rate budget is HAR's `blocked`: the entry starts when it was asked for.
  const blocked = e.queuedMs! > 0 ? e.queuedMs! : undefined;
  const reqBody = e.request.body;
  const entry: HarEntry = {
    startedDateTime: blocked ? isoDate(new Date(Date.parse(e.startedAt) - blocked).toISOString()) : isoDate(e.startedAt),
    time: time + (blocked ?? 0),
    request: {
      method: e.request.method,
      url: e.request.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: nv(e.request.headers),
      queryString: queryString(e.request.url),
      headersSize: -1,
      bodySize: reqBody === undefined ? 0 : Buffer.byteLength(reqBody),
    },
    response: e.response
      ? {
          status: e.response.status,
          statusText: STATUS_CODES[e.response.status] ?? '',
          httpVersion: 'HTTP/1.1',
          cookies: [],
          headers: nv(e.response.headers),
          content: {
            size: Buffer.byteLength(e.response.body ?? ''),
            mimeType: headerValue(e.response.headers, 'content-type') ?? '',
            ...(e.response.body !== undefined ? { text: e.response.body } : {}),
          },
          redirectURL: headerValue(e.response.headers, 'location') ?? '',
          headersSize: -1,
          bodySize: e.response.body === undefined ? 0 : Buffer.byteLength(e.response.body),
        }
      : {
          status: 0,
          statusText: '',
          httpVersion: '',
          cookies: [],
          headers: [],
          content: { size: 0, mimeType: '' },
          redirectURL: '',
          headersSize: -1,
          bodySize: -1,
        },
    cache: {},
    timings: { blocked: blocked ?? -1, dns: -1, connect: -1, ssl: -1, send: 0, wait: time, receive: 0 },
    _exchangeId: e.id,
  };
  if (reqBody !== undefined) {
    entry.request.postData = { mimeType: headerValue(e.request.headers, 'content-type') ?? 'application/json', text: reqBody };
  }
  if (e.checkId) entry._checkId = e.checkId;
  if (e.error) entry._error = e.error;
  if (e.curl) entry._curl = e.curl;
  return entry;
}

export function buildHar(events: RunEvent[], results: Pick<Results, 'kit' | 'runId' | 'target'>): Har {
  const entries = events.filter((e): e is ExchangeEvent => e.type === 'exchange').map(harEntry);
  entries.sort((a, b) => Date.parse(a.startedDateTime) - Date.parse(b.startedDateTime));
  return {
    log: {
      version: '1.2',
      creator: { name: results.kit.name, version: results.kit.version },
      comment: `run ${results.runId} against ${results.target.baseUrl} (secrets redacted)`,
      entries,
    },
  };
}
