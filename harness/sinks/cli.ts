// `outreach-conformance sinks`: the sinks alone, for a staging deployment to reach.
// Prints its endpoints as ONE JSON line on stdout and runs until SIGTERM/SIGINT, then stops
// SMTP, HTTP and the Dovecot child and returns 0.
import { startSinks } from './sink.ts';
import type { StartSinksOptions } from './sink-types.ts';

export const SINKS_USAGE = `usage: outreach-conformance sinks [--host 127.0.0.1] [--smtp-port 2525] [--smtps-port 0|off]
                                 [--imap-port 1143] [--http-port 8025] [--size-limit BYTES]
                                 [--no-imap] [--require-auth] [--user address:password]...
  Port 0 picks a free port (the printed line says which). --user may be repeated.
  Prints {"smtp":{...},"imap":{...},"http":{...},"users":[...]} as one line, runs until SIGTERM/SIGINT.`;

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
  const a: SinksArgs = { host: '127.0.0.1', smtpPort: 2525, smtpsPort: 0, imapPort: 1143, httpPort: 8025, imap: true, requireAuth: false, users: [] };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? argv[++i];
      if (v === undefined) throw new UsageError(`${flag} needs a value`);
      return v;
    };
    switch (flag) {
      case '--host':
        a.host = value();
        break;
      case '--smtp-port':
        a.smtpPort = port(flag, value());
        break;
      case '--smtps-port': {
        const v = value();
        a.smtpsPort = v === 'off' ? null : port(flag, v);
        break;
      }
      case '--imap-port':
        a.imapPort = port(flag, value());
        break;
      case '--http-port':
        a.httpPort = port(flag, value());
        break;
      case '--size-limit': {
        const v = value();
        if (!/^\d+$/.test(v) || Number(v) < 1024) throw new UsageError('--size-limit: expected bytes (>= 1024)');
        a.sizeLimit = Number(v);
        break;
      }
      case '--no-imap':
        a.imap = false;
        break;
      case '--require-auth':
        a.requireAuth = true;
        break;
      case '--user': {
        const v = value();
        const at = v.indexOf(':');
        if (at <= 0 || at === v.length - 1) throw new UsageError('--user: expected address:password');
        a.users.push({ address: v.slice(0, at), password: v.slice(at + 1) });
        break;
      }
      case '-h':
      case '--help':
        throw new UsageError('');
      default:
        throw new UsageError(`unknown option ${JSON.stringify(arg)}`);
    }
  }
  return a;
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
  let args: SinksArgs;
  try {
    args = parseSinksArgs(argv);
  } catch (e) {
    if (e instanceof UsageError) {
      if (e.message) err(`sinks: ${e.message}`);
      err(SINKS_USAGE);
      return e.message ? 2 : 0;
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
