import { KitError } from '../../ground/errors.ts';

// `--metrics prometheus-rw=URL` and `--metrics otlp=URL` (the flag repeats): where a load run
// streams its metrics. A URL's user:password becomes the basic-auth header and leaves the URL, so
// it is never printed; without it, OUTREACH_METRICS_AUTH=user:password (a Secret's key in
// Kubernetes) gives the same.

export type MetricsKind = 'prometheus-rw' | 'otlp';
export const METRICS_KINDS: readonly MetricsKind[] = ['prometheus-rw', 'otlp'];

export interface MetricsTarget {
  kind: MetricsKind;
  /** the URL without credentials: safe to print */
  url: string;
  auth?: { username: string; password: string };
}

/** Hides a URL's user:password in text that echoes a refused value. */
export const hideCredentials = (text: string): string => text.replace(/\/\/[^/@\s]*@/g, '//***@');

export function parseMetricsFlag(values: readonly string[] | undefined, env: NodeJS.ProcessEnv = process.env): MetricsTarget[] {
  return (values ?? []).map((v) => parseOne(v, env));
}

function parseOne(value: string, env: NodeJS.ProcessEnv): MetricsTarget {
  const refuse = (why: string) => new KitError(`--metrics ${hideCredentials(value)}: ${why}; it takes prometheus-rw=URL (a remote-write endpoint, e.g. http://prometheus:9090/api/v1/write) or otlp=URL (OTLP over HTTP, e.g. http://collector:4318/v1/metrics)`);
  const eq = value.indexOf('=');
  const kind = value.slice(0, Math.max(0, eq));
  if (eq < 0 || !(METRICS_KINDS as readonly string[]).includes(kind)) throw refuse(`"${hideCredentials(kind || value)}" is not an output`);
  let url: URL;
  try {
    url = new URL(value.slice(eq + 1));
  } catch {
    throw refuse('not a URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw refuse(`${url.protocol} is not http: or https:`);
  const auth = url.username || url.password ? { username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) } : authFromEnv(env);
  url.username = '';
  url.password = '';
  return { kind: kind as MetricsKind, url: url.toString(), ...(auth ? { auth } : {}) };
}

function authFromEnv(env: NodeJS.ProcessEnv): MetricsTarget['auth'] {
  const v = env.OUTREACH_METRICS_AUTH;
  if (!v) return undefined;
  const colon = v.indexOf(':');
  if (colon < 0) throw new KitError('OUTREACH_METRICS_AUTH takes user:password (the basic-auth credentials of the --metrics endpoints)');
  return { username: v.slice(0, colon), password: v.slice(colon + 1) };
}

/** Whether the URL given carries credentials (refused where it would be written down, as in a manifest). */
export const hasCredentials = (value: string): boolean => {
  const eq = value.indexOf('=');
  try {
    const u = new URL(value.slice(eq + 1));
    return !!(u.username || u.password);
  } catch {
    return false;
  }
};
