// `outreach-conformance sinks`: the sinks alone, for a staging deployment to reach.
// Prints its endpoints as ONE JSON line on stdout and runs until SIGTERM/SIGINT, then stops
// SMTP, HTTP and the Dovecot child and returns 0.
import { startSinks } from './sink.ts';
import type { StartSinksOptions } from './sink-types.ts';
import { helpText, parseArgs, type CommandHelp } from '../ground/args.ts';
import { KitError } from '../ground/errors.ts';

export const SINKS_HELP: CommandHelp = {
  usage: ['outreach-conformance sinks [flags]'],
  summary:
    'standalone SMTP/IMAP sinks with their HTTP API, for a staging deployment to reach. Prints\n' +
    '{"smtp":{...},"imap":{...},"http":{...},"users":[...]} as one line, runs until SIGTERM/SIGINT.',
  flags: {
    host: { type: 'string', value: 'ADDRESS', help: 'the address every listener binds (default 127.0.0.1; 0.0.0.0 for a network)' },
    'smtp-port': { type: 'string', value: 'PORT', help: 'SMTP (default 2525; 0 picks a free port, the printed line says which)' },
    'smtps-port': { type: 'string', value: 'PORT|off', help: 'SMTP over TLS (default 0: a free port; off: none)' },
    'imap-port': { type: 'string', value: 'PORT', help: 'IMAP, served by Dovecot (default 1143)' },
    'http-port': { type: 'string', value: 'PORT', help: 'the HTTP API (default 8025)' },
    'size-limit': { type: 'string', value: 'BYTES', help: 'the largest message SMTP takes (at least 1024)' },
    'no-imap': { type: 'boolean', help: 'no IMAP (its checks then skip, naming it)' },
    'require-auth': { type: 'boolean', help: 'SMTP refuses MAIL without AUTH (default: unauthenticated load clients such as smtp-source may send)' },
    user: { type: 'strings', value: 'address:password', help: 'a mailbox user' },
  },
  exit: 'exit codes: 0 stopped by SIGTERM or SIGINT, 2 a bad flag or a listener that could not start',
};

export interface SinksArgs {
  host: string;
  smtpPort: number;
  smtpsPort: number | null;
  imapPort: number;
  httpPort: number;
  sizeLimit?: number;
  imap: boolean;
  requireAuth: boolean;
  users: { address: string; password: string }[];
}

export class UsageError extends Error {}

function port(flag: string, v: string | undefined): number {
  if (v === undefined || !/^\d+$/.test(v) || Number(v) > 65535) throw new UsageError(`${flag}: expected a port number 0..65535, got ${JSON.stringify(v ?? '')}`);
  return Number(v);
}

export function parseSinksArgs(argv: string[]): SinksArgs {
  let f: Record<string, any>;
  try {
    f = parseArgs(argv, SINKS_HELP.flags);
  } catch (e) {
    throw e instanceof KitError ? new UsageError(e.message) : e;
  }
  if (f['size-limit'] !== undefined && (!/^\d+$/.test(f['size-limit']) || Number(f['size-limit']) < 1024)) throw new UsageError('--size-limit: expected bytes (>= 1024)');
  const users = ((f.user as string[] | undefined) ?? []).map((v) => {
    const at = v.indexOf(':');
    if (at <= 0 || at === v.length - 1) throw new UsageError('--user: expected address:password');
    return { address: v.slice(0, at), password: v.slice(at + 1) };
  });
  return {
    host: f.host ?? '127.0.0.1',
    smtpPort: f['smtp-port'] === undefined ? 2525 : port('--smtp-port', f['smtp-port']),
    smtpsPort: f['smtps-port'] === 'off' ? null : f['smtps-port'] === undefined ? 0 : port('--smtps-port', f['smtps-port']),
    imapPort: f['imap-port'] === undefined ? 1143 : port('--imap-port', f['imap-port']),
    httpPort: f['http-port'] === undefined ? 8025 : port('--http-port', f['http-port']),
    ...(f['size-limit'] !== undefined ? { sizeLimit: Number(f['size-limit']) } : {}),
    imap: !f['no-imap'],
    requireAuth: !!f['require-auth'],
    users,
  };
}

export interface SinksCommandIo {
  out?: (line: string) => void;
  err?: (line: string) => void;
  /** resolves when the command should stop (default: SIGTERM or SIGINT) */
  until?: Promise<unknown>;
}

export async function sinksCommand(argv: string[], io: SinksCommandIo = {}): Promise<number> {
  const out = io.out ?? ((l: string) => process.stdout.write(l + '\n'));
  const err = io.err ?? ((l: string) => process.stderr.write(l + '\n'));
  if (argv.includes('--help') || argv.includes('-h')) return out(helpText(SINKS_HELP)), 0;
  let args: SinksArgs;
  try {
    args = parseSinksArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      err(`sinks: ${e.message}`);
      err(helpText(SINKS_HELP));
      return 2;
    }
    throw e;
  }
  const opts: StartSinksOptions = {
    host: args.host,
    smtpPort: args.smtpPort,
    smtpsPort: args.smtpsPort,
    imapPort: args.imapPort,
    http: args.httpPort,
    imap: args.imap,
    requireAuth: args.requireAuth,
    users: args.users,
    ...(args.sizeLimit ? { smtpSizeLimit: args.sizeLimit } : {}),
    log: (l) => err(l),
  };
  let sink;
  try {
    sink = await startSinks(opts);
  } catch (e) {
    err(`sinks: cannot start: ${(e as Error).message}`);
    return 1;
  }
  let onSignal: (() => void) | null = null;
  const stopSignal =
    io.until ??
    new Promise<void>((resolve) => {
      onSignal = () => resolve();
      process.once('SIGTERM', onSignal);
      process.once('SIGINT', onSignal);
    });
  out(
    JSON.stringify({
      smtp: { host: sink.smtp.host, port: sink.smtp.port, securePort: sink.smtp.securePort, tls: 'starttls' },
      imap: sink.imap,
      ...(sink.imapUnavailableReason ? { imapUnavailableReason: sink.imapUnavailableReason } : {}),
      http: sink.http ?? null,
      users: sink.users().map((u) => u.address), // passwords are the caller's own; never printed
    }),
  );
  await stopSignal;
  if (onSignal) {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  await sink.stop();
  return 0;
}
