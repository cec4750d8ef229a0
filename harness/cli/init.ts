import { readFile, writeFile, access } from 'node:fs/promises';
import { resolve } from 'node:path';
import { DEFAULT_PROFILE_PATH } from '../runner/profile.ts';
import { KitError } from '../ground/errors.ts';
import { parseArgs } from '../ground/args.ts';

/**
 * `outreach-conformance init [--out my-target.json]`: a starter profile for your own target,
 * from the reference's (the names it declares are the reference's choices: replace each with
 * your implementation's). Keys are read from environment variables, never written to the file.
 */
export async function initCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, { out: { type: 'string' }, force: { type: 'boolean' } });
  const out = resolve((flags.out as string | undefined) ?? 'outreach-target.json');
  if (!flags.force && (await access(out).then(() => true, () => false))) throw new KitError(`${out} exists; pass --force to overwrite`);
  const reference = JSON.parse(await readFile(DEFAULT_PROFILE_PATH, 'utf8'));
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
    },
    features: { sinks: false, imap: false, oauth: false, testEmail: false },
  };
  await writeFile(out, `${JSON.stringify(profile, null, 2)}\n`);
  process.stdout.write(
    `wrote ${out}\n` +
      'next: set baseUrl; export OUTREACH_KEY_A and OUTREACH_KEY_B (keys of two workspaces holding all:all and apikeys:manage);\n' +
      'replace every entry of "names" and "operations" with your implementation\'s (they are the reference target\'s choices);\n' +
      '"declarations" too: variantIdPath (where a created campaign shows a step\'s variant id, for the test-email checks),\n' +
      'sendFailuresBeforeFailed and recipientRefusal (how your mailboxes count SMTP refusals);\n' +
      'then: npx outreach-conformance run --profile ' + out + '\n',
  );
  return 0;
}
