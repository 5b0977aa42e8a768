/**
 * The scripts `test:unit`, `test:browser` and `test:e2e` run first only check for the system packages the tests need (PostgreSQL's server
 * binaries, Chromium): installing them is the machine's set-up, which `.ci/run` does on CI. When
 * one is missing, its script exits non-zero with one line naming the package and the command that
 * installs it, and never runs a package manager itself. A fake `apt-get` (and `sudo`, `apt`) first
 * on PATH records any call, so a script that tried to install would leave a trace here.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const root = path.resolve(__dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'weft-ensure-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

const fakeBin = path.join(work, 'fake-bin');
const trace = path.join(work, 'package-manager-calls');
mkdirSync(fakeBin);
for (const tool of ['apt-get', 'apt', 'sudo']) {
  const file = path.join(fakeBin, tool);
  writeFileSync(file, `#!/bin/sh\necho "${tool} $*" >> '${trace}'\nexit 0\n`);
  chmodSync(file, 0o755);
}

interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

function runScript(script: string, env: Record<string, string>): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts', script)],
      {
        cwd: root,
        timeout: 30_000,
        env: {
          ...process.env,
          ...env,
          PATH: `${fakeBin}${path.delimiter}${process.env.PATH ?? ''}`,
        },
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : null) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

function lines(text: string): string[] {
  return text.split('\n').filter((line) => line.trim() !== '');
}

describe('scripts/ensure-postgres.ts (test:unit)', () => {
  it('with no initdb and pg_ctl, exits non-zero naming the postgresql package and its install command, and runs no package manager [claim:cg-system-packages]', async () => {
    const empty = path.join(work, 'no-postgres');
    mkdirSync(empty);
    const outcome = await runScript('ensure-postgres.ts', { PG_BIN: empty });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(lines(outcome.stderr)).toHaveLength(1);
    expect(outcome.stderr).toContain("Debian's postgresql package");
    expect(outcome.stderr).toContain('`sudo apt-get install -y postgresql`');
    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').toBe('');
  });

  it('passes quietly when the folder holds initdb and pg_ctl', async () => {
    const bin = path.join(work, 'postgres-bin');
    mkdirSync(bin);
    for (const tool of ['initdb', 'pg_ctl']) writeFileSync(path.join(bin, tool), '');
    const outcome = await runScript('ensure-postgres.ts', { PG_BIN: bin });
    expect(outcome).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('scripts/ensure-chromium.ts (test:e2e, test:browser)', () => {
  it('with no browser at the path, exits non-zero naming the chromium package and its install command, and runs no package manager [claim:cg-system-packages]', async () => {
    const absent = path.join(work, 'no-chromium', 'chromium');
    const outcome = await runScript('ensure-chromium.ts', { CHROMIUM_PATH: absent });
    expect(outcome.code).toBe(1);
    expect(outcome.stdout).toBe('');
    expect(lines(outcome.stderr)).toHaveLength(1);
    expect(outcome.stderr).toContain(absent);
    expect(outcome.stderr).toContain("Debian's chromium package");
    expect(outcome.stderr).toContain('`sudo apt-get install -y chromium`');
    expect(existsSync(trace) ? readFileSync(trace, 'utf8') : '').toBe('');
  });

  it('passes quietly when the browser is there', async () => {
    const browser = path.join(work, 'chromium');
    writeFileSync(browser, '');
    const outcome = await runScript('ensure-chromium.ts', { CHROMIUM_PATH: browser });
    expect(outcome).toEqual({ code: 0, stdout: '', stderr: '' });
  });
});

describe('the system checks the test scripts run first', () => {
  it('run before the tests of test:unit, test:browser and test:e2e [claim:cg-system-packages]', () => {
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // The unit tests start PostgreSQL servers, and the WebSocket plugin's open Chromium.
    expect(scripts['test:unit']).toMatch(
      /^tsx scripts\/ensure-postgres\.ts && tsx scripts\/ensure-chromium\.ts && /,
    );
    expect(
      readFileSync(path.join(root, 'packages/plugin-websocket/test/browser.test.ts'), 'utf8'),
    ).toContain('chromium.launch({ executablePath: chromiumPath');
    expect(scripts['test:browser']).toMatch(/^tsx scripts\/ensure-chromium\.ts && /);
    expect(scripts['test:e2e']).toMatch(/^tsx scripts\/ensure-chromium\.ts && /);
  });

  it('find the browser CI names in every step that runs test:unit, test:browser or test:e2e [claim:cg-system-packages]', () => {
    const { jobs } = parse(readFileSync(path.join(root, '.github/workflows/ci.yml'), 'utf8')) as {
      jobs: Record<string, { steps: { run?: string; env?: Record<string, string> }[] }>;
    };
    const steps = Object.values(jobs).flatMap(({ steps }) =>
      steps.filter(({ run }) => /^npm run test:(unit|browser|e2e)$/.test(run ?? '')),
    );
    expect(steps.map(({ run }) => run).sort()).toEqual([
      'npm run test:browser',
      'npm run test:e2e',
      'npm run test:unit',
    ]);
    for (const step of steps) {
      expect({ run: step.run, browser: step.env?.CHROMIUM_PATH }).toEqual({
        run: step.run,
        browser: '/usr/bin/google-chrome',
      });
    }
  });

  it('are what .ci/run installs on a fresh machine, with curl, before npm ci and npm test [claim:cg-system-packages]', () => {
    const run = readFileSync(path.join(root, '.ci/run'), 'utf8');
    for (const pkg of ['chromium', 'postgresql', 'curl']) {
      expect(run).toMatch(new RegExp(`apt-get install -y -qq ${pkg}\\b`));
    }
    expect(run.trimEnd().split('\n').slice(-2)).toEqual([
      // SQLite, when better-sqlite3 has to compile it, unoptimised: a third of the time.
      'CFLAGS=-O0 CXXFLAGS=-O0 npm ci --no-audit --no-fund',
      'npm test',
    ]);
  });

  it("leave better-sqlite3's compiler to the machine: its install falls back to node-gyp, and the majors compile it against their own headers [claim:cg-sqlite-compiles]", () => {
    const sqlite = JSON.parse(
      readFileSync(path.join(root, 'node_modules/better-sqlite3/package.json'), 'utf8'),
    ) as { scripts: Record<string, string> };
    expect(sqlite.scripts.install).toBe('prebuild-install || node-gyp rebuild --release');
    const nodeVersions = readFileSync(path.join(root, 'scripts/test-node-versions.ts'), 'utf8');
    expect(nodeVersions).toMatch(/npm_config_nodedir: path\.dirname\(bin\)/);
    const run = readFileSync(path.join(root, '.ci/run'), 'utf8');
    expect(run).not.toMatch(/build-essential|\bg\+\+|python3|\bmake\b/);
  });

  it('start no process: neither ensure script imports node:child_process', () => {
    for (const script of ['ensure-postgres.ts', 'ensure-chromium.ts']) {
      const source = readFileSync(path.join(root, 'scripts', script), 'utf8');
      expect(source, script).not.toMatch(/child_process|execa|\bspawn\b|\bexec(File)?(Sync)?\(/);
    }
  });
});
