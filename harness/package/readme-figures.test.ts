import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { figuresIn, quickDetection, README, tarballFigures, withFigures } from './readme-figures.ts';

// The README's figures about the kit are measured, not typed: each marked one must be what
// `npm run readme:figures` measures now (the install's take minutes: that script's --install).

describe('the README figures', () => {
  it('are read and written between their markers only', () => {
    const text = 'a <!-- figure:x -->1<!-- /figure --> b <!-- figure:y -->2<!-- /figure -->';
    expect(figuresIn(text)).toEqual(new Map([['x', '1'], ['y', '2']]));
    expect(withFigures(text, new Map([['x', '9']]))).toBe('a <!-- figure:x -->9<!-- /figure --> b <!-- figure:y -->2<!-- /figure -->');
  });

  it("the tarball's size and files and the plan's quick prediction are as measured now (else: npm run readme:figures)", async () => {
    const shown = figuresIn(await readFile(README, 'utf8'));
    const measured = new Map([...(await tarballFigures()), ...(await quickDetection())]);
    for (const [name, value] of measured) expect(shown.get(name), `${name}: run npm run readme:figures`).toBe(value);
    for (const name of ['install-mb', 'install-packages']) expect(shown.has(name), name).toBe(true);
  }, 120_000);
});
