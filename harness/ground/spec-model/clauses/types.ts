/** How binding a clause is (below). */
export type Level = 'MUST' | 'SHOULD' | 'PROFILE';

/**
 * One normative statement of the spec.
 * - id: stable, uppercase, hyphenated, prefixed by area (AUTH-, SCOPE-, ERR-, IDEM-, PAGE-, RATE-,
 *   VER-, ACCT-, CAMP-, LEAD-, EMAIL-, ANLT-, LF-, WS-, USAGE-, KEY-, RES-, STATE-...). Never renamed.
 * - section: the spec section number it rests on ("4.1", "5", "2.2").
 * - text: the sentence (or table row) of the spec it rests on, quoted or closely paraphrased.
 * - level: MUST (the spec states it), SHOULD (a reasonable reading; failure warns),
 *   PROFILE (the spec says "not shown": the target's profile declares it).
 */
export interface Clause {
  id: string;
  section: string;
  text: string;
  level: Level;
}
