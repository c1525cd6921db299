// For the project's own tests: the peak memory of a process and its descendants (a run's CLI, its
// vitest workers), sampled from /proc (Linux). Elsewhere `available` is false and tests skip.
import { existsSync, readFileSync } from 'node:fs';

export const available = existsSync('/proc/self/status') && existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** Resident memory of `pid` in bytes (0 when it is gone). */
function rss(pid: number): number {
  try {
    const line = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return line ? Number(line[1]) * 1024 : 0;
  } catch {
    return 0;
  }
}

/** `pid` and every process below it. */
function tree(pid: number): number[] {
  const found = [pid];
  for (let i = 0; i < found.length; i++) {
    const p = found[i]!;
    let tasks: string[] = [];
    try {
      tasks = readFileSync(`/proc/${p}/task/${p}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    } catch {
      continue;
    }
    for (const child of tasks) found.push(Number(child));
  }
  return found;
}

/** Samples the tree under `pid` every `everyMs` until stop() is called: the highest sum of resident memory seen, in bytes. */
export function watchTreeMemory(pid: number, everyMs = 100): { stop(): number } {
  let peak = 0;
  const sample = () => {
    peak = Math.max(
      peak,
      tree(pid).reduce((sum, p) => sum + rss(p), 0),
    );
  };
  sample();
  const timer = setInterval(sample, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return peak;
    },
  };
}
