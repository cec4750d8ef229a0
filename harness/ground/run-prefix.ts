import { randomBytes } from 'node:crypto';

// The prefix a conformance or load run gives every name it creates on a target: `oc`, six hex
// digits, a dash. Made here and read here: the clean-up, `sweep` and the failure groups know a
// run's things by it.

const SOURCE = 'oc[0-9a-f]{6}-';

/** Exactly a run prefix. */
export const RUN_PREFIX = new RegExp(`^${SOURCE}$`);
/** A name that starts with some run's prefix. */
export const RUN_NAMED = new RegExp(`^${SOURCE}`);
/** A run's generated name anywhere in a text (its prefix and what follows). */
export const RUN_NAMES_IN_TEXT = new RegExp(`\\b${SOURCE}[\\w-]*`, 'g');

export function newRunPrefix(): string {
  return `oc${randomBytes(3).toString('hex')}-`;
}
