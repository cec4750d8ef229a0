import { explainedBy } from '../../lib/requests.ts';

// How a scope probe's answer is judged (part 5), shared by the scope matrix and SCOPE-GRANT: a
// credential the route accepts gets 2xx, or the refusal its placeholder request explains; any
// other credential gets 403 permission_denied. Both in the error envelope.

/** An accepted credential: 2xx, or a refusal the placeholder explains, in the error envelope. */
export function servedProblem(status: number, code: unknown, req: Parameters<typeof explainedBy>[0], envelope: () => string[]): string | undefined {
  if (status >= 200 && status < 300) return undefined;
  if (status === 401 || status === 403) return `answered ${status}, but the key's scope is accepted there`;
  const why = explainedBy(req, status, code);
  if (!why) {
    const expected = req.explains.map((e) => `${e.status} ${e.code} (${e.why})`).join(' or ');
    return `answered ${status}${code ? ` ${code}` : ''} to an accepted key; expected 2xx${expected ? ` or ${expected}` : ''}`;
  }
  const problems = envelope();
  return problems.length ? `answered ${status} ${code} (${why.why}) outside the error envelope: ${problems.join('; ')}` : undefined;
}

/** A credential the endpoint does not accept: 403 permission_denied in the error envelope. */
export function refusedProblem(status: number, code: unknown, envelope: () => string[]): string | undefined {
  const problems = status === 403 ? envelope() : [];
  if (status === 403 && !problems.length && code === 'permission_denied') return undefined;
  return `answered ${status}${problems.length ? ` (${problems.join('; ')})` : ''}, expected 403 permission_denied`;
}
