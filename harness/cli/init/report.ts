import { REFERENCED_OPERATIONS } from '../../ground/spec-model/referenced-operations.ts';
import type { Placeholder } from '../../ground/profile.ts';
import { leafPointers, type Findings } from './findings.ts';

// What init prints after probing: the count and list of observed fields, those not found (with
// why), and what init does not probe at all. Values are field names, paths and status codes
// the target answered; no key or secret is ever among them.

export interface ProbeSummary {
  out: string;
  baseUrl: string;
  keyEnv: string;
  apiRequests: number;
  controlRequests: number;
  maxRequests: number;
  /** The name of the API key init created, and whether it was revoked. */
  createdKey?: { name: string; revoked: boolean };
  secondKeyEnv?: string;
}

/** `placeholders`: the fields the written file holds unproven (ground/profile.ts placeholders()): loading it refuses them until confirmed. */
export function probeReport(s: ProbeSummary, findings: Findings, starterNames: unknown, placeholders: readonly Placeholder[] = []): string {
  const { observed, missing } = findings;
  const probed = new Set(findings.all.map((f) => f.pointer));
  const unprobedNames = leafPointers(starterNames, '/names').filter((p) => !probed.has(p));
  const unprobedOps = REFERENCED_OPERATIONS.filter((id) => !findings.all.some((f) => f.pointer.startsWith(`/operations/${id}/`)));
  const key = s.createdKey;
  const lines = [
    `wrote ${s.out}`,
    `probed ${s.baseUrl} with the key in $${s.keyEnv}: ${s.apiRequests} API requests (at most ${s.maxRequests}), ${s.controlRequests} control API requests` +
      (key ? `; created one API key named ${key.name} and ${key.revoked ? 'revoked it' : 'could NOT revoke it: revoke it by hand'}` : '; created nothing'),
    `observed ${observed.length} of ${findings.all.length} probed fields:`,
    ...observed.map((f) => `  ${f.pointer} = ${JSON.stringify(f.value)}`),
    ...(findings.controlExtensions ? [`  control API capabilities (GET /capabilities): ${findings.controlExtensions.join(', ') || 'none'}`] : []),
    `not found (${missing.length}; the file keeps the starter's placeholder or leaves the field out): fill in by hand:`,
    ...missing.map((f) => `  ${f.pointer}: ${f.why}`),
    'not probed (init does not send what these need): fill in by hand:',
    ...unprobedNames.map((p) => `  ${p} (the starter's placeholder is the reference target's choice)`),
    `  /operations: ${unprobedOps.join(', ')} (each needs a mailbox, a campaign or an email, which init does not create)`,
    '  /declarations: the success status of the other creates, variantIdPath, sendFailuresBeforeFailed, recipientRefusal, warmupMail and the rest (harness/ground/profile-schema.ts)',
    '  /features: what your target can do with the kit\'s mail sinks',
    ...(placeholders.length
      ? [
          `the profile will be refused (run, plan) until you confirm these ${placeholders.length} fields: each holds a placeholder (the reference target's choice) init could not prove, marked "not found":`,
          ...placeholders.map((p) => `  ${p.pointer} = ${p.shown ?? '(a secret, not shown)'}`),
          '  set each to your target\'s value and mark it "declared" in observed.fields, or remove its entry (an optional field left out skips its checks, naming it)',
        ]
      : []),
    `next: ${placeholders.length ? 'confirm those fields; ' : ''}${s.secondKeyEnv ? `export ${s.secondKeyEnv} (a key of a second workspace holding all:all and apikeys:manage); ` : ''}npx outreach-conformance plan --profile ${s.out}`,
  ];
  return `${lines.join('\n')}\n`;
}
