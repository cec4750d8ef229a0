import { resolve } from 'node:path';
import { ENDPOINTS } from '../ground/spec-model/endpoints.ts';
import { buildOpenApi } from '../ground/openapi.ts';
import { parseArgs } from '../ground/args.ts';
import { loadProfile } from '../ground/profile.ts';
import { KIT } from '../ground/kit.ts';

/**
 * `outreach-conformance openapi [--profile FILE]`: the spec model as an OpenAPI 3.1 document on
 * stdout; with a profile, that vendor's concrete document (its names, referenced operations and
 * success statuses), for a diff against the vendor's own spec.
 */
export async function openapiCommand(argv: string[]): Promise<number> {
  const flags = parseArgs(argv, { profile: { type: 'string' } }) as { profile?: string };
  const profile = flags.profile === undefined ? undefined : await loadProfile(resolve(flags.profile));
  process.stdout.write(`${JSON.stringify(buildOpenApi(ENDPOINTS, { profile, license: KIT.license }), null, 2)}\n`);
  return 0;
}
