import { encode, newHistogram, percentile, record, type Histogram } from '../report/histogram.ts';
import type { EndpointStats, TimelinePoint } from '../report/types.ts';
import type { Shot } from './open-model.ts';

// Folds completed requests into what load.json holds: corrected and service histograms overall
// and per endpoint, status counts, per-flow counts, and a per-second timeline. Memory stays
// bounded: the timeline keeps raw samples only for the second in progress (completions arrive
// in time order, so a second is final once a later one begins).

interface Pair {
  corrected: Histogram;
  service: Histogram;
}
const pair = (): Pair => ({ corrected: newHistogram(), service: newHistogram() });

export interface ShotMeta {
  label: string;
  flow: string;
}

export class Collector {
  readonly all = pair();
  private endpoints = new Map<string, Pair & { count: number; status: Record<string, number> }>();
  readonly status: Record<string, number> = {};
  readonly flows: Record<string, { count: number; errors: number }> = {};
  completed = 0;
  late = 0;
  errors = 0;
  private points: TimelinePoint[] = [];
  private second = -1;
  private samples: number[] = [];
  private current?: TimelinePoint;

  /** `intendedPerSecond`: the schedule's rate, for the timeline's intended line. */
  constructor(private readonly intendedPerSecond: (second: number) => number) {}

  add(shot: Shot, meta: ShotMeta): void {
    const correctedUs = (shot.done - shot.intended) * 1000;
    const serviceUs = (shot.done - shot.sent) * 1000;
    record(this.all.corrected, correctedUs);
    record(this.all.service, serviceUs);
    let ep = this.endpoints.get(meta.label);
    if (!ep) this.endpoints.set(meta.label, (ep = { ...pair(), count: 0, status: {} }));
    record(ep.corrected, correctedUs);
    record(ep.service, serviceUs);
    ep.count++;
    const s = String(shot.status);
    ep.status[s] = (ep.status[s] ?? 0) + 1;
    this.status[s] = (this.status[s] ?? 0) + 1;
    const fl = (this.flows[meta.flow] ??= { count: 0, errors: 0 });
    fl.count++;
    const failed = shot.status < 200 || shot.status > 299;
    if (failed) {
      fl.errors++;
      this.errors++;
    }
    this.completed++;
    if (shot.late) this.late++;
    this.tick(shot, correctedUs);
  }

  private tick(shot: Shot, correctedUs: number): void {
    const sec = Math.max(0, Math.floor(shot.done / 1000));
    while (sec > this.second) this.roll();
    const p = this.current!;
    p.achieved++;
    if (shot.status === 429) p.s429++;
    if (shot.status >= 500) p.s5xx++;
    this.samples.push(correctedUs);
  }

  private roll(): void {
    this.closeSecond();
    this.second++;
    this.current = { t: this.second * 1000, intended: this.intendedPerSecond(this.second), achieved: 0, p50: 0, p99: 0, s429: 0, s5xx: 0 };
    this.points.push(this.current);
  }

  private closeSecond(): void {
    if (!this.current || this.samples.length === 0) return;
    const sorted = this.samples.sort((a, b) => a - b);
    const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
    this.current.p50 = Math.round(at(0.5));
    this.current.p99 = Math.round(at(0.99));
    this.samples = [];
  }

  /** The timeline up to `untilMs`, seconds without completions included. */
  timeline(untilMs: number): TimelinePoint[] {
    this.closeSecond();
    while ((this.second + 1) * 1000 < untilMs) this.roll();
    return this.points;
  }

  endpointStats(): EndpointStats[] {
    return [...this.endpoints.entries()]
      .sort((a, b) => b[1].count - a[1].count)
      .map(([label, e]) => ({ label, count: e.count, status: e.status, corrected: encode(e.corrected), service: encode(e.service) }));
  }

  /** p50 and p99 so far, in ms, for progress lines. */
  soFar(): { p50: number; p99: number } {
    return { p50: percentile(this.all.corrected, 50) / 1000, p99: percentile(this.all.corrected, 99) / 1000 };
  }
}
