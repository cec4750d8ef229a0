import { describe, expect, it } from 'vitest';
import { packRun } from './packing.ts';

// The last window's packing as data: which bin each waiting item goes to.

describe('packRun', () => {
  it('places the largest first, each in the bin with the most left, so a small one never takes the room a large one needs', () => {
    // Arrival order puts the small ones first; a first-come choice would give A's 20 to them and leave BIG nowhere.
    const placed = packRun([{ id: 's1', need: 6 }, { id: 's2', need: 6 }, { id: 'BIG', need: 20 }], new Map([['A', 20], ['B', 12]]));
    expect(Object.fromEntries(placed)).toEqual({ BIG: 'A', s1: 'B', s2: 'B' });
  });

  it('keeps an item where it was placed before while it still fits there', () => {
    const placed = packRun([{ id: 'x', need: 5, before: 'B' }], new Map([['A', 30], ['B', 6]]));
    expect(placed.get('x')).toBe('B');
    const moved = packRun([{ id: 'x', need: 7, before: 'B' }], new Map([['A', 30], ['B', 6]]));
    expect(moved.get('x')).toBe('A');
  });

  it('leaves out an item that fits in no bin (it is admitted by the room of the moment)', () => {
    const placed = packRun([{ id: 'a', need: 10 }, { id: 'b', need: 9 }], new Map([['A', 12]]));
    expect([...placed.keys()]).toEqual(['a']);
  });
});
