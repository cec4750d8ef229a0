import { readdirSync, readFileSync } from 'node:fs';

// CPU time of a process on this machine, read from /proc (Linux), in microseconds: the steadiest
// figure a regression comparison has (notes on load noise: about twice as steady as throughput).
//
// Preferred: the sum over the process's threads of /proc/<pid>/task/<tid>/schedstat's first field
// (time on CPU, nanoseconds): a run of a few hundred requests costs tens of milliseconds of CPU,
// and /proc/<pid>/stat counts utime+stime in clock ticks (10 ms at the usual 100 Hz), too coarse
// to see 20 % of that. /proc/<pid>/stat is the fallback where schedstat is not compiled in; a
// thread that ended between two readings drops out of the schedstat sum, which Node's long-lived
// threads (main, libuv pool, V8 platform) do not do.

export interface CpuReading {
  us: number;
  source: 'schedstat' | 'stat' | 'metrics';
}

const TICK_US = 10_000; // USER_HZ is 100 on Linux for every architecture Node runs on

export function readCpu(pid: number): CpuReading {
  try {
    let ns = 0;
    for (const tid of readdirSync(`/proc/${pid}/task`)) {
      try {
        ns += Number(readFileSync(`/proc/${pid}/task/${tid}/schedstat`, 'utf8').split(' ')[0]);
      } catch {
        /* a thread that ended while we read */
      }
    }
    if (ns > 0 && Number.isFinite(ns)) return { us: ns / 1000, source: 'schedstat' };
  } catch {
    /* no task directory or no schedstat: fall back to the tick counts */
  }
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // the command name (field 2) may hold spaces and parentheses: count fields after the last ')'
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { us: (Number(fields[11]) + Number(fields[12])) * TICK_US, source: 'stat' }; // utime, stime (fields 14, 15)
}

/** Whether this machine can read a process's CPU time (Linux /proc). */
export function canReadCpu(pid: number): boolean {
  try {
    readCpu(pid);
    return true;
  } catch {
    return false;
  }
}

/** Where a comparison reads a target's CPU time: its process on this machine, or its metrics endpoint. */
export interface CpuProbe {
  /** what is read, for the report ("pid 1234", "http://host/metrics") */
  describe: string;
  read(): Promise<CpuReading>;
}

export function pidProbe(pid: number): CpuProbe {
  return { describe: `pid ${pid}`, read: async () => readCpu(pid) };
}

/**
 * The CPU time a Prometheus text endpoint reports (`process_cpu_seconds_total`, what prom-client
 * and most exporters expose), in µs. Coarser than schedstat: exporters round to their own clock.
 */
export function metricsProbe(url: string, fetchText: (url: string) => Promise<string> = defaultFetch): CpuProbe {
  return {
    describe: url,
    read: async () => ({ us: parseProcessCpuSeconds(await fetchText(url), url) * 1e6, source: 'metrics' }),
  };
}

async function defaultFetch(url: string): Promise<string> {
  const res = await fetch(url, { signal: AbortSignal.timeout(5000) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.text();
}

/** The value of process_cpu_seconds_total in a Prometheus text exposition (labels allowed). */
export function parseProcessCpuSeconds(text: string, url = 'the metrics endpoint'): number {
  for (const line of text.split('\n')) {
    const m = /^process_cpu_seconds_total(?:\{[^}]*\})?\s+([0-9.eE+-]+)(?:\s+\d+)?\s*$/.exec(line.trim());
    if (m && Number.isFinite(Number(m[1]))) return Number(m[1]);
  }
  throw new Error(`${url} shows no process_cpu_seconds_total`);
}
