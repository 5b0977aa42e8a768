/**
 * `npm test`: every test phase of tooling/test-phases.ts, step by step, stopping at the first
 * failure. Phases of one step run at the same time with their output held back and printed
 * whole when each ends, so a log reads phase by phase. At the end it prints how long each phase
 * took, and what this run's figures make of CI's jobs, which run side by side: the wall time of a
 * full pull request (the longest job) and of one that changes only docs.
 *
 * Run: npm test. One or more phases: npm test -- test:unit build.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { PACKED_DIR_ENV, packAllOnce } from '../tooling/packed-packages';
import { CI_JOBS, TEST_STEPS, type CiJob, type TestPhase } from '../tooling/test-phases';

const root = path.resolve(__dirname, '..');
/** Where the packages are packed once for every phase that checks tarballs. */
const PACKED_DIR = path.join(root, '.cache/packed');

interface Outcome {
  phase: TestPhase;
  seconds: number;
  passed: boolean;
}

function runPhase(phase: TestPhase, holdOutput: boolean): Promise<Outcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', phase.script], {
      stdio: holdOutput ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    const held: Buffer[] = [];
    child.stdout?.on('data', (chunk: Buffer) => held.push(chunk));
    child.stderr?.on('data', (chunk: Buffer) => held.push(chunk));
    const finish = (passed: boolean): void => {
      const seconds = (performance.now() - started) / 1000;
      if (holdOutput) {
        process.stdout.write(`\n===== ${phase.script} (ran beside another phase)\n`);
        process.stdout.write(Buffer.concat(held));
      }
      console.log(`===== ${phase.script}: ${passed ? 'passed' : 'FAILED'} in ${minutes(seconds)}`);
      resolve({ phase, seconds, passed });
    };
    child.once('error', () => finish(false));
    child.once('exit', (code) => finish(code === 0));
  });
}

function minutes(seconds: number): string {
  return `${(seconds / 60).toFixed(1)} min`;
}

function printSummary(outcomes: readonly Outcome[], stepSeconds: readonly number[]): void {
  console.log('\nTest phases');
  console.table(
    outcomes.map(({ phase, seconds, passed }) => ({
      phase: phase.script,
      'CI job': phase.job,
      minutes: Number((seconds / 60).toFixed(1)),
      result: passed ? 'passed' : 'FAILED',
    })),
  );
  const total = stepSeconds.reduce((sum, seconds) => sum + seconds, 0);
  console.log(`Whole run: ${minutes(total)}`);
  const jobSeconds = (docsOnly: boolean): [CiJob, number][] =>
    (Object.keys(CI_JOBS) as CiJob[]).map((job) => [
      job,
      outcomes
        .filter(({ phase }) => phase.job === job && (!docsOnly || phase.docs))
        .reduce((sum, { seconds }) => sum + seconds, 0),
    ]);
  for (const [label, docsOnly] of [
    ['a full pull request', false],
    ['a pull request that changes only docs', true],
  ] as const) {
    const [job, seconds] = jobSeconds(docsOnly).sort(([, a], [, b]) => b - a)[0] ?? ['site', 0];
    console.log(
      `CI, from this run's figures, for ${label}: about ${minutes(seconds)} after install (its longest job, "${CI_JOBS[job]}")`,
    );
  }
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2);
  const steps = TEST_STEPS.map((step) =>
    step.filter((phase) => asked.length === 0 || asked.includes(phase.script)),
  ).filter((step) => step.length > 0);
  const unknown = asked.filter((script) => !TEST_STEPS.flat().some((p) => p.script === script));
  if (unknown.length > 0) {
    throw new Error(`npm test: no test phase named ${unknown.join(', ')}`);
  }
  const outcomes: Outcome[] = [];
  const stepSeconds: number[] = [];
  let packed = false;
  for (const step of steps) {
    if (!packed && step.some((phase) => phase.packed)) {
      const packing = performance.now();
      const tarballs = await packAllOnce(root, PACKED_DIR);
      process.env[PACKED_DIR_ENV] = PACKED_DIR;
      packed = true;
      console.log(
        `Packed ${tarballs.length} packages once into ${path.relative(root, PACKED_DIR)} in ${minutes((performance.now() - packing) / 1000)}`,
      );
    }
    const started = performance.now();
    const results = await Promise.all(step.map((phase) => runPhase(phase, step.length > 1)));
    stepSeconds.push((performance.now() - started) / 1000);
    outcomes.push(...results);
    if (results.some(({ passed }) => !passed)) {
      printSummary(outcomes, stepSeconds);
      process.exitCode = 1;
      return;
    }
  }
  printSummary(outcomes, stepSeconds);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
