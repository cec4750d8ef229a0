// The reference target: a real implementation of the spec's protocol layer, read from the spec
// independently of suites/ (it never imports suites/, fixtures/ or harness/client).
// See README.md in this directory for the map of the code.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { Clock } from './domain/clock.ts';
import { openDb } from './store/db.ts';
import { mutantSwitch, ALL_MUTANTS, type MutantInfo } from './switches/mutants.ts';
import { PublicApi, createServices } from './http/app.ts';
import { ControlApi } from './control/control.ts';
import { Verifier } from './sending/verify.ts';
import { SendingEngine } from './sending/engine.ts';
import { WarmupSender } from './sending/warmup.ts';
import { InboxPoller } from './sending/inbox.ts';
import { purgeDeletedLeads } from './resources/leads.ts';
import { DEFAULT_CHOICES, type Choices } from './switches/choices.ts';
import { slowed } from './switches/slowdown.ts';
import { slowAnswers, slowFactor } from './switches/slow.ts';
import type { IdempotencyHolds } from './switches/holds.ts';

export { DEFAULT_CHOICES, ALT_CHOICES, randomChoices, parseChoices, profileFor, type Choices } from './switches/choices.ts';
// The route tables and the body limit, for the kit's fuzzer (harness/fuzz): the reference's only other way in.
export { ROUTES } from './http/routes.ts';
export { CONTROL_ROUTES } from './control/control.ts';
export { MAX_BODY_BYTES } from './http/server.ts';
export { StoreUnbuilt } from './store/db.ts';

export interface ReferenceOptions {
  mutants?: string[]; // ids from MUTANTS; unknown id -> throws with the list of known ids
  dbPath?: string; // default: a fresh SQLite file (WAL) in a temp dir, removed at stop
  controlToken?: string; // default: random
  log?: (line: string) => void;
  /**
   * Run background work (mailbox verification) on a real-time timer too, not only through the
   * control API's POST /work/drain. Default true (a target without the control API progresses on
   * its own); the reference's own tests turn it off to observe the states in between.
   */
  backgroundTimer?: boolean;
  /** The choices where the spec says "not shown" (choices.ts); default DEFAULT_CHOICES. */
  choices?: Choices;
  /**
   * A raised rate limit for capacity runs (`load capacity`), outside the spec's 120 per 60 s:
   * the profile of such a target declares it. Default: the spec's limit.
   */
  rateLimit?: { requests: number; windowMs: number };
  /**
   * A deliberately slowed target for regression comparisons (`compare`), outside the spec: each
   * public API answer is followed by a busy loop of this share of the CPU a request costs
   * (0.2: about 20 % more CPU per request). Default: none.
   */
  slowdown?: number;
  /**
   * A target N times slower on purpose (`reference --slow N`, switches/slow.ts), outside the spec:
   * answers wait a latency, sending rounds and verifications a pause, timers tick less often.
   * Measures the kit's run estimate on a target unlike the one it was measured on. Default 1.
   */
  slow?: number;
  /** The optional control API extensions offered (GET /capabilities); default all. */
  controlExtensions?: readonly string[];
  /**
   * The instant the target's clock reads at start (epoch milliseconds; `reference --clock-start`):
   * a target started just before midnight, a month's end or a daylight-saving change. Default: real time.
   */
  clockStartMs?: number;
  /** A test's hold on idempotent requests (switches/holds.ts), for the reference's own tests; default none. */
  holds?: IdempotencyHolds;
}

export interface ReferenceHandle {
  baseUrl: string; // http://127.0.0.1:<port>   (paths start with /v1)
  controlUrl: string; // http://127.0.0.1:<other port>  (control API v1, own port)
  controlToken: string;
  stop(): Promise<void>; // closes servers, background work, database; idempotent
}

export const MUTANTS: readonly MutantInfo[] = ALL_MUTANTS;

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve((server.address() as AddressInfo).port);
    });
  });
}

function close(server: Server): Promise<void> {
  return new Promise((resolve) => {
    if (!server.listening) return resolve();
    server.close(() => resolve());
    server.closeAllConnections();
  });
}

