import { readFile, writeFile, access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_PROFILE_PATH, placeholders } from '../ground/profile.ts';
import { KitError } from '../ground/errors.ts';
import { parseArgs, type CommandHelp } from '../ground/args.ts';
import { CONTROL_TOKEN_ENV } from '../client/index.ts';
import { probeTarget } from './init/probe.ts';
import { probedProfile } from './init/probed-profile.ts';
import { probeReport } from './init/report.ts';
import { MAX_PROBE_REQUESTS } from './init/wire.ts';

export const INIT_HELP: CommandHelp = {
  usage: [
    'outreach-conformance init [--out FILE] [--force]',
    'outreach-conformance init [--out FILE] [--force] --base-url URL [--key-env VAR] [--control-url URL [--control-token-env VAR]]',
  ],
  summary:
    'writes a starter profile for your own target; with --base-url it probes that running target first (at most 90 requests,\n' +
    'one API key created and revoked) and writes what it proves, each field marked observed or not found',
  flags: {
    out: { type: 'string', value: 'FILE', help: 'the profile to write (default: outreach-target.json)' },
    force: { type: 'boolean', help: 'overwrite FILE' },
    'base-url': { type: 'string', value: 'URL', help: 'probe this running target' },
    'key-env': { type: 'string', value: 'VAR', help: 'the environment variable holding its API key (default: OUTREACH_KEY_A)' },
    'control-url': { type: 'string', value: 'URL', help: "the target's conformance-control API" },
    'control-token-env': { type: 'string', value: 'VAR', help: 'the environment variable holding its token (default: OUTREACH_CONTROL_TOKEN)' },
  },
  exit: 'exit codes: 0 the profile written, 2 a bad flag, FILE exists without --force, or the target unreachable or refusing the key',
};

/**
 * `outreach-conformance init [--out my-target.json]`: a starter profile for your own target,
 * from the reference's (the names it declares are the reference's choices: replace each with
 * your implementation's). Keys are read from environment variables, never written to the file.
 * With `--base-url URL [--key-env VAR]` it probes that running target first and writes what the
 * target's answers prove, each field marked observed or not found (init/ holds the probes).
 */
export async function initCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, INIT_HELP.flags);
  const out = resolve((flags.out as string | undefined) ?? 'outreach-target.json');
  if (!flags.force && (await access(out).then(() => true, () => false))) throw new KitError(`${out} exists; pass --force to overwrite`);
  const reference = JSON.parse(await readFile(DEFAULT_PROFILE_PATH, 'utf8'));
  if (flags['base-url'] !== undefined) return probeAndWrite(flags, out, reference);
  for (const f of ['key-env', 'control-url', 'control-token-env']) if (flags[f] !== undefined) throw new KitError(`--${f} goes with --base-url URL (the target init probes)`);
  return writeStarter(out, reference);
}

/** An environment variable's value, or a usage error naming the variable (never its value). */
function fromEnv(name: string, flag: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new KitError(`${flag} takes the NAME of an environment variable, got "${name}"`);
  const value = process.env[name];
  if (!value) throw new KitError(`${flag} ${name}: environment variable ${name} is not set`);
  return value;
}

function urlOf(value: string, flag: string): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new KitError(`${flag} takes an http(s) URL, got "${value}"`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new KitError(`${flag} takes an http(s) URL, got "${value}"`);
  const base = value.replace(/\/+$/, '');
  if (/\/v1$/.test(base)) throw new KitError(`${flag} is the base URL without /v1 (e.g. ${base.slice(0, -3)})`);
  return base;
}

