/**
 * The `create-weft` command as a user meets it: its TypeScript entry run in a child process
 * (no terminal, so no prompts), with the package manager it reports in npm_config_user_agent.
 * Guards the comments of cli.ts (defaults off a terminal, a failed install keeps the project),
 * DEFAULT_MODEL and DEFAULT_MEMORY (choices.ts) and installDependencies.
 */
import { execFile, spawn, spawnSync } from 'node:child_process';
import {
  access,
  chmod,
  mkdtemp,
  readdir,
  readFile,
  realpath,
  rm,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { stripVTControlCharacters } from 'node:util';
import { compiledScript } from '@weft-internal/test-support/compiled-script';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { USAGE } from '../src/arguments.js';
import { DEFAULT_MEMORY, DEFAULT_MODEL, MODEL_LABELS } from '../src/choices.js';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
/** The command's entry, compiled for plain `node`: the tests start it tens of times. */
const CLI = await compiledScript(path.join(PACKAGE_DIR, 'src', 'cli.ts'));
const MINUTE = 60_000;

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

let work = '';

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'create-weft-cli-'));
});

afterEach(async () => {
  await rm(work, { recursive: true, force: true });
});

/**
 * Runs the command with stdin and stdout piped (not a terminal), as `npm create` run by a script
 * or CI would, typed in `work`, reporting `userAgent` as the manager that ran it.
 */
function run(args: string[], userAgent: string, pathPrefix?: string): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    npm_config_user_agent: userAgent,
    INIT_CWD: work,
    ...(pathPrefix === undefined
      ? {}
      : { PATH: `${pathPrefix}${path.delimiter}${process.env.PATH ?? ''}` }),
  };
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      // Started from the package, as npm runs it; INIT_CWD says where the user typed.
      { cwd: PACKAGE_DIR, env, timeout: 4 * MINUTE },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

const exists = (file: string) =>
  access(file).then(
    () => true,
    () => false,
  );

