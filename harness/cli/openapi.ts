import { ENDPOINTS } from '../../suites/spec/endpoints.ts';
import { buildOpenApi } from '../../suites/spec/openapi.ts';

/** `outreach-conformance openapi`: the spec model as an OpenAPI 3.1 document on stdout. */
export async function openapiCommand(): Promise<number> {
  process.stdout.write(`${JSON.stringify(buildOpenApi(ENDPOINTS), null, 2)}\n`);
  return 0;
}
