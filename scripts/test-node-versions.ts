/**
 * Runs the packages' tarball tests (`test:packages`) and a generated project's tests
 * (tests/scaffold/clone.test.ts) again on each Node.js major in EXTRA_TESTED_NODE_MAJORS. The
 * binaries are the `node` package from the npm registry, installed once into
 * .cache/node-versions/<major> and put first on PATH, so npm, vitest and every `node` the tests
 * start are that version. The tests check they run on it (EXPECTED_NODE_MAJOR_ENV).
 *
 * Run: npm run test:node-versions (part of npm test). One major: npm run test:node-versions -- 24
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import {
  EXPECTED_NODE_MAJOR_ENV,
  EXTRA_TESTED_NODE_MAJORS,
  installNode,
  versionOf,
} from './node-versions';

const root = path.resolve(__dirname, '..');
const MINUTE = 60_000;
/** Each suite's deadline on one Node version: about twice what a loaded 2-core machine takes. */
const SUITE_TIMEOUT_MS = 30 * MINUTE;

/** Runs a command to completion with a deadline; resolves with whether it passed. */
function run(args: string[], env: NodeJS.ProcessEnv): Promise<boolean> {
  return new Promise((resolve) => {
    const child = spawn('npx', args, { cwd: root, env, stdio: 'inherit', detached: true });
    const deadline = setTimeout(() => {
      console.error(`npx ${args.join(' ')}: no result within ${SUITE_TIMEOUT_MS / MINUTE} min`);
      // The whole group: vitest and the npm installs it started.
      if (child.pid) process.kill(-child.pid, 'SIGKILL');
    }, SUITE_TIMEOUT_MS);
    child.once('error', () => {
      clearTimeout(deadline);
      resolve(false);
    });
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve(code === 0);
    });
  });
}

async function main(): Promise<void> {
  const asked = process.argv.slice(2).map(Number);
  const majors = asked.length > 0 ? asked : [...EXTRA_TESTED_NODE_MAJORS];
  const failed: string[] = [];
  for (const major of majors) {
    const bin = installNode(major);
    const env = {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      [EXPECTED_NODE_MAJOR_ENV]: String(major),
    };
    console.log(`\n=== Node.js ${versionOf(path.join(bin, 'node'))}: the packed packages`);
    if (!(await run(['vitest', 'run', '--config', 'vitest.packages.config.ts'], env))) {
      failed.push(`Node ${major}: test:packages`);
    }
    console.log(`\n=== Node.js ${major}: a generated project`);
    const scaffold = ['vitest', 'run', '--config', 'vitest.scaffold.config.ts'];
    if (!(await run([...scaffold, 'tests/scaffold/clone.test.ts'], env))) {
      failed.push(`Node ${major}: generated project (tests/scaffold/clone.test.ts)`);
    }
  }
  if (failed.length > 0) {
    console.error(`\nFailed:\n  ${failed.join('\n  ')}`);
    process.exitCode = 1;
  }
}

main().catch((error: unknown) => {
  console.error('Could not run the tests on other Node.js versions:', error);
  process.exitCode = 1;
});
