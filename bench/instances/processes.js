// What the instances benchmark reads of the processes on this machine (Linux /proc): the CPU time of
// a process and of PostgreSQL backends, the machine's busy and idle time, a process's peak RSS.
// Each is a counter read before and after a load; the difference is what the load cost.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Clock ticks per second of /proc's CPU times. */
const TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The CPU time (user + system, ms) a process has used, or 0 when it is gone. */
export function cpuMs(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the fields after the command's name, which is in parentheses and may hold spaces
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
  } catch {
    return 0;
  }
}

/**
 * The CPU time (ms) of the given PostgreSQL backends by pid (`pg_stat_activity`'s pids of one
 * database: other databases of a shared server are not ours to count).
 */
export function backendsCpu(pids) {
  return new Map(pids.map((pid) => [String(pid), cpuMs(pid)]));
}

/**
 * What the backends used between two `backendsCpu()` readings (ms): one that appeared meanwhile
 * counts from zero; one that ended takes its time with it, so the pools' connections, which live
 * for the whole run, are what this counts.
 */
export function backendsCpuBetween(before, after) {
  let total = 0;
  for (const [pid, ms] of after) total += ms - (before.get(pid) ?? 0);
  return total;
}

/** The machine's CPU time (ms, all cores): busy and idle (idle + iowait). */
export function machineCpu() {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0];
  const values = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (values[3] ?? 0) + (values[4] ?? 0);
  const all = values.slice(0, 8).reduce((a, b) => a + b, 0);
  return { busy: ((all - idle) * 1000) / TICKS, idle: (idle * 1000) / TICKS };
}

/** A process's peak resident memory so far (bytes; the kernel's VmHWM), or 0 when it is gone. */
export function peakRss(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    return Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch {
    return 0;
  }
}
