import { acceptedBy, type Endpoint } from './spec-model/endpoints.ts';
import { ERROR_TABLE, type SchemaName } from './spec-model/schemas/index.ts';
import { REFERENCED_OPERATIONS } from './spec-model/referenced-operations.ts';
import { KitError } from './errors.ts';
import { componentSchemas, listName, MUTATE_BODY, schemaRef, usedComponents } from './openapi/components.ts';
import { IDEMPOTENCY_KEY, pathParameters, queryParameters } from './openapi/parameters.ts';
import { declaredOperation, undeclaredOperations } from './openapi/referenced.ts';
import { NOT_DECLARED, readingOf, type Reading, type VendorProfile } from './openapi/reading.ts';

export type { VendorProfile } from './openapi/reading.ts';

// An OpenAPI 3.1 document generated from the spec model (endpoint catalog + zod schemas). With a
// profile it is that vendor's concrete document: its names, referenced operations and success
// statuses in place of the spec's open ones; what it leaves open stays generic and marked.

export interface OpenApiOptions {
  /** The vendor's profile; without one every open choice shows the spec's generic reading. */
  profile?: VendorProfile;
  /** SPDX identifier of the kit's licence (package.json `license`), when it has one. */
  license?: string;
}

const REQUEST_BODIES: Partial<Record<string, SchemaName | typeof MUTATE_BODY>> = {
  'accounts.create': 'AccountsCreateBody',
  'accounts.update': 'AccountPatchBody',
  'campaigns.create': 'CampaignCreateBody',
  'campaigns.update': 'CampaignPatchBody',
  'campaigns.testEmail': 'TestEmailBody',
  'leads.update': 'LeadPatchBody',
  'leads.mutate': MUTATE_BODY,
};

const json = (schema: unknown) => ({ 'application/json': { schema } });

/** components.responses: one per row of the error table, named by its code ("ValidationFailed"). */
const responseName = (code: string) => code.replace(/(^|_)(\w)/g, (_, __, c: string) => c.toUpperCase());

function errorComponents(r: Reading): Record<string, unknown> {
  return Object.fromEntries(
    ERROR_TABLE.map((row) => {
      const response = { description: `${row.type} / ${row.code}: ${row.when}`, content: json(schemaRef('ErrorEnvelope')) };
      if (row.status !== 400) return [responseName(row.code), response];
      // Business-rule refusals answer 400 too, with a code the spec does not show (part 7).
      const code = r.businessRuleErrorCode;
      return [responseName(row.code), { ...response, description: `${response.description}; a business-rule refusal (part 7): ${code ?? 'its code is not shown'}`, ...(code ? {} : NOT_DECLARED) }];
    }),
  );
}

const ERROR_RESPONSES = Object.fromEntries(ERROR_TABLE.map((row) => [String(row.status), { $ref: `#/components/responses/${responseName(row.code)}` }]));

/** The success answer: the spec's status, else the declared one, else any 2xx (marked). */
function successResponse(id: string, stated: number | undefined, schema: unknown, r: Reading): Record<string, unknown> {
  const declared = r.successStatus(id);
  const [status, description, mark] = stated
    ? [String(stated), 'success (status stated by the spec)', {}]
    : declared
      ? [String(declared), 'success (status declared by the profile)', {}]
      : ['2XX', 'success; its status is not shown in the spec (4.1)', NOT_DECLARED];
  return { [status]: { description, content: json(schema), ...mark } };
}

/** Who may call it: any one accepted credential is enough (part 5 group rows and wildcards). */
function access(ep: Endpoint | undefined): Record<string, unknown> {
  if (!ep) return { security: [{ bearer: [] }] };
  return {
    security: acceptedBy(ep).map((c) => ({ bearer: [c] })),
    'x-required-scope': ep.scope,
    'x-accepted-scopes': acceptedBy(ep),
    ...(ep.alsoScope ? { 'x-also-required-scope': ep.alsoScope } : {}),
  };
}

