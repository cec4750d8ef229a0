// Seeds: one per run (printed), one per check derived from it, so a failure replays with
// `--seed <run seed>` and the check's own seed is shown next to its failure.
export function checkSeed(runSeed: number, checkId: string): number {
  let h = 2166136261 ^ runSeed;
  for (let i = 0; i < checkId.length; i++) h = Math.imul(h ^ checkId.charCodeAt(i), 16777619);
  return h >>> 0;
}

export function newRunSeed(): number {
  return Math.floor(Math.random() * 2 ** 31);
}

/** A seeded uniform generator in [0, 1) (mulberry32): a bootstrap replays with its seed. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
