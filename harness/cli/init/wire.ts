import { createClient, Recorder, TransportError, type ApiClient, type ApiResponse, type Query } from '../../client/index.ts';
import { KitError } from '../../ground/errors.ts';

// The probe's one way onto the wire: the kit's client (429s waited out, secrets redacted) with a
// hard cap on the requests init sends, so a probe of someone's staging stays small and bounded.

/** The most probing requests `init` sends to a target, its clean-up aside (its candidate lists fit well under this). */
export const MAX_PROBE_REQUESTS = 90;

export interface Wire {
  get(path: string, query?: Query): Promise<ApiResponse>;
  post(path: string, body: unknown): Promise<ApiResponse>;
  delete(path: string): Promise<ApiResponse>;
  /** The same target under another key (a key init created, to prove its secret). */
  withKey(key: string): Wire;
  /** Requests sent so far, every key counted. */
  sent(): number;
  readonly recorder: Recorder;
}

const NULL_SINK = { emit: () => {} };

export function openWire(baseUrl: string, key: string, recorder = new Recorder(NULL_SINK)): Wire {
  recorder.redactor.add(key);
  const wrap = (client: ApiClient): Wire => {
    const guarded = <T>(send: () => Promise<T>): Promise<T> => {
      if (recorder.stats.requests >= MAX_PROBE_REQUESTS) throw new KitError(`init stopped probing: it has sent its ${MAX_PROBE_REQUESTS} requests`);
      return send();
    };
    return {
      get: (path, query) => guarded(() => client.get(path, query)),
      post: (path, body) => guarded(() => client.post(path, body)),
      // Clean-up is never refused: the cap counts it but does not stop it.
      delete: (path) => client.delete(path),
      withKey: (other) => (recorder.redactor.add(other), wrap(client.withKey(other))),
      sent: () => recorder.stats.requests,
      recorder,
    };
  };
  return wrap(createClient({ baseUrl, key, recorder, maxRetries429: 2, timeoutMs: 10_000 }));
}

/**
 * Before any probe: the target answers at all, and takes the key. Unreachable or refused
 * is a usage error (exit 2), named without the key.
 */
export async function preflight(wire: Wire, baseUrl: string, keyEnv: string): Promise<void> {
  let res: ApiResponse;
  try {
    res = await wire.get('/v1/workspace');
  } catch (e) {
    if (e instanceof TransportError) throw new KitError(`cannot reach ${baseUrl}: ${wire.recorder.redactor.text(e.message)}`);
    throw e;
  }
  if (res.status === 401) throw new KitError(`${baseUrl} refuses the key in $${keyEnv} (GET /v1/workspace answered 401)`);
  if (res.status !== 200) throw new KitError(`${baseUrl} is not an Outreach API v1 target: GET /v1/workspace answered ${res.status}`);
}
