import { leafPointers, setAt, type Findings } from './findings.ts';

// The profile init writes after probing: the starter's shape, every observed value set at its
// pointer, nothing else claimed. `names` must be complete to load, so a name not proven keeps the
// starter's placeholder (the reference target's choice); operations and declarations not
// proven are left out (their checks skip, naming them). The `observed` section says which is which.

export interface ProbedTarget {
  baseUrl: string;
  keyEnv: string;
  control?: { baseUrl: string; tokenEnv: string };
}

export function probedProfile(starter: { rateLimit: unknown; names: unknown }, target: ProbedTarget, findings: Findings): Record<string, unknown> {
  const controlFound = findings.observed.some((f) => f.pointer === '/control/baseUrl');
  const secondKeyEnv = target.keyEnv === 'OUTREACH_KEY_B' ? 'OUTREACH_KEY_A' : 'OUTREACH_KEY_B';
  const profile: Record<string, unknown> = {
    name: 'my target (probed by outreach-conformance init)',
    baseUrl: target.baseUrl,
    embedded: false,
    rateLimit: structuredClone(starter.rateLimit),
    // With a control API the kit makes its own workspaces; without, it needs a second key.
    workspaces: controlFound ? [] : [{ apiKey: { env: target.keyEnv } }, { apiKey: { env: secondKeyEnv } }],
    names: structuredClone(starter.names),
    operations: {},
    features: { sinks: false, imap: false, oauth: false, testEmail: false },
  };
  for (const f of findings.observed) setAt(profile, f.pointer, f.value);
  if (controlFound) setAt(profile, '/control/token', { env: target.control!.tokenEnv });
  // Every name the file holds is marked: those init does not probe are placeholders too.
  const marks = Object.fromEntries(leafPointers(starter.names, '/names').map((p) => [p, 'not found']));
  for (const f of findings.all) marks[f.pointer] = f.why === undefined ? 'observed' : 'not found';
  profile.observed = {
    fields: marks,
    ...(findings.controlExtensions ? { controlExtensions: findings.controlExtensions } : {}),
  };
  return profile;
}
