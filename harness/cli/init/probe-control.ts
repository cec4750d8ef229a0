import { createControlClient, type Recorder } from '../../client/index.ts';
import type { Findings } from './findings.ts';

// Whether the conformance-control API answers at the URL given: GET /clock must answer a date
// (every control API v1 has it); its capabilities are what GET /capabilities announces.

export async function probeControl(findings: Findings, recorder: Recorder, control: { baseUrl: string; token: string } | undefined): Promise<void> {
  if (!control) {
    findings.notFound('/control/baseUrl', 'not asked: give --control-url URL --control-token-env VAR if your target has a conformance-control API');
    return;
  }
  const client = createControlClient({ baseUrl: control.baseUrl, token: control.token, recorder, timeoutMs: 10_000 });
  try {
    await client.now();
    findings.controlExtensions = [...(await client.extensions())].sort();
  } catch (e) {
    findings.notFound('/control/baseUrl', `no control API v1 answered at ${control.baseUrl}: ${recorder.redactor.text((e as Error).message)}`);
    return;
  }
  findings.observe('/control/baseUrl', control.baseUrl);
}
