// The sink's own API under /sink/v1: the in-process operations over the wire (read, wait with a
// timeout, faults, injection, users, reset). One entry per route; each handler takes the sink.
import { attemptFilterFrom, messageFilterFrom } from './http-filters.ts';
import { bindRoutes, HttpError, messageOr404, objectBody, send, type Ctx, type Route, type RouteTable } from './http-route.ts';
import type { InjectResult } from './inject.ts';
import type { SinkInternals } from './sink-types.ts';

const MAX_WAIT_MS = 300_000;

const KIT_ROUTES: RouteTable<SinkInternals> = [
  ['GET', /^\/sink\/v1\/info$/, getInfo],
  ['GET', /^\/sink\/v1\/messages$/, listMessages],
  ['GET', /^\/sink\/v1\/messages\/([^/]+)$/, getMessage],
  ['GET', /^\/sink\/v1\/messages\/([^/]+)\/raw$/, getMessageRaw],
  ['GET', /^\/sink\/v1\/messages\/([^/]+)\/parsed$/, getMessageParsed],
  ['GET', /^\/sink\/v1\/attempts$/, listAttempts],
  ['GET', /^\/sink\/v1\/attempts\/([^/]+)\/raw$/, getAttemptRaw],
  ['POST', /^\/sink\/v1\/wait$/, wait],
  ['GET', /^\/sink\/v1\/faults$/, listFaults],
  ['POST', /^\/sink\/v1\/faults$/, addFault],
  ['DELETE', /^\/sink\/v1\/faults$/, clearFaults],
  ['DELETE', /^\/sink\/v1\/faults\/([^/]+)$/, removeFault],
  ['GET', /^\/sink\/v1\/users$/, listUsers],
  ['POST', /^\/sink\/v1\/users$/, addUser],
  ['DELETE', /^\/sink\/v1\/users\/([^/]+)$/, removeUser],
  ['PUT', /^\/sink\/v1\/users\/([^/]+)\/imap-refusal$/, setImapRefusal],
  ['POST', /^\/sink\/v1\/inject\/reply$/, inject('reply')],
  ['POST', /^\/sink\/v1\/inject\/bounce$/, inject('bounce')],
  ['POST', /^\/sink\/v1\/inject\/out-of-office$/, inject('outOfOffice')],
  ['POST', /^\/sink\/v1\/inject\/unsubscribe$/, inject('unsubscribe')],
  ['POST', /^\/sink\/v1\/reset$/, reset],
];

/** The kit API's routes over one sink. */
export function kitRoutes(sink: SinkInternals): Route[] {
  return bindRoutes(KIT_ROUTES, sink);
}

async function getInfo(sink: SinkInternals, { res }: Ctx): Promise<void> {
  send(res, 200, { smtp: sink.smtp, imap: sink.imap, imapUnavailableReason: sink.imapUnavailableReason ?? null, http: sink.http ?? null, sizeLimit: sink.sizeLimit });
}

async function listMessages(sink: SinkInternals, { res, url }: Ctx): Promise<void> {
  send(res, 200, { messages: sink.messages(messageFilterFrom(url.searchParams)).map((m) => m.summary()) });
}

async function getMessage(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  send(res, 200, messageOr404(sink, params[0]!).summary());
}

async function getMessageRaw(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  send(res, 200, messageOr404(sink, params[0]!).raw, 'message/rfc822');
}

async function getMessageParsed(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  send(res, 200, await messageOr404(sink, params[0]!).parsed());
}

async function listAttempts(sink: SinkInternals, { res, url }: Ctx): Promise<void> {
  send(res, 200, { attempts: sink.attempts(attemptFilterFrom(url.searchParams)) });
}

async function getAttemptRaw(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  const raw = sink.attemptRaw(params[0]!);
  if (!raw) throw new HttpError(404, `attempt ${params[0]} has no DATA bytes`);
  send(res, 200, raw, 'message/rfc822');
}

