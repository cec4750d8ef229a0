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