async function probeAndWrite(flags: Record<string, unknown>, out: string, reference: { rateLimit: unknown; names: unknown }): Promise<number> {
  const baseUrl = urlOf(flags['base-url'] as string, '--base-url');
  const keyEnv = (flags['key-env'] as string | undefined) ?? 'OUTREACH_KEY_A';
  const key = fromEnv(keyEnv, '--key-env');
  let control: { baseUrl: string; token: string; tokenEnv: string } | undefined;
  if (flags['control-url'] !== undefined) {
    const tokenEnv = (flags['control-token-env'] as string | undefined) ?? CONTROL_TOKEN_ENV;
    control = { baseUrl: urlOf(flags['control-url'] as string, '--control-url'), token: fromEnv(tokenEnv, '--control-token-env'), tokenEnv };
  } else if (flags['control-token-env'] !== undefined) throw new KitError('--control-token-env goes with --control-url URL');
  const probe = await probeTarget({ baseUrl, key, keyEnv, ...(control ? { control } : {}) });
  const profile = probedProfile(reference, { baseUrl, keyEnv, ...(control ? { control } : {}) }, probe.findings);
  await writeFile(out, `${JSON.stringify(profile, null, 2)}\n`);
  const secondKey = (profile.workspaces as { apiKey: { env: string } }[])[1]?.apiKey.env;
  process.stdout.write(
    probeReport(
      { out, baseUrl, keyEnv, apiRequests: probe.apiRequests, controlRequests: probe.controlRequests, maxRequests: MAX_PROBE_REQUESTS, ...(probe.createdKey ? { createdKey: probe.createdKey } : {}), ...(secondKey ? { secondKeyEnv: secondKey } : {}) },
      probe.findings,
      reference.names,
      placeholders(profile),
    ),
  );
  return probe.createdKey?.revoked === false ? 1 : 0;
}

async function writeStarter(out: string, reference: Record<string, any>): Promise<number> {
  const profile = {
    name: 'my staging target',
    baseUrl: 'https://staging.example.com',
    embedded: false,
    rateLimit: reference.rateLimit,
    workspaces: [{ apiKey: { env: 'OUTREACH_KEY_A' } }, { apiKey: { env: 'OUTREACH_KEY_B' } }],
    names: reference.names,
    operations: reference.operations,
    // Shapes and counts the spec does not give that no check can do without. Each is the
    // reference's: replace it with your implementation's, or remove it (its checks then skip,
    // naming it). The other declarations are listed in harness/ground/profile-schema.ts.
    declarations: {
      variantIdPath: reference.declarations.variantIdPath,
      sendFailuresBeforeFailed: reference.declarations.sendFailuresBeforeFailed,
      recipientRefusal: reference.declarations.recipientRefusal,
      // The transitions part 3 does not show (held by STATE-TABLE/*): the reference's table, a placeholder.
      transitions: reference.declarations.transitions,
      warmupMail: reference.declarations.warmupMail,
    },
    features: { sinks: false, imap: false, oauth: false, testEmail: false },
  };
  // Nothing here was proven of the user's target: each value is marked a placeholder, so no run
  // asserts the reference's choice as the target's fact until the user confirms it ("declared").
  const marked = { ...profile, observed: { fields: Object.fromEntries(placeholderPointers(profile).map((p) => [p, 'not found'])) } };
  await writeFile(out, `${JSON.stringify(marked, null, 2)}\n`);
  process.stdout.write(
    `wrote ${out}\n` +
      'next: set baseUrl; export OUTREACH_KEY_A and OUTREACH_KEY_B (keys of two workspaces holding all:all and apikeys:manage);\n' +
      'replace every entry of "names" and "operations" with your implementation\'s (they are the reference target\'s choices),\n' +
      'and mark each "declared" in "observed.fields" (until then the profile is refused: a placeholder is not your target\'s fact);\n' +
      '"declarations" too: variantIdPath (where a created campaign shows a step\'s variant id, for the test-email checks),\n' +
      'sendFailuresBeforeFailed and recipientRefusal (how your mailboxes count SMTP refusals);\n' +
      'transitions (your campaign transition table: each status to the statuses it may move to);\n' +
      'warmupMail (the pool address pattern your warmup sends to through the mailbox\'s login; remove it if warmup sends no real mail);\n' +
      'or let init probe your running target for what it can observe: init --base-url URL --key-env VAR;\n' +
      'then: npx outreach-conformance run --profile ' + out + '\n',
  );
  return 0;
}

/** JSON pointers of the starter's values the user must confirm: every name, every operation, every declaration. */
function placeholderPointers(profile: { names: Record<string, unknown>; operations: Record<string, unknown>; declarations: Record<string, unknown> }): string[] {
  const leaves = (node: unknown, at: string): string[] =>
    node !== null && typeof node === 'object' && !Array.isArray(node) ? Object.entries(node).flatMap(([k, v]) => leaves(v, `${at}/${k}`)) : [at];
  return [...leaves(profile.names, '/names'), ...Object.keys(profile.operations).map((id) => `/operations/${id}`), ...Object.keys(profile.declarations).map((k) => `/declarations/${k}`)];
}
