// harness/sinks: real mail sinks for conformance runs (SMTP on smtp-server, IMAP on Dovecot).
//
// The interface (see docs/SINKS.md for the HTTP API and the fault rule format):
//
//   startSinks(opts?: {
//     host?: string;              // bind + advertised address, default 127.0.0.1 (loopback)
//     smtpSizeLimit?: number;     // bytes, 552 beyond it; default 10 MiB
//     imap?: boolean;             // default true; Dovecot missing -> imap null + imapUnavailableReason
//     users?: { address: string; password: string }[];
//     smtpPort?: number; smtpsPort?: number | null; imapPort?: number;   // 0 (default) = free port
//     http?: boolean | number;    // serve the HTTP API (true = free port); default off
//     requireAuth?: boolean;      // default false (unauthenticated load clients may send)
//     maxLifetimeMs?: number;     // stop by itself after this long
//     idleTimeoutMs?: number;     // stop by itself after this long without activity
//     maxStoredMessages?: number; // default 200000 (and twice as many attempts); oldest dropped first
//     log?: (line: string) => void;
//   }): Promise<MailSink>
//
//   interface MailSink {
//     smtp: { host; port; securePort: number | null };   // port: cleartext + STARTTLS; securePort: implicit TLS
//     imap: { host; port } | null;  imapUnavailableReason?: string;  http?: { url };  sizeLimit: number;
//     addUser(address, password?): Promise<SinkCredentials>;   // password generated when omitted
//        // SinkCredentials = { address, password, smtp: { host, port, secure: false, username, password },
//        //                     imap: { host, port, username, password } | null }
//     removeUser(address): Promise<boolean>;  users(): { address, imapRefusal }[];
//     messages(filter?: MessageFilter | (m) => boolean): StoredMessage[];   // accepted mail, arrival order
//     message(id): StoredMessage | undefined;
//     attempts(filter?: AttemptFilter | (a) => boolean): Attempt[];        // every AUTH / mail transaction
//     attemptRaw(id): Buffer | undefined;                                   // DATA bytes, rejected ones too
//     waitFor(filter | predicate, { timeout?, signal? }): Promise<StoredMessage>;   // event-driven
//     waitForAttempt(filter | predicate, { timeout?, signal? }): Promise<Attempt>;  // ended attempts
//     faults: { add(rule): FaultRule; list(); remove(id); clear(); imapLogin(address, 'wrong-password' | 'disabled' | null) };
//     inject: { reply | bounce | outOfOffice | unsubscribe (original: id | Message-ID | StoredMessage, opts & { via?: 'smtp' | 'maildir' }) => Promise<InjectResult> };
//     reset(): Promise<void>;   // forget attempts + messages, clear fault rules and IMAP refusals (users stay)
//     stop(): Promise<void>;    // idempotent; stops SMTP, HTTP and the Dovecot child
//   }
//
//   StoredMessage: { id, attemptId, receivedAt, envelope: { mailFrom, rcptTo[] }, session, raw: Buffer,
//                    injected, deliveredTo[], size, subject, messageIdHeader, header(name), headers(),
//                    summary(), parsed(): Promise<ParsedMessage> }   // parsed = mailparser, on demand
//
//   connectSink(url): Promise<SinkClient> — the same operations over the HTTP API (sink on another host).
//   sinkReader(sink): MailReader — the embedded sink behind the reader interface MailpitReader shares.
//   MailpitReader — reads a real Mailpit through the `mailpit-api` client (no faults, attempts, IMAP).
//   sinksCommand(argv) (cli.ts) — the standalone `outreach-conformance sinks` command.
export { startSinks } from './sink.ts';
export type { MailSink, SinkCredentials, SinkFaults, SinkInject, StartSinksOptions } from './sink-types.ts';
export { StoredMessage } from './message.ts';
export { WaitTimeoutError } from './store.ts';
export { FaultRuleError, faultReplyText, type FaultRule, type FaultRuleInput } from './faults.ts';
export { InjectError, type InjectResult, type InjectKind, type Via } from './inject.ts';
export { AUTH_FAILED_TEXT, INJECTOR_EHLO } from './smtp.ts';
export { DOVECOT_INSTALL_HINT, imapUnavailableReason } from './dovecot.ts';
export { UserError, type ImapRefusal } from './users.ts';
export type * from './types.ts';
export type { BounceOptions, OutOfOfficeOptions, ReplyOptions, UnsubscribeOptions } from './compose.ts';
export { connectSink, SinkClient } from './http-client.ts';
export { MailpitReader } from './mailpit-adapter.ts';
export { sinkReader, type MailReader, type ReaderCapabilities, type ReaderFilter, type ReaderMessage } from './reader.ts';
export { sinksCommand } from './cli.ts';
