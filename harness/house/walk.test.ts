import { describe, expect, it } from 'vitest';
import { countStays, floorOf, roomOf } from './walk.ts';

describe('the walk of a parameter between rooms', () => {
  it('places a file in its room (the reference is one) and a room on a floor above all it may import', () => {
    expect(roomOf('harness/conformance/run.ts')).toBe('conformance');
    expect(roomOf('harness/conformance/conformance.run.ts')).toBe('worker');
    expect(roomOf('harness/reference/http/app.ts')).toBe('reference');
    expect(floorOf('ground')).toBe(floorOf('spec-model') + 1);
    expect(floorOf('conformance')).toBeGreaterThan(floorOf('plan'));
    expect(floorOf('plan')).toBeGreaterThan(floorOf('ground'));
  });

  it('counts a move where the room changes, and a climb where it rises', () => {
    const at = (room: string) => ({ room, file: `${room}.ts`, fn: 'f' });
    const w = countStays([at('conformance'), at('conformance'), at('plan'), at('ground'), at('plan'), at('conformance'), at('report')]);
    // conformance -> plan -> ground -> plan (up) -> conformance (up) -> report
    expect(w.moves).toBe(5);
    expect(w.climbs).toBe(2);
  });
});
