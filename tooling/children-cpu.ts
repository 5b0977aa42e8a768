/**
 * Processor time of child processes, read from Linux's /proc. Also a command:
 * `tsx tooling/children-cpu.ts <command> [args…]` runs the command and leaves its processor time
 * in the file WEFT_CPU_SECONDS_FILE names; `npm test` runs each phase through it.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { runWhenMain } from './run-when-main';

let clockTicks: number | undefined;

/** The kernel's clock ticks per second, in which /proc counts processor time. */
export function ticksPerSecond(): number {
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
 * The machine's processor time so far, in clock ticks, busy and in all, from the first line of
 * /proc/stat (undefined without it): two readings give how busy the processors were between.
 */
export function machineCpuTicks(): { busy: number; total: number } | undefined {
  let line: string;
  try {
    line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  } catch {
    return undefined;
  }
  // cpu user nice system idle iowait irq softirq steal …: idle and iowait are the idle ones.
  const ticks = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (ticks.length < 8 || ticks.some((value) => !Number.isFinite(value))) return undefined;
  const total = ticks.reduce((sum, value) => sum + value, 0);
  return { busy: total - (ticks[3] ?? 0) - (ticks[4] ?? 0), total };
}

/** The variable naming the file in which {@link runCountingCpu} leaves its command's time. */
export const CPU_FILE_ENV = 'WEFT_CPU_SECONDS_FILE';

/**
 * Runs one command as this process's only child, with the terminal's streams, and writes the
 * processor seconds it and everything it waited for used to the file {@link CPU_FILE_ENV} names
 * (nothing where /proc does not count them). A process that starts several commands at once
 * cannot tell their times apart when more than one ends between two readings; one of these per
 * command can. Answers the command's exit status.
 */
export function runCountingCpu(command: string, args: readonly string[]): number {
  const result = spawnSync(command, args, { stdio: 'inherit' });
  const seconds = endedChildrenCpuSeconds();
  const file = process.env[CPU_FILE_ENV];
  if (file && seconds !== undefined) writeFileSync(file, String(seconds));
  return result.status ?? 1;
}

runWhenMain(import.meta.url, 'run the command', async () => {
  const [command, ...args] = process.argv.slice(2);
  if (command === undefined) throw new Error('give the command to run');
  process.exitCode = runCountingCpu(command, args);
});
