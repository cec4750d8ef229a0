import { describe, expect, it } from 'vitest';
import { countByFolder, countStays, floorOf, folderFloorOf, folderOf, roomOf } from './walk.ts';

describe('the walk of a parameter between rooms', () => {
  it('places a file in its room (the reference is one) and a room on a floor above all it may import', () => {
    expect(roomOf('harness/conformance/run.ts')).toBe('conformance');
    expect(roomOf('harness/worker/conformance.run.ts')).toBe('worker');
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

  it('counts again at folder grain: the rows of one folder are one room, on a floor above the folders they may import', () => {
    expect(folderOf('harness/worker/conformance.run.ts')).toBe('harness/worker/');
    expect(folderOf('harness/ground/spec-model/identity.ts')).toBe('harness/ground/');
    expect(folderOf('harness/load/generator/api.ts')).toBe('harness/load/');
    expect(folderOf('suites/checks/index.ts')).toBe('suites/');
    expect(folderFloorOf('harness/conformance/')).toBeGreaterThan(folderFloorOf('harness/plan/'));
    expect(folderFloorOf('harness/plan/')).toBe(folderFloorOf('harness/ground/') + 1);
    const at = (file: string) => ({ room: roomOf(file)!, file, fn: 'f' });
    // spec-model -> ground is a move between rows, not between folders (the worker is a folder of its own)
    const stays = [at('harness/worker/conformance.run.ts'), at('harness/conformance/run.ts'), at('harness/ground/spec-model/identity.ts'), at('harness/ground/units.ts'), at('harness/conformance/run.ts')];
    expect(countStays(stays)).toMatchObject({ moves: 4, climbs: 3 });
    expect(countByFolder(stays)).toMatchObject({ moves: 3, climbs: 2 });
  });
});
