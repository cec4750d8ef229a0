// Mutants of the resource rules of parts 2 to 4 (issue 4): mutant id -> the clause ids it breaks.
// Kept apart from catalog.ts so the people writing resource mutants edit only this file.
export const MUTANT_CLAUSES_RESOURCES: Record<string, string[]> = {};
