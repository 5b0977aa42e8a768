/**
 * `npm test` (scripts/test.ts) runs the phases of tooling/test-phases.ts and stops at the first
 * that fails. The phases are npm scripts, so a stand-in `npm` first on PATH records each one the
 * command starts and fails the one it is told to.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { compiledScript } from '@weft-internal/test-support/compiled-script';
import { afterAll, describe, expect, it } from 'vitest';
import {
  BESIDE_LANE_NICENESS,
  TEST_PHASES,
  TEST_STAGES,
  ciJobSeconds,
} from '../../tooling/test-phases';

const root = path.resolve(__dirname, '../..');
const bin = mkdtempSync(path.join(os.tmpdir(), 'weft-test-phases-'));
const log = path.join(bin, 'phases.log');
afterAll(() => rmSync(bin, { recursive: true, force: true }));
/** scripts/test.ts compiled for plain node: the tests below start it a dozen times. */
const testScript = await compiledScript(path.join(root, 'scripts/test.ts'));

writeFileSync(
  path.join(bin, 'npm'),
  '#!/bin/sh\n# npm pack (packing before the tarball phases): wait for PACK_GATE to exist when it is named, pack nothing.\nif [ "$1" = pack ]; then\n  [ -n "$PACK_FAIL" ] && { echo "$PACK_FAIL" >&2; exit 1; }\n  if [ -n "$PACK_GATE" ]; then n=0; while [ ! -e "$PACK_GATE" ] && [ $n -lt 600 ]; do sleep 0.1; n=$((n + 1)); done; fi\n  echo "[]"; exit 0\nfi\n# npm run <script>: record the script and its niceness, say its name; fail the one named in FAIL_PHASE, as Vitest does.\necho "$2" >> "$PHASES_LOG"\necho "$2 $(nice)" >> "$PHASES_LOG.nice"\necho "output of $2"\n# A process the phase started may still write after npm itself has exited.\n[ "$2" = "$LATE_PHASE" ] && (sleep 0.3; echo "late output of $2") &\n[ "$2" = "$FAIL_PHASE" ] && { echo " FAIL  $2.test.ts > it fails"; echo "AssertionError: expected 1 to be 2"; exit 1; }\nexit 0\n',
);
chmodSync(path.join(bin, 'npm'), 0o755);

interface NpmTestRun {
  status: number | null;
  ran: string[];
  stdout: string;
  /** The niceness each phase ran at, by script. */
  niceness: Record<string, number>;
}

/**
 * Runs `npm test -- <phases>` with the stand-in npm; answers its status, the phases started and
 * what it printed. Asynchronous, so that Vitest's worker is not blocked while it runs. With
 * `packAfter`, packing ends only once `npm test` has printed that text; with `packFail`, `npm
 * pack` fails, printing that text.
 */
