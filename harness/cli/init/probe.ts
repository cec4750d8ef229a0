import { randomBytes } from 'node:crypto';
import { TransportError } from '../../client/index.ts';
import { KitError } from '../../ground/errors.ts';
import { Findings } from './findings.ts';
import { openWire, preflight } from './wire.ts';
import { probeControl } from './probe-control.ts';
import { probeGetOperations } from './probe-operations.ts';
import { probeApiKeyCreate } from './probe-apikeys.ts';
import { probeFilters, probePaging } from './probe-lists.ts';
import { probeRequiredParams } from './probe-required-params.ts';

// One probe of a running target, in order: it answers and takes the key (else a usage error
// before anything else is sent); the control API; the GET operations; one API key created (the
// create's shape, and a second item to page through); list and required parameters; the key
// revoked.

export interface ProbeOptions {
  baseUrl: string;
  key: string;
  keyEnv: string;
  control?: { baseUrl: string; token: string };
}

export interface ProbeResult {
  findings: Findings;
  apiRequests: number;
  controlRequests: number;
  createdKey?: { name: string; revoked: boolean };
}

/** Names of what init creates start with this, so a target's owner can tell them apart. */
export const INIT_PREFIX = 'oc-init-';

export async function probeTarget(o: ProbeOptions): Promise<ProbeResult> {
  try {
    return await probe(o);
  } catch (e) {
    // A target that stops answering mid-probe is named like one that never answered (exit 2).
    if (e instanceof TransportError) throw new KitError(`${o.baseUrl} stopped answering while init probed it: ${e.message}`);
    throw e;
  }
}

async function probe(o: ProbeOptions): Promise<ProbeResult> {
  const wire = openWire(o.baseUrl, o.key);
  if (o.control) wire.recorder.redactor.add(o.control.token);
  await preflight(wire, o.baseUrl, o.keyEnv);
  const findings = new Findings();
  await probeControl(findings, wire.recorder, o.control);
  const ops = await probeGetOperations(wire, findings);
  const name = `${INIT_PREFIX}${randomBytes(3).toString('hex')}`;
  const created = await probeApiKeyCreate(wire, findings, ops['apikeys.list'], name);
  let revoked: boolean | undefined;
  try {
    await probePaging(wire, findings, ops['apikeys.list']);
    await probeFilters(wire, findings);
    await probeRequiredParams(wire, findings);
  } finally {
    revoked = await created?.revoke();
  }
  const { requests, controlRequests } = wire.recorder.stats;
  return { findings, apiRequests: requests, controlRequests, ...(created ? { createdKey: { name, revoked: revoked === true } } : {}) };
}
