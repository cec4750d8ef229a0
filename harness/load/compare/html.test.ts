import { describe, expect, it } from 'vitest';
import { renderCompareHtml } from './html.ts';
import { compareReport } from './compare-report.test-helper.ts';
import { spreadLabels } from '../report/svg.ts';

interface Box {
  x0: number;
  x1: number;
  y0: number;
  y1: number;
  what: string;
}

const overlap = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * From a chart's SVG geometry: the box of each rule label (a bold 12 px glyph is at most 7.2 px
 * wide, its line 14 px high), of each dot, and of each horizontal rule (2 px high).
 */
function boxes(svg: string): { labels: Box[]; marks: Box[] } {
  const labels = [...svg.matchAll(/<text class="rule-label" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)<\/text>/g)].map(([, x, y, t]) => ({ x0: +x!, x1: +x! + t!.length * 7.2, y0: +y! - 11, y1: +y! + 3, what: t! }));
  const dots = [...svg.matchAll(/<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)"/g)].map(([, x, y, r]) => ({ x0: +x! - +r!, x1: +x! + +r!, y0: +y! - +r!, y1: +y! + +r!, what: `dot at ${x}` }));
  const rules = [...svg.matchAll(/<line x1="([\d.]+)" x2="([\d.]+)" y1="([\d.]+)" y2="\3" stroke="[^"]+" stroke-width="2"/g)].map(([, x1, x2, y]) => ({ x0: +x1!, x1: +x2!, y0: +y! - 1, y1: +y! + 1, what: `rule at y ${y}` }));
  return { labels, marks: [...dots, ...rules] };
}

describe('compare.html', () => {
  it('keeps every rule label clear of the others, of the dots and of the rules, though "no change", the median and the interval lie a few pixels apart', () => {
    const html = renderCompareHtml(compareReport());
    const svgs = html.match(/<svg class="chart"[\s\S]*?<\/svg>/g)!;
    expect(svgs.length).toBeGreaterThanOrEqual(4);
    let labelsSeen = 0;
    for (const svg of svgs) {
      const { labels, marks } = boxes(svg);
      labelsSeen += labels.length;
      for (const [i, a] of labels.entries()) {
        for (const b of labels.slice(i + 1)) expect(overlap(a, b), `${a.what} / ${b.what}`).toBe(false);
        for (const b of marks) expect(overlap(a, b), `${a.what} / ${b.what}`).toBe(false);
      }
    }
    expect(labelsSeen).toBeGreaterThanOrEqual(12);
  });

  it('spreads labels wanted at one height a line apart, inside the plot', () => {
    expect(spreadLabels([50, 50, 52], 10, 200)).toEqual([50, 66, 82]);
    // at the bottom they move up instead
    expect(spreadLabels([195, 198, 199], 10, 200)).toEqual([168, 184, 200]);
    expect(spreadLabels([50, 50], 10, 200, 14)).toEqual([50, 64]);
    expect(spreadLabels([20, 120], 10, 200)).toEqual([20, 120]);
  });
});
