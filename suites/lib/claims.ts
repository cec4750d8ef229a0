import { CheckFailure, fail, msg } from '../../harness/ground/check.ts';

// A composite probe: one exchange (a created resource, an email sent) holds several clauses. Each
// claim names the clause it holds and the assertion that holds it; all are judged, and the failure
// names every clause that broke with what broke it, so one probe reads like the checks it stands for.

export interface Claim {
  /** The clause the assertion holds. */
  clause: string;
  /** The assertion: throws (fail, expectThat) when the clause is broken. */
  holds: () => void | Promise<void>;
}

/** Judges every claim; fails once, naming each broken clause and its assertion's message. */
export async function holdEach(claims: readonly Claim[]): Promise<void> {
  const broken: string[] = [];
  const evidence: string[] = [];
  for (const c of claims) {
    try {
      await c.holds();
    } catch (e) {
      if (!(e instanceof CheckFailure)) throw e;
      broken.push(`${c.clause}: ${e.message}`);
      evidence.push(...e.evidence);
    }
  }
  if (broken.length) fail(msg`${broken.length} of ${claims.length} claims broken: ${broken.join(' | ')}`, ...evidence);
}
