import { KitError } from './errors.ts';

// Flag values of load runs: durations and rates as people write them.

/** "2m", "90s", "1h", "500ms", "45" (seconds) -> ms */
export function parseDuration(text: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text.trim());
  if (!m) throw new KitError(`${flag} takes a duration such as 30s, 2m or 1h, not "${text}"`);
  const n = Number(m[1]);
  return n * { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
}

/** "200/s", "200", "6000/m" -> requests per second */
export function parseRate(text: string): number {
  const m = /^(\d+(?:\.\d+)?)(?:\/(s|m|min))?$/.exec(text.trim());
  if (!m || !(Number(m[1]) > 0)) throw new KitError(`--rate takes requests per second such as 200/s (or 6000/m), not "${text}"`);
  return m[2] && m[2] !== 's' ? Number(m[1]) / 60 : Number(m[1]);
}
