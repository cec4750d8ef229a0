// What each command takes, one entry per command: `outreach-conformance --help` prints them all,
// `outreach-conformance COMMAND --help` (or -h) the one.

export const USAGE: Readonly<Record<string, string>> = {
  run: `  outreach-conformance run [--profile FILE] [--depth smoke|quick|default|full] [--time-budget 5m] [--out DIR] [--only REGEX]
                           [--seed N] [--concurrency N] [--workspaces N] [--mutants a,b] [--quiet]
                           [--spec FILE]  compare a spec file with the one the kit was written from
                           [--sinks URL]  use a standalone "sinks" the target can reach (its HTTP API URL)
                           [--check REGEX] [--clause ID,..] [--section 4.2,..] [--rerun-failed]  choose checks
                           [--baseline FILE]  known failures (expected, with a reason; a stale entry fails the run)
                           [--vitest-output]  also show vitest's own runner lines (hidden: the kit's summary speaks for the run)
                           [--sign KEY.pem|env:VAR]  sign the bundle with an Ed25519 private key: bundle.intoto.jsonl beside it`,
  verify: `  outreach-conformance verify BUNDLE.tgz [--key PUB.pem] [--attestation FILE]
                                                               checks a run's certification bundle and, with --key, its signed
                                                               attestation (exit 1 tampered or not signed by that key, 2 unreadable)`,
  init: `  outreach-conformance init [--out FILE] [--force]             writes a starter profile for your own target
                           [--base-url URL [--key-env VAR] [--control-url URL [--control-token-env VAR]]]
                                 probes that running target first (key read from $VAR, default OUTREACH_KEY_A;
                                 at most 90 requests, one API key created and revoked) and writes what it
                                 proves, each field marked observed or not found`,
  sweep: `  outreach-conformance sweep --profile FILE [--prefix ocXXXXXX-] [--dry-run]
                                 deletes the API keys and mailboxes that runs which did not finish left in the
                                 profile's workspaces (that run's prefix, else any run's; exit 1 if some remain)`,
  load: `  outreach-conformance load api|capacity|sendpath [--profile FILE] ...   load runs (load.json, load.html); "load --help" lists the flags`,
  compare: `  outreach-conformance compare --base <dir|git rev|url> --head <dir|.|url> [--pairs 5] [--mode api|sendpath] ...
                                                               a regression compare (compare.json, compare.html); "compare --help" lists the flags`,
  plan: `  outreach-conformance plan [--profile FILE] [--depth D] [--time-budget 5m] [--left-out]   the four depths (checks, requests, clauses, minutes), or one run's plan`,
  openapi: `  outreach-conformance openapi [--profile FILE]                prints an OpenAPI 3.1 document from the spec model; with a profile,
                                                               that vendor's concrete document (its declared names, referenced
                                                               operations and success statuses; what it leaves open is marked
                                                               x-outreach-conformance: not-declared)`,
  sinks: `  outreach-conformance sinks [--smtp-port N] [--imap-port N] [--http-port N] [--user addr:pass]...
                                                               standalone SMTP/IMAP sinks with their HTTP API`,
  mutation: `  outreach-conformance mutation [--out DIR] [--only REGEX] [--depth D]   kills every mutant of the reference target (or measures a depth's selection)`,
  reference: `  outreach-conformance reference [--mutants a,b] [--choices default|alt|random:SEED]
                                 serves the reference target alone (prints its URLs and, with
                                 --choices, the profile of that choice set)`,
  soak: `  outreach-conformance soak [--runs N] [--choices default|alt|random] [--no-control] [--seed N]
                                                               the suite against the reference again and again`,
};

export const EXIT_CODES = 'exit codes: 0 every MUST check passed, 1 a MUST check failed, 2 the kit itself could not run';

export const HELP = `outreach-conformance: conformance suite and load harness for the Outreach Email Service API v1

usage:
${Object.values(USAGE).join('\n')}
  outreach-conformance --version                               the kit's version

${EXIT_CODES}
`;

/** The usage of one command. */
export function usageOf(command: string): string {
  return `usage:\n${USAGE[command]}\n\n${EXIT_CODES}\n`;
}