export async function startReference(opts: ReferenceOptions = {}): Promise<ReferenceHandle> {
  const mutant = mutantSwitch(opts.mutants ?? []);
  const log = opts.log ?? ((line: string) => process.stderr.write(`${line}\n`));
  let tempDir: string | null = null;
  let dbPath = opts.dbPath;
  if (!dbPath) {
    tempDir = mkdtempSync(join(tmpdir(), 'outreach-reference-'));
    dbPath = join(tempDir, 'reference.sqlite');
  }
  const db = openDb(dbPath);
  const clock = new Clock(opts.clockStartMs);
  const services = createServices(db, clock, mutant, log, opts.choices ?? DEFAULT_CHOICES);
  const slow = slowFactor(opts.slow);
  const verifier = new Verifier(services, slow);
  services.verifier = verifier;
  const sender = new SendingEngine(services, slow);
  services.mail = sender.transports;
  const warmup = new WarmupSender(services, sender.transports);
  const inbox = new InboxPoller(services);
  services.drainers.push(verifier.drain, sender.drain, warmup.drain, inbox.drain, (now) => purgeDeletedLeads(db, now, services.choices.leadRetentionDays));
  const controlToken = opts.controlToken ?? randomBytes(24).toString('base64url');
  const api = new PublicApi(services, opts.rateLimit, opts.holds);
  const control = new ControlApi(services, controlToken, opts.controlExtensions);

  const handleApi = opts.slowdown ? slowed((req, res) => api.handle(req, res), opts.slowdown) : (req: IncomingMessage, res: ServerResponse) => api.handle(req, res);
  const handlePublic = slowAnswers(handleApi, slow);
  const publicServer = createServer((req, res) => void handlePublic(req, res));
  const controlServer = createServer((req, res) => void control.handle(req, res));
  // An Expect header other than 100-continue: served as a plain request (Node would answer a bare 417 outside the envelope).
  publicServer.on('checkExpectation', (req, res) => void handlePublic(req, res));
  controlServer.on('checkExpectation', (req, res) => void control.handle(req, res));
  for (const s of [publicServer, controlServer]) {
    // Idle keep-alive connections are closed by the client first: a server that closes them
    // while a busy client, late by a second or two, sends on one resets that request
    // (ECONNRESET). The kit's client keeps an idle connection at most 60 s.
    s.keepAliveTimeout = 120_000;
    // Malformed HTTP (bad request line, header overflow...): still the spec's envelope.
    s.on('clientError', (err: NodeJS.ErrnoException, socket) => {
      if (!socket.writable || err.code === 'ECONNRESET') return void socket.destroy();
      const body = JSON.stringify({
        error: { type: 'invalid_request_error', code: 'validation_failed', message: 'Malformed HTTP request.', status: 400, requestId: randomUUID(), details: [`http: ${err.code ?? err.message}`] },
      });
      socket.end(`HTTP/1.1 400 Bad Request\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
  }
  let publicPort: number;
  let controlPort: number;
  try {
    publicPort = await listen(publicServer);
    controlPort = await listen(controlServer);
  } catch (e) {
    await close(publicServer);
    await close(controlServer);
    db.close();
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
    throw e;
  }

  services.publicUrl = `http://127.0.0.1:${publicPort}`;
  if (opts.backgroundTimer !== false) {
    verifier.start();
    sender.start();
    warmup.start();
    inbox.start();
  }
  let stopping: Promise<void> | null = null;
  return {
    baseUrl: `http://127.0.0.1:${publicPort}`,
    controlUrl: `http://127.0.0.1:${controlPort}`,
    controlToken,
    stop() {
      stopping ??= (async () => {
        verifier.stop();
        warmup.stop();
        inbox.stop();
        await Promise.all([sender.stop(), close(publicServer), close(controlServer)]);
        services.drainers.length = 0;
        db.close();
        if (tempDir) rmSync(tempDir, { recursive: true, force: true });
      })();
      return stopping;
    },
  };
}