describe('create-weft off a terminal (cli.ts)', () => {
  it.each([[['--help']], [['-h']], [['my-agent', '--help']]])(
    'prints the usage on %j, with the defaults, and writes nothing [claim:create-weft-readme-help]',
    async (args) => {
      const { code, stdout } = await run(args, 'npm/10.9.0 node/v20.19.0 linux x64');
      expect(code).toBe(0);
      expect(stdout).toBe(USAGE);
      expect(USAGE).toContain(`default ${DEFAULT_MODEL}`);
      expect(USAGE).toContain(`default ${DEFAULT_MEMORY}`);
      expect(await readdir(work)).toEqual([]);
    },
  );

  it('asks for nothing and names the missing folder with the command to type, in one line [claim:tsdoc-cw-cli-complete] [claim:create-weft-readme-folder-required]', async () => {
    const { code, stderr } = await run([], 'pnpm/9.15.0 npm/? node/v20.19.0 linux x64');
    expect(code).toBe(1);
    expect(stderr).toBe(
      'create-weft: folder: missing; fix: pnpm create weft my-agent [WEFT_CREATE_INVALID_ARGUMENTS]\nNothing was written.\n',
    );
  });

  it('refuses a name npm would not accept in one line, and writes nothing [claim:tsdoc-cw-project-name] [claim:errors-create-install-failed-written]', async () => {
    const { code, stderr } = await run(['My Agent'], 'npm/10.9.0 node/v20.19.0 linux x64');
    expect(code).toBe(1);
    expect(stderr).toMatch(
      /^create-weft: project name "My Agent": .* \[WEFT_CREATE_INVALID_NAME\]\nNothing was written\.\n$/,
    );
    expect(await exists(path.join(work, 'My Agent'))).toBe(false);
  });

  it(
    'prints no cd step for a project made in the folder the user is in (".") [claim:create-weft-readme-no-cd-in-place]',
    async () => {
      const { code, stdout } = await run(
        // The temporary folder's name may hold capitals, which npm refuses in a name.
        ['.', '--name', 'here-agent', '--skip-install'],
        'npm/10.9.0 node/v20.19.0 linux x64',
      );
      expect(code).toBe(0);
      expect(await exists(path.join(work, 'package.json'))).toBe(true);
      expect(stdout).toMatch(/Next:\W+npm install\W+npm test\W+npm run dev/);
      expect(stdout).not.toMatch(/\bcd\b/);
    },
    4 * MINUTE,
  );

  it(
    'takes DEFAULT_MODEL and DEFAULT_MEMORY when no choice is given, and with --skip-install starts the next steps with the install [claim:gs-creator-installs] [claim:create-weft-readme-defaults] [claim:tsdoc-cw-default-model] [claim:tsdoc-cw-default-memory] [claim:tsdoc-cw-labels] [claim:tsdoc-cw-cli-complete]',
    async () => {
      const { code, stdout } = await run(
        ['quiet-agent', '--skip-install'],
        'npm/10.9.0 node/v20.19.0 linux x64',
      );
      expect(code).toBe(0);
      expect(stdout).toContain(
        `Created quiet-agent with --model ${DEFAULT_MODEL} --memory ${DEFAULT_MEMORY}.`,
      );
      expect(stdout).toMatch(/cd quiet-agent\W+npm install\W+npm test\W+npm run dev/);
      // Not a terminal: progress is one line per step, never a spinner's redrawn line.
      expect(stdout).not.toMatch(
        new RegExp(`${String.fromCharCode(27)}\\[(?:\\d*[ABGJK]|\\?25[hl])`),
      );
      expect(stdout).toMatch(/Writing the project/);
      // Where the agent will listen: not 3000, which the docs site's `npm start` holds.
      expect(stdout).toContain('`npm run dev` listens on http://127.0.0.1:8787');
      // The creator writes .env.example only: the hint says where a PORT setting goes.
      expect(stdout).toContain('(PORT in .env changes it: copy .env.example to .env first)');
      const manifest = JSON.parse(
        await readFile(path.join(work, 'quiet-agent', 'package.json'), 'utf8'),
      ) as { dependencies: Record<string, string> };
      const readme = await readFile(path.join(work, 'quiet-agent', 'README.md'), 'utf8');
      expect(readme).toContain(MODEL_LABELS[DEFAULT_MODEL]);
      // The scripted model and the in-memory store: no key, no server, no native module.
      expect(Object.keys(manifest.dependencies)).not.toContain('@weft/model-openai');
      expect(Object.keys(manifest.dependencies)).not.toContain('@weft/memory-sqlite');
    },
    5 * MINUTE,
  );

  it.skipIf(process.platform === 'win32')(
    'installs with the manager that ran it; a failed install keeps the project and exits 1 after the next steps, cd then the install [claim:create-weft-readme-pnpm-before-10-5] [claim:gs-install-fails] [claim:errors-create-install-failed-written] [claim:gs-creator-installs] [claim:create-weft-readme-managers] [claim:create-weft-readme-install-fails] [claim:tsdoc-cw-cli-install] [claim:tsdoc-cw-install-stays] [claim:tsdoc-cw-install-stdio]',
    async () => {
      const bin = await mkdtemp(path.join(tmpdir(), 'create-weft-cli-bin-'));
      try {
        await writeFile(
          path.join(bin, 'pnpm'),
          '#!/bin/sh\necho "$@" > pnpm-ran.txt\necho "pnpm: registry unreachable"\nexit 7\n',
        );
        await chmod(path.join(bin, 'pnpm'), 0o755);
        const { code, stdout } = await run(
          ['kept-agent'],
          'pnpm/9.15.0 npm/? node/v20.19.0 linux x64',
          bin,
        );
        const project = path.join(work, 'kept-agent');
        expect(code).toBe(1);
        expect(await readFile(path.join(project, 'pnpm-ran.txt'), 'utf8')).toBe('install\n');
        expect(await exists(path.join(project, 'package.json'))).toBe(true);
        // pnpm 9, named by the user agent, gets its settings in package.json: it refuses a
        // pnpm-workspace.yaml without workspace packages.
        expect(await exists(path.join(project, 'pnpm-workspace.yaml'))).toBe(false);
        const manifest = JSON.parse(await readFile(path.join(project, 'package.json'), 'utf8')) as {
          pnpm?: { onlyBuiltDependencies?: string[] };
        };
        expect(manifest.pnpm?.onlyBuiltDependencies).toEqual(['esbuild']);
        // The manager's own output reaches the user's terminal (InstallOptions.stdio).
        expect(stdout).toContain('pnpm: registry unreachable');
        expect(stdout).toContain('install: pnpm install failed (exit code 7)');
        expect(stdout).toMatch(/cd kept-agent\W+pnpm install\W+pnpm test\W+pnpm dev/);
      } finally {
        await rm(bin, { recursive: true, force: true });
      }
    },
    5 * MINUTE,
  );

  it.skipIf(process.platform === 'win32')(
    'after a failed install, prints a cd step a shell runs, for a folder whose name has a space and a quote [claim:create-weft-readme-install-fails] [claim:tsdoc-cw-cli-install]',
    async () => {
      const bin = await mkdtemp(path.join(tmpdir(), 'create-weft-cli-bin-'));
      try {
        await writeFile(path.join(bin, 'pnpm'), '#!/bin/sh\nexit 7\n');
        await chmod(path.join(bin, 'pnpm'), 0o755);
        // A folder npm would not take as a name, so --name names the project (README: "or pass --name").
        const folder = "Ada's Agent";
        const { code, stdout } = await run(
          [folder, '--name', 'ada-agent'],
          'pnpm/10.6.0 npm/? node/v20.19.0 linux x64',
          bin,
        );
        expect(code).toBe(1);
        const step = /│\s+(cd .+?)\s+│/.exec(stdout)?.[1];
        expect(step).toBe(`cd 'Ada'\\''s Agent'`);
        expect(stdout).toMatch(/cd .+\W+pnpm install\W+pnpm test\W+pnpm dev/);
        // Typed into a shell where the user ran the command, it leads into the project.
        const shell = spawnSync('sh', ['-c', `${step as string} && pwd -P`], {
          cwd: work,
          encoding: 'utf8',
        });
        expect(shell.stderr).toBe('');
        expect(shell.stdout.trim()).toBe(path.join(await realpath(work), folder));
      } finally {
        await rm(bin, { recursive: true, force: true });
      }
    },
    5 * MINUTE,
  );

  it(
    'stops on SIGINT while it packs, exits with 130 and leaves nothing behind [claim:create-weft-readme-nothing-left] [claim:tsdoc-cw-cli-interrupt]',
    async () => {
      const child = spawn(process.execPath, [CLI, 'sub/stopped-agent', '--skip-install'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, npm_config_user_agent: 'npm/10.9.0', INIT_CWD: work },
      });
      let stdout = '';
      let stderr = '';
      // Once: the command's handler is gone when it has finished, and a SIGINT then ends it.
      let interrupted = false;
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        // Run from this clone, it packs the Weft packages first: the slow step.
        if (!interrupted && stdout.includes('Packing')) interrupted = child.kill('SIGINT');
      });
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString();
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${stdout}`)), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(code).toBe(130);
      expect(stderr).toBe('create-weft: interrupted by SIGINT\nNothing was written.\n');
      // Neither the project, its hidden staging folder, nor the folder made for it.
      expect(await readdir(work)).toEqual([]);
    },
    2 * MINUTE,
  );
});

/** util-linux `script`, which runs a command on a pseudo-terminal: a terminal for the prompts. */
const HAS_SCRIPT = process.platform === 'linux' && spawnSync('script', ['--version']).status === 0;

describe('create-weft on a terminal (cli.ts)', () => {
  it.skipIf(!HAS_SCRIPT)(
    'asks which model and memory to use, offering the defaults; Ctrl+C ends it with 130 and nothing written [claim:create-weft-readme-asks] [claim:tsdoc-cw-labels] [claim:tsdoc-cw-cli-complete] [claim:tsdoc-cw-cli-answered]',
    async () => {
      const project = path.join(work, 'asked-agent');
      // A pseudo-terminal of a usual size: with no columns the prompts wrap every character.
      const command = `stty cols 100 rows 30; exec '${process.execPath}' '${CLI}' '${project}' --skip-install`;
      const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, TERM: 'xterm', npm_config_user_agent: 'npm/10.9.0' },
      });
      let screen = '';
      const keys: [string, string][] = [
        ['Which text model?', '\r'],
        ['Where should memories be kept?', '\x03'],
      ];
      child.stdout.on('data', (chunk: Buffer) => {
        // Colours and cursor moves dropped, the text the user reads kept.
        screen += stripVTControlCharacters(chunk.toString());
        const next = keys[0];
        if (next !== undefined && screen.includes(next[0])) {
          keys.shift();
          child.stdin.write(next[1]);
        }
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${screen}`)), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(screen).toMatch(/Which text model\?[^]*● Scripted stand-in, no key and no network/);
      expect(screen).toMatch(/Where should memories be kept\?[^]*● In memory, lost on exit/);
      expect(screen).toContain('Nothing was written.');
      expect(code).toBe(130);
      expect(await exists(project)).toBe(false);
    },
    2 * MINUTE,
  );

  it.skipIf(!HAS_SCRIPT)(
    'asks nothing and takes the defaults when only its input is a terminal, its output going to a file [claim:create-weft-readme-defaults] [claim:tsdoc-cw-cli-complete]',
    async () => {
      const project = path.join(work, 'logged-agent');
      const log = path.join(work, 'create.log');
      const command = `exec '${process.execPath}' '${CLI}' '${project}' --skip-install > '${log}' 2>&1`;
      const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, TERM: 'xterm', npm_config_user_agent: 'npm/10.9.0' },
      });
      // A prompt would wait for a key that never comes: the deadline ends it.
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error('no exit in 60 s')), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      const output = await readFile(log, 'utf8');
      expect(code).toBe(0);
      expect(output).not.toContain('Which text model?');
      expect(output).toContain(
        `Created logged-agent with --model ${DEFAULT_MODEL} --memory ${DEFAULT_MEMORY}.`,
      );
      expect(await exists(path.join(project, 'package.json'))).toBe(true);
    },
    2 * MINUTE,
  );

  it.skipIf(!HAS_SCRIPT)(
    'asks only for what the flags leave out: --model given, the memory [claim:create-weft-readme-asks] [claim:tsdoc-cw-cli-complete]',
    async () => {
      const project = path.join(work, 'flagged-agent');
      const command = `stty cols 100 rows 30; exec '${process.execPath}' '${CLI}' '${project}' --model openai --skip-install`;
      const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, TERM: 'xterm', npm_config_user_agent: 'npm/10.9.0' },
      });
      let screen = '';
      let pressed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        screen += stripVTControlCharacters(chunk.toString());
        if (!pressed && screen.includes('Where should memories be kept?')) {
          pressed = child.stdin.write('\x03');
        }
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${screen}`)), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(screen).toContain('Where should memories be kept?');
      expect(screen).not.toContain('Which text model?');
      expect(screen).not.toContain('Where should the project go?');
      expect(code).toBe(130);
      expect(await exists(project)).toBe(false);
    },
    2 * MINUTE,
  );

  it.skipIf(!HAS_SCRIPT)(
    'asks for the folder when none is given, then for the model [claim:create-weft-readme-asks] [claim:tsdoc-cw-cli-complete]',
    async () => {
      const command = `stty cols 100 rows 30; exec '${process.execPath}' '${CLI}' --skip-install`;
      const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, TERM: 'xterm', npm_config_user_agent: 'npm/10.9.0', INIT_CWD: work },
      });
      let screen = '';
      const keys: [string, string][] = [
        ['Where should the project go?', 'typed-agent\r'],
        ['Which text model?', '\x03'],
      ];
      child.stdout.on('data', (chunk: Buffer) => {
        screen += stripVTControlCharacters(chunk.toString());
        const next = keys[0];
        if (next !== undefined && screen.includes(next[0])) {
          keys.shift();
          child.stdin.write(next[1]);
        }
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${screen}`)), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(screen).toMatch(/Where should the project go\?[^]*typed-agent[^]*Which text model\?/);
      expect(screen).toContain('Nothing was written.');
      expect(code).toBe(130);
      expect(await readdir(work)).toEqual([]);
    },
    2 * MINUTE,
  );

  it.skipIf(!HAS_SCRIPT)(
    'stops on Ctrl+C while the spinner shows it packing, exits with 130 and leaves nothing behind [claim:create-weft-readme-nothing-left] [claim:tsdoc-cw-cli-interrupt]',
    async () => {
      const project = path.join(work, 'sub', 'stopped-agent');
      const command = `stty cols 100 rows 30; exec '${process.execPath}' '${CLI}' '${project}' --model scripted --memory memory --skip-install`;
      const child = spawn('script', ['--quiet', '--return', '--command', command, '/dev/null'], {
        cwd: PACKAGE_DIR,
        env: { ...process.env, TERM: 'xterm', npm_config_user_agent: 'npm/10.9.0' },
      });
      let screen = '';
      let pressed = false;
      child.stdout.on('data', (chunk: Buffer) => {
        screen += stripVTControlCharacters(chunk.toString());
        // The terminal sends SIGINT to the command and to the npm it runs to pack.
        if (!pressed && screen.includes('Packing')) pressed = child.stdin.write('\x03');
      });
      const code = await new Promise<number | null>((resolve, reject) => {
        const deadline = setTimeout(() => reject(new Error(`no exit in 60 s: ${screen}`)), MINUTE);
        child.once('exit', (exitCode) => {
          clearTimeout(deadline);
          resolve(exitCode);
        });
      }).finally(() => child.kill('SIGKILL'));
      expect(screen).toContain('create-weft: interrupted by SIGINT');
      expect(screen).toContain('Nothing was written.');
      expect(code).toBe(130);
      expect(await readdir(work)).toEqual([]);
    },
    2 * MINUTE,
  );
});
