import { ENDPOINTS } from '../ground/spec-model/endpoints.ts';
import { buildOpenApi } from '../ground/spec-model/openapi.ts';

/** `outreach-conformance openapi`: the spec model as an OpenAPI 3.1 document on stdout. */
export async function openapiCommand(): Promise<number> {
  process.stdout.write(`${JSON.stringify(buildOpenApi(ENDPOINTS), null, 2)}\n`);
  return 0;
}
