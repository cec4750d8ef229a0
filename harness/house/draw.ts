// npm run architecture:draw — draws the rooms of harness/house/rooms.ts into docs/ARCHITECTURE.md,
// between the markers below, so the map is the land: harness/architecture.test.ts fails when the
// drawing differs from what this would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { REFERENCE_ENTRY, ROOMS } from './rooms.ts';

export const DRAWING_BEGIN = '<!-- house:begin: drawn from harness/house/rooms.ts by `npm run architecture:draw`; edit the rooms, not this -->';
export const DRAWING_END = '<!-- house:end -->';
const FLOOR = new Set(['ground', 'spec-model']);
const node = (room: string) => `r_${room.replace(/[^a-z0-9]/gi, '_')}`;

/** The drawing: the arrows between rooms above the ground floor (a Mermaid graph), then every row in full. */
export function drawHouse(): string {
  const names = [...ROOMS.map((r) => r.room), 'reference'];
  const nodes = names.map((n) => `  ${node(n)}["${n}"]`);
  const arrows = ROOMS.flatMap((r) => r.may.filter((m) => !FLOOR.has(m)).map((m) => `  ${node(r.room)} --> ${node(m)}`));
  const onFloor = ROOMS.filter((r) => r.may.some((m) => FLOOR.has(m))).map((r) => r.room);
  const rows = ROOMS.map((r) => `| ${r.room} | ${r.prefixes.map((p) => `\`${p}\``).join(', ')} | ${r.may.join(', ') || '(nothing)'} |`);
  return [
    DRAWING_BEGIN,
    '```mermaid',
    'flowchart TD',
    ...nodes,
    ...arrows,
    '```',
    '',
    `Arrows point at what a room may import. Not drawn: the ground floor (ground, spec-model), which ${onFloor.length} rooms may import, as their rows say; \`reference\` is the reference target's entry (${REFERENCE_ENTRY.map((e) => `\`${e}\``).join(', ')}).`,
    '',
    '| room | its files | may import |',
    '|---|---|---|',
    ...rows,
    DRAWING_END,
  ].join('\n');
}

/** The document with its drawing replaced by `drawing`; throws when the markers are missing. */
export function withDrawing(doc: string, drawing: string): string {
  const a = doc.indexOf(DRAWING_BEGIN);
  const b = doc.indexOf(DRAWING_END);
  if (a < 0 || b < a) throw new Error(`the document has no ${DRAWING_BEGIN} ... ${DRAWING_END} markers`);
  return doc.slice(0, a) + drawing + doc.slice(b + DRAWING_END.length);
}

export const ARCHITECTURE_DOC = fileURLToPath(new URL('../../docs/ARCHITECTURE.md', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(ARCHITECTURE_DOC, withDrawing(readFileSync(ARCHITECTURE_DOC, 'utf8'), drawHouse()));
  process.stdout.write(`drew ${ROOMS.length} rooms into ${ARCHITECTURE_DOC}\n`);
}
