/**
 * `npm test`: every test phase of tooling/test-phases.ts, stage by stage, stopping at the first
 * failure. Phases that run beside another have their output held back and printed whole when
 * each ends, so a log reads phase by phase; the first lane's lone phases print as they go. At
 * the end it prints how long each phase took and the processor time it used (where /proc counts
 * it), and what this run's figures make of CI's jobs, which run side by side: the wall time of a
 * full pull request (the longest job) and of one that changes only docs. Last come the lines that
 * say what failed in each failed phase, and why packing failed if it did, where a log's tail (all
 * CI keeps) shows them.
 *
 * Run: npm test. One or more phases: npm test -- test:unit build.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CPU_FILE_ENV, endedChildrenCpuSeconds, machineCpuTicks } from '../tooling/children-cpu';
import { failureLines } from '../tooling/failure-lines';
import { PACKED_DIR_ENV, packAllOnce } from '../tooling/packed-packages';
import {
  BESIDE_LANE_NICENESS,
  CI_JOBS,
  TEST_PHASES,
  TEST_STAGES,
  ciJobSeconds,
  type Lane,
  type TestPhase,
} from '../tooling/test-phases';

const root = path.resolve(__dirname, '..');
/**
 * Where the packages are packed once for every phase that checks tarballs (emptied first).
 * WEFT_TEST_PACKED_DIR moves it: tests/unit/test-phases.test.ts, which may run beside a real
 * `npm test` reading .cache/packed, packs into a temporary folder of its own.
 */
const PACKED_DIR = process.env.WEFT_TEST_PACKED_DIR || path.join(root, '.cache/packed');

interface Outcome {
  phase: TestPhase;
  seconds: number;
  /** Processor seconds of the phase's npm and all it waited for; undefined without /proc. */
  cpuSeconds: number | undefined;
  passed: boolean;
  /** What the phase printed, kept when it failed. */
  output?: string;
}

/** Runs a command and counts its processor time apart from the phases beside it. */
const COUNTING_RUNNER = path.join(root, 'tooling/children-cpu.ts');
/** The machine's processor time when the run began. */
const machineAtStart = machineCpuTicks();
/** Where each phase's processor time is left. */
const cpuFiles = mkdtempSync(path.join(tmpdir(), 'weft-test-cpu-'));

function runPhase(phase: TestPhase, holdOutput: boolean, niceness: number): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const cpuFile = path.join(cpuFiles, phase.script.replace(/\W/g, '-'));
    // Piped even when it prints as it goes, so that its failures can be told again at the end; a
    // terminal's colours are asked for, as the phase would see the terminal itself.
    const colours =
      process.stdout.isTTY && !('FORCE_COLOR' in process.env) ? { FORCE_COLOR: '1' } : {};
    const command = [
      process.execPath,
      '--import',
      'tsx',
      COUNTING_RUNNER,
      'npm',
      'run',
      phase.script,
    ];
    // Through nice(1), so that every process of the phase starts at that niceness (Windows has
    // no nice: there every phase runs at the same priority).
    const [file, ...args] =
      niceness === 0 || process.platform === 'win32'
        ? command
        : ['nice', '-n', String(niceness), ...command];
    const child = spawn(file!, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, ...colours, [CPU_FILE_ENV]: cpuFile },
    });
    const held: Buffer[] = [];
    const keep = (chunk: Buffer, stream: NodeJS.WriteStream): void => {
      held.push(chunk);
      if (!holdOutput) stream.write(chunk);
    };
    child.stdout.on('data', (chunk: Buffer) => keep(chunk, process.stdout));
    child.stderr.on('data', (chunk: Buffer) => keep(chunk, process.stderr));
    let finished = false;
    const finish = (passed: boolean): void => {
      // A child that cannot start reports 'error' and then 'close': its phase ends once.
      if (finished) return;
      finished = true;
      const seconds = (performance.now() - started) / 1000;
      const cpuSeconds = readCpuSeconds(cpuFile);
      const result = `===== ${phase.script}: ${passed ? 'passed' : 'FAILED'} in ${minutes(seconds)}\n`;
      // In one write: a phase printing as it goes writes to the same output, and would land
      // between the parts of separate writes.
      process.stdout.write(
        holdOutput
          ? Buffer.concat([
              Buffer.from(`\n===== ${phase.script} (ran beside another phase)\n`),
              ...held,
              Buffer.from(result),
            ])
          : result,
      );
      resolve({
        phase,
        seconds,
        cpuSeconds,
        passed,
        ...(passed ? {} : { output: Buffer.concat(held).toString('utf8') }),
      });
    };
    child.once('error', () => finish(false));
    // 'close', not 'exit': a child can exit before its last output has been read from the pipe.
    child.once('close', (code) => finish(code === 0));
  });
}

