/**
 * Runs the packages' tarball tests that run code (`test:packages`, less the static publish checks)
 * and a generated project's tests (tests/scaffold/clone.test.ts) again on each Node.js major in EXTRA_TESTED_NODE_MAJORS. The
 * binaries are the `node-<platform>-<arch>` package from the npm registry, installed once into
 * .cache/node-versions/<major> and put first on PATH, so npm, vitest and every `node` the tests
 * start are that version. The tests check they run on it (EXPECTED_NODE_MAJOR_ENV).
 *
 * Run: npm run test:node-versions (part of npm test). One major: npm run test:node-versions -- 24
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { isBuildFresh } from '../packages/build-freshness';
import { runWhenMain } from '../tooling/run-when-main';
import {
  EXPECTED_NODE_MAJOR_ENV,
  EXTRA_TESTED_NODE_MAJORS,
  installNode,
  versionOf,
} from '../tooling/node-versions';

const root = path.resolve(__dirname, '..');
const MINUTE = 60_000;
/** Each suite's deadline on one Node version: about twice what a loaded 2-core machine takes. */
const SUITE_TIMEOUT_MS = 30 * MINUTE;

/**
 * Runs a command to completion with a deadline, its output held back and printed whole when it
 * ends (the majors run side by side); resolves with whether it passed. Past the deadline the
 * command's whole process group is killed (vitest and the npm installs it started).
 */
export function runHeldBack(
  title: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = SUITE_TIMEOUT_MS,
): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn(command, args, {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    const output: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    const deadline = setTimeout(() => {
      output.push(Buffer.from(`\nno result within ${timeoutMs / MINUTE} min\n`));
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, timeoutMs);
    const finish = (passed: boolean): void => {
      clearTimeout(deadline);
      process.stdout.write(`\n=== ${title}\n${Buffer.concat(output).toString()}`);
      resolve(passed);
    };
    child.once('error', () => finish(false));
    child.once('close', (code) => finish(code === 0));
  });
}

/** The workspace packages whose build is missing or older than their sources, built once. */
async function buildStalePackages(): Promise<void> {
  const names = readdirSync(path.join(root, 'packages'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
  const stale: string[] = [];
  for (const name of names) {
    if (!isBuildFresh(path.join(root, 'packages', name))) stale.push(name);
  }
  if (stale.length === 0) return;
  console.log(`Building ${stale.join(', ')} once, before the majors pack them side by side`);
  execFileSync('npm', ['run', 'build', ...stale.flatMap((name) => ['-w', `packages/${name}`])], {
    cwd: root,
    stdio: 'inherit',
  });
}

/** A suite run again on each major: its name in the output and the npx arguments that run it. */
export interface MajorSuite {
  name: string;
  args: string[];
}

/** The suites each major runs. */
export const MAJOR_SUITES: readonly MajorSuite[] = [
  {
    name: 'test:packages',
    args: [
      'vitest',
      'run',
      '--config',
      'vitest.packages.config.ts',
      // Reads manifests and type resolution (publint, attw): the same answer on every Node.
      '--exclude',
      'tests/pack/publish-checks.test.ts',
      // Rebuilds the packages' dist/ in the clone, which the majors beside it are packing.
      '--exclude',
      'tests/pack/mcp-docs-clone-route.test.ts',
    ],
  },
  {
    name: 'generated project (tests/scaffold/clone.test.ts)',
    args: [
      'vitest',
      'run',
      '--config',
      'vitest.scaffold.config.ts',
      'tests/scaffold/clone.test.ts',
    ],
  },
];

/**
 * The environment of a major's suites: its binary first on PATH, the major they must see, and
 * its own headers for node-gyp. A native addon that finds no prebuilt binary (better-sqlite3,
 * whose prebuilds come from GitHub) is compiled on install, against the headers `nodedir` names;
 * npm's configuration may name the machine's own Node.js there, whose module version no other
 * major loads. The `node-<platform>-<arch>` package ships the headers of its version beside bin/.
 */
export function environmentFor(
  major: number,
  bin: string,
  env: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  return {
    ...env,
    PATH: `${bin}${path.delimiter}${env.PATH ?? ''}`,
    npm_config_nodedir: path.dirname(bin),
    // Without optimisation: what a major's run shows is that the addon builds against its
    // headers and loads, and better-sqlite3's SQLite builds at -O0 in a third of -O3's processor
    // time (the compiler keeps the last -O it is given, and these come after the addon's own).
    CFLAGS: '-O0',
    CXXFLAGS: '-O0',
    [EXPECTED_NODE_MAJOR_ENV]: String(major),
  };
}

/** How many majors run at a time: as many as the machine has cores, at most one per major. */
export const laneCount = (majors: number, cores = availableParallelism()): number =>
  Math.max(1, Math.min(cores, majors));

/** The suites on one major; resolves with the ones that failed. */
async function testOn(major: number): Promise<string[]> {
  const bin = installNode(major);
  const env = environmentFor(major, bin);
  const version = versionOf(path.join(bin, 'node'));
  const failed: string[] = [];
  for (const suite of MAJOR_SUITES) {
    if (!(await runHeldBack(`Node.js ${version}: ${suite.name}`, 'npx', suite.args, env))) {
      failed.push(`Node ${major}: ${suite.name}`);
    }
  }
  return failed;
}

/**
 * The majors run as many at a time as the machine has cores: their suites mostly wait on npm
 * and child processes, and each works in temporary folders of its own.
 */
async function main(): Promise<void> {
  const asked = process.argv.slice(2).map(Number);
  const majors = asked.length > 0 ? asked : [...EXTRA_TESTED_NODE_MAJORS];
  // Installed one after the other: each npm install prints its own progress.
  for (const major of majors) installNode(major);
  await buildStalePackages();
  const failed: string[] = [];
  const waiting = [...majors];
  const lanes = Array.from({ length: laneCount(majors.length) }, async () => {
    for (let major = waiting.shift(); major !== undefined; major = waiting.shift()) {
      failed.push(...(await testOn(major)));
    }
  });
  await Promise.all(lanes);
  if (failed.length > 0) {
    console.error(`\nFailed:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
}

runWhenMain(import.meta.url, 'run the tests on other Node.js versions', main);
