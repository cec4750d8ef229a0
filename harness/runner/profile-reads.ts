import type { Profile } from '../ground/profile-schema.ts';

// A check's view of the profile: read-only, and recording every value it reads under the
// sections that hold what the spec leaves "not shown" (names, declarations, operations; no
// secret lives there). When the check fails, its message names the profile values it rested
// on: a correct target judged against a wrong declaration then shows where to look.
// The runner keeps its own profile a plain object; only ctx.profile is this view.

const RECORDED: ReadonlySet<string> = new Set(['names', 'declarations', 'operations']);
/** How many reads a failure message lists before "and N more". */
export const READS_SHOWN = 6;

export interface ProfileReads {
  /** The read-only, recording view handed to the check. */
  readonly profile: Profile;
  /** Dotted paths of the values read, first read first, with their values ("names.list.cursor" -> "cursor"). */
  reads(): [path: string, value: unknown][];
}

/** `root`: the profile itself; a path: under a recorded section; `silent`: read-only, not recorded (inside an array read whole). */
type Where = 'root' | 'silent' | readonly string[];

export function recordingProfile(profile: Profile): ProfileReads {
  const reads = new Map<string, unknown>();
  const views = new WeakMap<object, object>();
  const view = (node: object, where: Where): object => {
    // One view per object (the profile is a tree: an object is reached by one path), so views compare equal.
    const known = views.get(node);
    if (known) return known;
    const proxy = new Proxy(node, {
      get(target, key, receiver) {
        const value = Reflect.get(target, key, receiver);
        // A property that may never change must be given as it is (a proxy invariant).
        const own = Reflect.getOwnPropertyDescriptor(target, key);
        if (typeof key !== 'string' || (own && !own.configurable && !own.writable)) return value;
        const at: Where = where === 'silent' ? 'silent' : where === 'root' ? (RECORDED.has(key) ? [key] : 'silent') : [...where, key];
        if (Array.isArray(value)) {
          // An array is one value: recorded whole, its elements not one by one.
          if (at !== 'silent') reads.set(at.join('.'), value);
          return view(value, 'silent');
        }
        if (value !== null && typeof value === 'object') return view(value, at);
        if (at !== 'silent' && value !== undefined && typeof value !== 'function') reads.set(at.join('.'), value);
        return value;
      },
      set: refuse,
      defineProperty: refuse,
      deleteProperty: refuse,
      setPrototypeOf: refuse,
    });
    views.set(node, proxy);
    return proxy;
  };
  return { profile: view(profile, 'root') as Profile, reads: () => [...reads.entries()] };
}

function refuse(): never {
  throw new TypeError('a check may not change the profile (ctx.profile is read-only)');
}

/** "; the profile declares names.list.cursor = \"cursor\", ... and 2 more" (empty when nothing was read). */
export function readsClause(reads: readonly [string, unknown][], max = READS_SHOWN): string {
  if (!reads.length) return '';
  const shown = reads.slice(0, max).map(([path, value]) => `${path} = ${shorten(JSON.stringify(value) ?? String(value))}`);
  const more = reads.length > max ? ` and ${reads.length - max} more` : '';
  return `; the profile declares ${shown.join(', ')}${more}`;
}

function shorten(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** A failure message without its readsClause (grouping failures by cause: checks reading different profile values may share one). */
export function withoutProfileReads(message: string): string {
  return message.replace(/; the profile declares .*?(?= \(check seed \d+, run seed \d+\)$|$)/, '');
}
