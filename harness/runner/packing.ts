// Which workspace each waiting check is to run in, so that what the run still has to send fits
// the room its workspaces have left over the whole run. Checks are placed largest first, each in
// the workspace with the most left (the run's requests end evenly spread): a small check placed
// after them never takes the room a large one needs, which a first-come choice by the room of the
// moment does once the last window's room comes back a few requests at a time.

export interface Packed<W> {
  id: string;
  need: number;
  /** Where it was placed before: it stays there while it still fits (the plan moves as little as it can). */
  before?: W;
}

/** Places each item (largest first) in a bin with room for it; an item that fits nowhere is left out of the answer. `left`: what each bin has over once they are placed (filled in). */
export function packRun<W>(items: readonly Packed<W>[], room: ReadonlyMap<W, number>, left = new Map<W, number>()): Map<string, W> {
  for (const [bin, n] of room) left.set(bin, n);
  const placed = new Map<string, W>();
  for (const item of [...items].sort((a, b) => b.need - a.need)) {
    const keep = item.before !== undefined && (left.get(item.before) ?? -1) >= item.need ? item.before : undefined;
    const bin = keep ?? roomiest(left, item.need);
    if (bin === undefined) continue;
    left.set(bin, left.get(bin)! - item.need);
    placed.set(item.id, bin);
  }
  return placed;
}

/** The bin with the most left, if that is at least `need`. */
function roomiest<W>(left: ReadonlyMap<W, number>, need: number): W | undefined {
  let best: W | undefined;
  for (const [bin, n] of left) if (n >= need && (best === undefined || n > left.get(best)!)) best = bin;
  return best;
}