/** What packing the packages took: the whole run's processor time less the phases'. */
function packingNote(cpu: number, outcomes: readonly Outcome[]): string {
  let phases = 0;
  for (const { cpuSeconds } of outcomes) {
    if (cpuSeconds === undefined) return ', packing included';
    phases += cpuSeconds;
  }
  return `, ${minutes(Math.max(0, cpu - phases))} of it packing and starting the phases`;
}

/** The processor seconds a phase left in its file, if /proc counted them. */
function readCpuSeconds(file: string): number | undefined {
  try {
    const seconds = Number(readFileSync(file, 'utf8'));
    return Number.isFinite(seconds) ? seconds : undefined;
  } catch {
    return undefined;
  }
}

function minutes(seconds: number): string {
  return `${(seconds / 60).toFixed(1)} min`;
}

/** One stage of a run: its phases, how long it took, and the machine's processor ticks meanwhile. */
interface StageTime {
  scripts: string[];
  seconds: number;
  busyShare: number | undefined;
}

/** The share of the machine's processor time that was busy between two readings of /proc/stat. */
function busyShare(
  before: ReturnType<typeof machineCpuTicks>,
  after: ReturnType<typeof machineCpuTicks>,
): number | undefined {
  if (!before || !after || after.total <= before.total) return undefined;
  return (after.busy - before.busy) / (after.total - before.total);
}

function printSummary(outcomes: readonly Outcome[], stages: readonly StageTime[]): void {
  console.log('\nTest phases');
  console.table(
    outcomes.map(({ phase, seconds, cpuSeconds, passed }) => ({
      phase: phase.script,
      'CI job': phase.job,
      minutes: Number((seconds / 60).toFixed(1)),
      'processor minutes': cpuSeconds === undefined ? '' : Number((cpuSeconds / 60).toFixed(1)),
      result: passed ? 'passed' : 'FAILED',
    })),
  );
  const total = stages.reduce((sum, { seconds }) => sum + seconds, 0);
  console.log(`Whole run: ${minutes(total)}`);
  // A stage whose processors were not all busy could finish sooner with more of its work at once.
  stages.forEach(({ scripts, seconds, busyShare: share }, index) => {
    const busy =
      share === undefined ? '' : `, the machine's processors ${Math.round(100 * share)}% busy`;
    console.log(`  stage ${index + 1} (${scripts.join(', ')}): ${minutes(seconds)}${busy}`);
  });
  // Every phase and the packing, whose processes are all this one's children, ended by now.
  const cpu = endedChildrenCpuSeconds();
  if (cpu !== undefined) {
    console.log(
      `Processor time of the phases' own processes: ${minutes(cpu)}${packingNote(cpu, outcomes)} (the browsers and database servers they leave to the system are not counted)`,
    );
  }
  const busy = busyShare(machineAtStart, machineCpuTicks());
  if (busy !== undefined) {
    console.log(`The machine's processors were ${Math.round(100 * busy)}% busy over the run`);
  }
  for (const [label, docsOnly] of [
    ['a full pull request', false],
    ['a pull request that changes only docs', true],
  ] as const) {
    const [job, seconds] = ciJobSeconds(outcomes, docsOnly).sort(([, a], [, b]) => b - a)[0] ?? [
      'site',
      0,
    ];
    console.log(
      `CI, from this run's figures, for ${label}: about ${minutes(seconds)} after install (its longest job, "${CI_JOBS[job]}")`,
    );
  }
}

