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
  source: 'schedstat' | 'stat';
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