/** Waits for a message (or, with kind "attempt", an attempt) matching the filter: 408 after timeoutMs. */
async function wait(sink: SinkInternals, ctx: Ctx): Promise<void> {
  const b = await objectBody(ctx);
  const timeout = b.timeoutMs === undefined ? 10_000 : Number(b.timeoutMs);
  if (!Number.isFinite(timeout) || timeout < 0 || timeout > MAX_WAIT_MS) throw new HttpError(400, `timeoutMs: 0..${MAX_WAIT_MS}`);
  const filter = (b.filter ?? {}) as Record<string, unknown>;
  if (typeof filter !== 'object' || Array.isArray(filter)) throw new HttpError(400, 'filter must be an object');
  if (b.kind === 'attempt') {
    const a = await sink.waitForAttempt(attemptFilterFrom(filter), { timeout, signal: ctx.signal });
    send(ctx.res, 200, { attempt: a });
  } else {
    const m = await sink.waitFor(messageFilterFrom(filter), { timeout, signal: ctx.signal });
    send(ctx.res, 200, { message: m.summary() });
  }
}

async function listFaults(sink: SinkInternals, { res }: Ctx): Promise<void> {
  send(res, 200, { rules: sink.faults.list() });
}

async function addFault(sink: SinkInternals, ctx: Ctx): Promise<void> {
  send(ctx.res, 201, sink.faults.add((await objectBody(ctx)) as never));
}

async function clearFaults(sink: SinkInternals, { res }: Ctx): Promise<void> {
  sink.faults.clear();
  send(res, 200, { rules: [] });
}

async function removeFault(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  if (!sink.faults.remove(params[0]!)) throw new HttpError(404, `fault rule ${params[0]} not found`);
  send(res, 200, { removed: params[0] });
}

async function listUsers(sink: SinkInternals, { res }: Ctx): Promise<void> {
  send(res, 200, { users: sink.users() });
}

async function addUser(sink: SinkInternals, ctx: Ctx): Promise<void> {
  const b = await objectBody(ctx);
  if (typeof b.address !== 'string') throw new HttpError(400, 'address is required');
  if (b.password !== undefined && typeof b.password !== 'string') throw new HttpError(400, 'password must be a string');
  send(ctx.res, 201, await sink.addUser(b.address, b.password as string | undefined));
}

async function removeUser(sink: SinkInternals, { res, params }: Ctx): Promise<void> {
  if (!(await sink.removeUser(params[0]!))) throw new HttpError(404, `user ${params[0]} not found`);
  send(res, 200, { removed: params[0] });
}

async function setImapRefusal(sink: SinkInternals, ctx: Ctx): Promise<void> {
  const b = await objectBody(ctx);
  const r = b.refusal ?? null;
  if (r !== null && r !== 'wrong-password' && r !== 'disabled') throw new HttpError(400, 'refusal: expected "wrong-password", "disabled" or null');
  await sink.faults.imapLogin(ctx.params[0]!, r);
  send(ctx.res, 200, { address: ctx.params[0]!.toLowerCase(), imapRefusal: r });
}

const injectView = (r: InjectResult) => ({ ...r, raw: undefined, size: r.raw.length });

/** Injects a reply, bounce, out-of-office or unsubscribe to the recorded message `original` names. */
function inject(kind: 'reply' | 'bounce' | 'outOfOffice' | 'unsubscribe') {
  return async (sink: SinkInternals, ctx: Ctx): Promise<void> => {
    const { original, ...opts } = await objectBody(ctx);
    if (typeof original !== 'string' || !original) throw new HttpError(400, 'original: the sink id or Message-ID of a recorded message is required');
    const r = await sink.inject[kind](original, opts as never);
    send(ctx.res, 201, injectView(r));
  };
}

async function reset(sink: SinkInternals, { res }: Ctx): Promise<void> {
  await sink.reset();
  send(res, 200, { reset: true });
}
