import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let clockTicks: number | undefined;

/** The kernel's clock ticks per second, in which /proc counts processor time. */
function ticksPerSecond(): number {
  if (clockTicks === undefined) {
    try {
      clockTicks = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    } catch {
      clockTicks = 100;
    }
  }
  return clockTicks;
}

/**
 * The processor time, in seconds, of this process's children that have ended, together with
 * everything each of them waited for (Linux counts a child's time into its parent when the
 * parent reaps it): read from /proc, so undefined on systems without it.
 */
export function endedChildrenCpuSeconds(): number | undefined {
  let stat: string;
  try {
    stat = readFileSync('/proc/self/stat', 'utf8');
  } catch {
    return undefined;
  }
  // After the command name, which may hold spaces, come the fields from the third on; the
  // children's user and system times are the 16th and 17th (proc(5)).
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[13]) + Number(fields[14]);
  return Number.isFinite(ticks) ? ticks / ticksPerSecond() : undefined;
}

/**
 * Shares the ended children's processor time out among the jobs that started them: each call
 * answers what was added since the call before, which is the time of the child that has just
 * ended when it is called as each one ends (two that end at the same instant share one figure).
 */
export function cpuShares(): () => number | undefined {
  let last = endedChildrenCpuSeconds();
  return () => {
    const now = endedChildrenCpuSeconds();
    if (now === undefined || last === undefined) return undefined;
    const share = now - last;
    last = now;
    return share;
  };
}