async function npmTest(
  phases: string[],
  failPhase: string,
  latePhase = '',
  packAfter = '',
  packFail = '',
): Promise<NpmTestRun> {
  rmSync(log, { force: true });
  rmSync(`${log}.nice`, { force: true });
  const gate = path.join(bin, 'pack-gate');
  rmSync(gate, { force: true });
  const child = spawn(process.execPath, [testScript, ...phases], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: {
      ...process.env,
      PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`,
      PHASES_LOG: log,
      FAIL_PHASE: failPhase,
      LATE_PHASE: latePhase,
      PACK_GATE: packAfter === '' ? '' : gate,
      PACK_FAIL: packFail,
      // Packing empties its folder: never the .cache/packed a real npm test may be reading.
      WEFT_TEST_PACKED_DIR: path.join(bin, 'packed'),
    },
  });
  let stdout = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    stdout += chunk;
    if (packAfter !== '' && stdout.includes(packAfter)) writeFileSync(gate, '');
  });
  const [status] = (await once(child, 'close')) as [number | null];
  const ran = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  const niceness = existsSync(`${log}.nice`)
    ? Object.fromEntries(
        readFileSync(`${log}.nice`, 'utf8')
          .trim()
          .split('\n')
          .map((line) => [line.split(' ')[0]!, Number(line.split(' ')[1])]),
      )
    : {};
  return { status, ran, stdout, niceness };
}

describe('npm test', () => {
  it('runs scripts/test.ts over the phases of tooling/test-phases.ts [claim:cg-npm-test-phases]', () => {
    const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(manifest.scripts.test).toBe('tsx scripts/test.ts');
    const phases = TEST_PHASES.map(({ script }) => script);
    expect(new Set(phases).size).toBe(phases.length);
    for (const phase of phases) expect(Object.keys(manifest.scripts)).toContain(phase);
  });

  it('runs each phase asked for, in order, and passes when they pass [claim:cg-npm-test-phases]', async () => {
    const { status, ran } = await npmTest(['build', 'test:build', 'test:unit'], 'none');
    expect(status).toBe(0);
    expect(ran).toEqual(['build', 'test:build', 'test:unit']);
  }, 60_000);

  it('holds the output of phases that share a step until each ends, and lets the build, a lone phase of the first lane and the site in a browser print as they go [claim:cg-test-held-output]', async () => {
    const { status, stdout } = await npmTest(
      ['lint', 'typecheck', 'build', 'test:unit', 'test:e2e'],
      'none',
    );
    expect(status).toBe(0);
    for (const phase of ['lint', 'typecheck']) {
      expect(stdout).toContain(`===== ${phase} (ran beside another phase)\noutput of ${phase}\n`);
    }
    for (const phase of ['build', 'test:unit', 'test:e2e']) {
      expect(stdout).toContain(`output of ${phase}\n`);
      expect(stdout).not.toContain(`===== ${phase} (ran beside another phase)`);
    }
  }, 60_000);

  it('waits for the last output of a held phase, written after npm exited [claim:cg-test-held-output]', async () => {
    const { status, stdout } = await npmTest(['lint', 'typecheck'], 'none', 'typecheck');
    expect(status).toBe(0);
    expect(stdout).toMatch(
      /===== typecheck \(ran beside another phase\)\noutput of typecheck\nlate output of typecheck\n===== typecheck: passed/,
    );
  }, 60_000);

  it('holds the output of the packages lanes, which run beside the first [claim:cg-test-held-output]', () => {
    // Which lane streams is decided where the lanes start: the first lane's lone phases stream.
    const source = readFileSync(path.join(root, 'scripts/test.ts'), 'utf8');
    expect(source).toMatch(/runLane\(lane, index === 0, /);
    expect(source).toMatch(/runPhase\(phase, !streams \|\| step\.length > 1, /);
    expect(
      TEST_STAGES[1]!
        .slice(1)
        .flat(2)
        .map(({ script }) => script),
    ).toEqual(['test:packages', 'test:node-versions', 'test:scaffold', 'lint', 'typecheck']);
  });

  it('lets lint print as it goes when it runs without typecheck, beside no other phase [claim:cg-test-held-output]', async () => {
    const { status, stdout } = await npmTest(['lint'], 'none');
    expect(status).toBe(0);
    expect(stdout).toContain('output of lint\n');
    expect(stdout).not.toContain('===== lint (ran beside another phase)');
  }, 60_000);

  it('stops at the first phase that fails, starting no later one [claim:cg-npm-test-phases]', async () => {
    // The site checks come before the unit tests in their lane; the e2e stage after every lane.
    const { status, ran } = await npmTest(['test:build', 'test:unit', 'test:e2e'], 'test:build');
    expect(status).toBe(1);
    expect(ran).toEqual(['test:build']);
  }, 60_000);

  it('lets a phase already running beside the failing one finish [claim:cg-npm-test-phases]', async () => {
    // lint and typecheck share a step: lint fails, typecheck still runs to its end and passes.
    const { status, ran, stdout } = await npmTest(['lint', 'typecheck'], 'lint', 'typecheck');
    expect(status).toBe(1);
    expect(ran.sort()).toEqual(['lint', 'typecheck']);
    expect(stdout).toMatch(/late output of typecheck\n===== typecheck: passed/);
  }, 60_000);

  it.skipIf(process.platform === 'win32')(
    'runs the lanes beside the first at a lower priority, the first at its own [claim:cg-test-lane-priority]',
    async () => {
      const { status, niceness } = await npmTest(
        ['test:unit', 'test:packages', 'test:scaffold', 'lint', 'typecheck'],
        'none',
      );
      expect(status).toBe(0);
      expect(niceness['test:unit']).toBe(os.getPriority());
      for (const script of ['test:packages', 'test:scaffold', 'lint', 'typecheck']) {
        expect(niceness[script], script).toBe(
          Math.min(19, os.getPriority() + BESIDE_LANE_NICENESS),
        );
      }
      // Alone in its stage, a phase of a later lane runs at its own priority.
      const alone = await npmTest(['lint'], 'none');
      expect(alone.niceness.lint).toBe(os.getPriority());
    },
    60_000,
  );

  it('ends its log with what failed in each failed phase, printed as it went or held [claim:cg-test-failure-recap]', async () => {
    // test:build prints as it goes; lint and typecheck run side by side, their output held.
    for (const [phases, failing] of [
      [['test:build', 'test:unit'], 'test:build'],
      [['lint', 'typecheck'], 'lint'],
    ] as const) {
      const { status, stdout } = await npmTest([...phases], failing);
      expect(status).toBe(1);
      expect(stdout.indexOf('Test phases')).toBeGreaterThan(0);
      expect(stdout.slice(stdout.indexOf('Test phases'))).toMatch(
        new RegExp(
          `\\nWhat failed in ${failing} \\(its whole output is above\\):\\n FAIL  ${failing}\\.test\\.ts > it fails\\n {4}AssertionError: expected 1 to be 2\\n$`,
        ),
      );
    }
  }, 60_000);

  it('ends its log with why packing failed, when it did, and starts no tarball phase [claim:cg-test-failure-recap]', async () => {
    const { status, ran, stdout } = await npmTest(
      ['test:packages', 'test:scaffold'],
      'none',
      '',
      '',
      'npm error no space left on device',
    );
    expect(status).toBe(1);
    expect(ran).not.toContain('test:packages');
    expect(ran).not.toContain('test:scaffold');
    const recap = stdout.slice(stdout.indexOf('What failed in packing the packages'));
    expect(recap).toMatch(/^What failed in packing the packages \(before the tarball phases/);
    expect(recap).toMatch(/\n {2}.*npm error no space left on device\n$/);
  }, 60_000);

  it("ends with each phase's time, its processor time, how busy the machine was, and CI's wall time from them [claim:cg-test-cpu-minutes] [claim:cg-ci-docs-only-phases]", async () => {
    const { status, stdout } = await npmTest(['lint', 'typecheck'], 'none');
    expect(status).toBe(0);
    const summary = stdout.slice(stdout.indexOf('Test phases'));
    expect(summary).toMatch(/processor minutes/);
    for (const phase of ['lint', 'typecheck']) {
      expect(summary).toMatch(
        new RegExp(
          `'${phase}'\\s*│\\s*'lint-and-types'\\s*│\\s*\\d+(\\.\\d)?\\s*│\\s*${process.platform === 'linux' ? '\\d' : "''"}`,
        ),
      );
    }
    if (process.platform === 'linux') {
      expect(summary).toMatch(/The machine's processors were \d+% busy over the run\n/);
    }
    expect(summary).toMatch(
      /CI, from this run's figures, for a full pull request: about \d+\.\d min after install \(its longest job, "Lint and types"\)/,
    );
    expect(summary).toMatch(
      /CI, from this run's figures, for a pull request that changes only docs: about \d+\.\d min after install/,
    );
  }, 60_000);

  it('starts no tarball phase once packing ends if a phase beside the packing failed meanwhile [claim:cg-npm-test-phases]', async () => {
    // lint, alone of its lane here, starts at once while the packages lane packs before
    // test:packages; the packing ends only once npm test has reported lint's failure, so
    // test:packages must not start after it.
    const { status, ran } = await npmTest(
      ['lint', 'test:packages'],
      'lint',
      '',
      '===== lint: FAILED',
    );
    expect(status).toBe(1);
    expect(ran).toContain('lint');
    expect(ran).not.toContain('test:packages');
  }, 60_000);
});

describe('the stages of npm test', () => {
  const scripts = (steps: readonly (readonly { script: string }[])[]): string[][] =>
    steps.map((step) => step.map(({ script }) => script));

  it('builds the site first, alone, then runs three lanes: the site checks, the unit tests and the core in a browser in one, the packages then the Node.js versions in another, the scaffold then lint and the types in the third, then the site in a browser alone [claim:cg-test-phase-order]', () => {
    expect(TEST_STAGES.map((lanes) => lanes.map(scripts))).toEqual([
      [[['build']]],
      [
        [['test:build'], ['test:unit'], ['test:browser']],
        [['test:packages'], ['test:node-versions']],
        [['test:scaffold'], ['lint', 'typecheck']],
      ],
      [[['test:e2e']]],
    ]);
  });

  it('starts every phase that reads the site build, packing included, in a stage after the build [claim:cg-test-phase-order] [claim:cg-mcp-docs-after-site-build]', () => {
    const buildStage = TEST_STAGES.findIndex((lanes) =>
      lanes.some((lane) => lane.some((step) => step.some(({ script }) => script === 'build'))),
    );
    expect(buildStage).toBe(0);
    const readers = TEST_STAGES.flatMap((lanes, stage) =>
      lanes.flat(2).flatMap((phase) => (phase.siteBuild ? [{ phase, stage }] : [])),
    );
    expect(readers.map(({ phase }) => phase.script)).toEqual([
      'test:build',
      'test:unit',
      'test:packages',
      'test:node-versions',
      'test:scaffold',
      'test:e2e',
    ]);
    for (const { phase, stage } of readers) expect(stage, phase.script).toBeGreaterThan(buildStage);
    // Packing builds @weft/mcp-docs, whose data is made from the site build.
    for (const phase of TEST_PHASES.filter((each) => each.packed)) {
      expect(phase.siteBuild, phase.script).toBe(true);
    }
    const manifest = JSON.parse(
      readFileSync(path.join(root, 'packages/mcp-docs/package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(manifest.scripts.prepack).toMatch(/npm run build/);
    expect(manifest.scripts.build).toMatch(/^npm run generate:data && /);
  });

  it('keeps, for a change to docs alone, lint, the unit tests, the site build, its checks and the site in a browser [claim:cg-ci-docs-only-phases]', () => {
    expect(TEST_PHASES.filter((phase) => phase.docs).map(({ script }) => script)).toEqual([
      'build',
      'test:build',
      'test:unit',
      'lint',
      'test:e2e',
    ]);
  });

  it("estimates each CI job from the run's phase times, with the site build a job runs before the phases that read it [claim:cg-ci-docs-only-phases] [claim:cg-ci-builds-site-first]", () => {
    // Each phase took a whole number of minutes, the build 10, so a job's sum shows what it counts.
    const minutes: Record<string, number> = {
      build: 10,
      lint: 1,
      typecheck: 2,
      'test:build': 3,
      'test:unit': 4,
      'test:browser': 5,
      'test:packages': 6,
      'test:node-versions': 7,
      'test:scaffold': 8,
      'test:e2e': 9,
    };
    const times = TEST_PHASES.map((phase) => ({ phase, seconds: 60 * minutes[phase.script]! }));
    const jobs = (docsOnly: boolean): Record<string, number> =>
      Object.fromEntries(
        ciJobSeconds(times, docsOnly).map(([job, seconds]) => [job, seconds / 60]),
      );
    expect(jobs(false)).toEqual({
      'lint-and-types': 1 + 2,
      framework: 10 + 4 + 5,
      packages: 10 + 6 + 8,
      'node-versions': 10 + 7,
      site: 10 + 3 + 9,
    });
    expect(jobs(true)).toEqual({
      'lint-and-types': 1,
      framework: 10 + 4,
      packages: 0,
      'node-versions': 0,
      site: 10 + 3 + 9,
    });
  });
});
