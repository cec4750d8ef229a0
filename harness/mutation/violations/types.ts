// Plausible violations, as data: for every MUST and PROFILE clause, the ways a real implementation
// would plausibly break it (the other method, state or half; the neighbouring scope; the boundary
// value; the other timezone; the framework's default). Each is either made by a mutant of the
// reference target, which the kill matrix shows some check of the clause killing at default, or
// named as a known gap with why, which the clause's row in the report shows.

export interface Violation {
  /** How an implementation would plausibly break the clause: one line, in the target's terms. */
  what: string;
  /** Mutants of the reference that make exactly this violation (ids in harness/mutation/catalog.ts). */
  mutants?: readonly string[];
  /** Why no mutant makes it, or why no check can see it from outside: a known gap. */
  gap?: string;
}

/** Clause id -> its plausible violations. */
export type ViolationCatalog = Readonly<Record<string, readonly Violation[]>>;
