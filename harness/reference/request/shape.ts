// Answers of referenced operations whose shape the spec does not give: the handler builds the
// logical result ({ id, secret, ... }) and the chosen shape places each value at its dotted path.
import type { Choices, ReferencedOp } from '../switches/choices.ts';

/** The resource of a referenced answer at the chosen `result.item` path, or as the body itself. */
export function shapeItem(choices: Choices, op: ReferencedOp, item: unknown): unknown {
  const path = choices.operations[op].result?.item;
  return path === undefined ? item : shapeResult(choices, op, { item });
}

export function shapeResult(choices: Choices, op: ReferencedOp, logical: Record<string, unknown>): Record<string, unknown> {
  const paths = choices.operations[op].result ?? {};
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(logical)) {
    const parts = (paths[name] ?? name).split('.');
    let cur = out;
    for (const p of parts.slice(0, -1)) cur = (cur[p] ??= {}) as Record<string, unknown>;
    cur[parts[parts.length - 1]!] = value;
  }
  return out;
}
