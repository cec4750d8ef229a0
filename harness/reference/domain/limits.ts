// Limits the spec leaves "not shown" that are not switchable choices: one value each, read by the
// handler that enforces it and by the profile the reference declares (choices.ts).

/** The most leads POST /v1/campaigns takes in its `leads` list (8: "the size limit ... not shown"). */
export const MAX_LEADS_ON_CREATE = 10_000;