function specOperation(ep: Endpoint & { path: string }, r: Reading): Record<string, unknown> {
  const success = ep.response ? schemaRef(ep.list ? listName(ep.response) : ep.response) : {};
  const body = REQUEST_BODIES[ep.id];
  return {
    operationId: ep.id,
    summary: `${ep.method} ${ep.path} (spec ${ep.section})`,
    ...access(ep),
    parameters: [...pathParameters(ep.path), ...(ep.mutating ? [IDEMPOTENCY_KEY] : []), ...queryParameters(ep.id, ep.list, r)],
    ...(body ? { requestBody: { required: true, content: json(schemaRef(body)) } } : {}),
    responses: { ...successResponse(ep.id, ep.successStatus, success, r), ...ERROR_RESPONSES },
  };
}

/** "/v1/a/{x}" and "/v1/a/{y}" are one path: a declared path takes the spec's template when they differ only so. */
const shape = (path: string) => path.replace(/\{\w+\}/g, '{}');

function addDeclared(paths: Record<string, Record<string, Record<string, unknown>>>, endpoints: readonly Endpoint[], r: Reading): void {
  for (const id of REFERENCED_OPERATIONS) {
    const op = r.operations[id];
    if (!op) continue;
    const key = Object.keys(paths).find((p) => shape(p) === shape(op.path)) ?? op.path;
    const ep = endpoints.find((e) => e.referenced === id);
    const d = declaredOperation(id, op, ep, r, key);
    const taken = paths[key]?.[d.method];
    if (taken) throw new KitError(`profile field operations.${id}: ${op.method} ${op.path} is already ${String(taken.operationId)} (one method and path, one operation)`);
    const responses = { ...successResponse(id, undefined, d.result, r), ...ERROR_RESPONSES };
    (paths[key] ??= {})[d.method] = { ...d.operation, ...access(ep), responses };
  }
}

export function buildOpenApi(endpoints: readonly Endpoint[], options: OpenApiOptions = {}) {
  const r = readingOf(options.profile);
  const paths: Record<string, Record<string, Record<string, unknown>>> = {};
  for (const ep of endpoints) if (ep.path) (paths[ep.path] ??= {})[ep.method.toLowerCase()] = specOperation({ ...ep, path: ep.path }, r);
  addDeclared(paths, endpoints, r);
  const undeclared = undeclaredOperations(endpoints, r);
  const errors = errorComponents(r);
  return {
    openapi: '3.1.0',
    info: {
      title: 'Outreach Email Service API',
      version: '1',
      description: r.profileName
        ? `The API as the profile "${r.profileName}" declares it, generated by outreach-conformance from its spec model. Places the profile leaves open keep the spec's generic reading, marked x-outreach-conformance: not-declared.`
        : 'Generated by outreach-conformance from its spec model. Places the spec leaves open ("not shown") keep a generic reading, marked x-outreach-conformance: not-declared.',
      ...(options.license ? { license: licenseObject(options.license) } : {}),
    },
    servers: r.baseUrl
      ? [{ url: r.baseUrl, description: 'declared by the profile' }]
      : [{ url: '{base_url}', description: 'the target', variables: { base_url: { default: 'http://127.0.0.1' } }, ...NOT_DECLARED }],
    security: [{ bearer: [] }],
    components: { schemas: usedComponents([paths, errors], componentSchemas(endpoints, r)), responses: errors, securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer <API_KEY> (part 5)' } } },
    paths,
    ...(undeclared.length ? { 'x-referenced-operations': undeclared } : {}),
  };
}

/**
 * The licence object: an SPDX identifier as it is; npm's `UNLICENSED` (no licence granted, the
 * package.json value of an unpublished package) as a LicenseRef, since it is not an SPDX id.
 */
function licenseObject(license: string): { name: string; identifier: string } {
  if (license === 'UNLICENSED') return { name: 'UNLICENSED (no licence is granted: all rights reserved)', identifier: 'LicenseRef-UNLICENSED' };
  return { name: license, identifier: license };
}