/**
 * What failed in each failed phase, told again after the summary, and why packing failed when it
 * did: no phase's output holds that, and the log's tail would otherwise end with no failure named.
 */
function printFailures(outcomes: readonly Outcome[], packingError: string | undefined): void {
  if (packingError !== undefined) {
    console.log(
      '\nWhat failed in packing the packages (before the tarball phases, none of which ran):',
    );
    console.log(packingError.replace(/^/gm, '  '));
  }
  for (const { phase, output } of outcomes) {
    if (output === undefined) continue;
    const lines = failureLines(output);
    console.log(`\nWhat failed in ${phase.script} (its whole output is above):`);
    console.log(lines.length > 0 ? lines.join('\n') : '  (no line names a failed test)');
  }
}

/** The stages with only the phases asked for (all when none is), empty steps, lanes and stages dropped. */
function selectStages(asked: readonly string[]): Lane[][] {
  const unknown = asked.filter((script) => !TEST_PHASES.some((p) => p.script === script));
  if (unknown.length > 0) {
    throw new Error(`npm test: no test phase named ${unknown.join(', ')}`);
  }
  const keep = (phase: TestPhase): boolean => asked.length === 0 || asked.includes(phase.script);
  return TEST_STAGES.map((lanes) =>
    lanes
      .map((lane) => lane.map((step) => step.filter(keep)).filter((step) => step.length > 0))
      .filter((lane) => lane.length > 0),
  ).filter((lanes) => lanes.length > 0);
}

async function main(): Promise<void> {
  const stages = selectStages(process.argv.slice(2));
  const outcomes: Outcome[] = [];
  const stageTimes: StageTime[] = [];
  let failed = false;
  /** Why packing failed, told again at the end. */
  let packingError: string | undefined;
  let packing: Promise<void> | undefined;
  const packOnce = (): Promise<void> =>
    (packing ??= (async () => {
      const started = performance.now();
      const tarballs = await packAllOnce(root, PACKED_DIR);
      process.env[PACKED_DIR_ENV] = PACKED_DIR;
      console.log(
        `Packed ${tarballs.length} packages once into ${path.relative(root, PACKED_DIR)} in ${minutes((performance.now() - started) / 1000)}`,
      );
    })());

  const runLane = async (lane: Lane, streams: boolean, niceness: number): Promise<void> => {
    for (const step of lane) {
      if (failed) return;
      if (step.some((phase) => phase.packed)) {
        try {
          await packOnce();
        } catch (error) {
          packingError ??= (error instanceof Error ? error.message : String(error)).trimEnd();
          console.error(`npm test: packing failed: ${packingError}`);
          failed = true;
          return;
        }
        // Another lane may have failed while the packages were being packed: start nothing then.
        if (failed) return;
      }
      const results = await Promise.all(
        step.map((phase) => runPhase(phase, !streams || step.length > 1, niceness)),
      );
      outcomes.push(...results);
      if (results.some(({ passed }) => !passed)) {
        failed = true;
        return;
      }
    }
  };

  for (const lanes of stages) {
    const started = performance.now();
    const ticks = machineCpuTicks();
    await Promise.all(
      lanes.map((lane, index) =>
        runLane(lane, index === 0, index === 0 ? 0 : BESIDE_LANE_NICENESS),
      ),
    );
    stageTimes.push({
      scripts: lanes.flat(2).map((phase) => phase.script),
      seconds: (performance.now() - started) / 1000,
      busyShare: busyShare(ticks, machineCpuTicks()),
    });
    if (failed) break;
  }
  const order = (outcome: Outcome): number => TEST_PHASES.indexOf(outcome.phase);
  const sorted = [...outcomes].sort((a, b) => order(a) - order(b));
  printSummary(sorted, stageTimes);
  printFailures(sorted, packingError);
  rmSync(cpuFiles, { recursive: true, force: true });
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
