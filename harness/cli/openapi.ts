import { resolve } from 'node:path';
import { ENDPOINTS } from '../ground/spec-model/endpoints.ts';
import { buildOpenApi } from '../ground/openapi.ts';
import { parseArgs, type CommandHelp } from '../ground/args.ts';
import { loadProfile } from '../ground/profile.ts';
import { KIT } from '../ground/kit.ts';

export const OPENAPI_HELP: CommandHelp = {
  usage: ['outreach-conformance openapi [--profile FILE]'],
  summary:
    "prints an OpenAPI 3.1 document from the spec model; with a profile, that vendor's concrete document (its declared names,\n" +
    'referenced operations and success statuses; what it leaves open is marked x-outreach-conformance: not-declared)',
  flags: { profile: { type: 'string', value: 'FILE', help: "the vendor's profile: its concrete document" } },
  exit: 'exit codes: 0 the document printed, 2 a bad flag or profile',
};

/**
 * `outreach-conformance openapi [--profile FILE]`: the spec model as an OpenAPI 3.1 document on
 * stdout; with a profile, that vendor's concrete document (its names, referenced operations and
 * success statuses), for a diff against the vendor's own spec.
 */
export async function openapiCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, OPENAPI_HELP.flags) as { profile?: string };
  const profile = flags.profile === undefined ? undefined : await loadProfile(resolve(flags.profile));
  process.stdout.write(`${JSON.stringify(buildOpenApi(ENDPOINTS, { profile, license: KIT.license }), null, 2)}\n`);
  return 0;
}
