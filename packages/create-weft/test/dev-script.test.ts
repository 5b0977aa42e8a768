/**
 * The generated project's entry point and its `npm run dev` script, run with the workspace's
 * packages and tsx: what the entry prints, and what makes the script restart. The Getting started
 * page tells a reader who edits `.env` to restart by hand, because tsx's watcher follows the
 * files the entry imports and leaves dot files such as `.env` alone.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createProject } from '../src/create-project.js';

const ROOT_BIN = fileURLToPath(new URL('../../../node_modules/.bin', import.meta.url));
const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

let work = '';
let child: ChildProcess | undefined;

beforeEach(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'create-weft-dev-'));
});

afterEach(async () => {
  // The script runs in a shell, which runs tsx's watcher, which runs the entry: end the group.
  if (child?.pid !== undefined && child.exitCode === null) {
    const exited = new Promise((resolve) => child?.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
  child = undefined;
  await rm(work, { recursive: true, force: true });
});

/** Resolves once `output()` holds `count` matches of `pattern`; rejects after `timeoutMs`. */
async function waitForCount(
  output: () => string,
  pattern: RegExp,
  count: number,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((output().match(pattern) ?? []).length < count) {
    if (Date.now() > deadline) {
      throw new Error(`${count} × ${pattern} not seen in ${timeoutMs} ms; output:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe('npm run dev in a generated project', () => {
  it('restarts when a file the entry imports changes, not when .env changes, and reads .env again on the restart [claim:gs-dev-restarts] [claim:gs-dev-env-restart]', async () => {
    const directory = path.join(work, 'my-agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    const dev = manifest.scripts.dev;
    expect(dev).toMatch(/^tsx watch src\/main\.ts$/);
    // A stand-in entry with no dependency to install, importing the project's own env.ts (and,
    // through it, port.ts) as src/main.ts does; it stays up, as the agent does.
    await writeFile(
      path.join(directory, 'src', 'main.ts'),
      [
        "import { loadEnvFile, readPort } from './env.js';",
        'loadEnvFile();',
        'console.log(`started on ${readPort(process.env)}`);',
        'setInterval(() => {}, 60_000);',
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${ROOT_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
    };
    delete env.PORT;
    let output = '';
    child = spawn('sh', ['-c', dev as string], { cwd: directory, env, detached: true });
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const started = /started on (\d+)/g;

    await waitForCount(() => output, started, 1, 30_000);
    expect(output).toContain('started on 8787');

    // .env is not watched: the running entry keeps the port it started with.
    await writeFile(path.join(directory, '.env'), 'PORT=8790\n');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(output.match(started)).toHaveLength(1);

    // An imported file is: the restart reads .env again.
    await appendFile(path.join(directory, 'src', 'port.ts'), '\n// Edited while dev runs.\n');
    await waitForCount(() => output, started, 2, 30_000);
    expect([...output.matchAll(started)].map((match) => match[1])).toEqual(['8787', '8790']);
  }, 90_000);
  it('keeps watching once the agent has stopped at start-up, until Ctrl+C, and does not start it again for an edit of .env [claim:gs-dev-failed-start-waits]', async () => {
    // Inside the repository, so the real entry finds the workspace's packages and tsx.
    await rm(work, { recursive: true, force: true });
    work = await mkdtemp(path.join(PACKAGE_DIR, '.dev-check-'));
    const directory = path.join(work, 'my-agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // Another program holds the agent's port, as the page's "port taken" case says.
    const holder = createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const { port } = holder.address() as AddressInfo;
    try {
      const env: NodeJS.ProcessEnv = {
        ...process.env,
        PATH: `${ROOT_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
        NODE_OPTIONS: '--conditions=weft-source',
        PORT: String(port),
        WEFT_LOG_LEVEL: 'silent',
      };
      let output = '';
      child = spawn('sh', ['-c', manifest.scripts.dev as string], {
        cwd: directory,
        env,
        detached: true,
      });
      child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
      const failed = /Cannot start the agent\./g;
      await waitForCount(() => output, failed, 1, 30_000);
      expect(output).toContain(`cannot listen on 127.0.0.1:${port}`);

      // The agent has stopped, but the script has not returned: its watcher waits for a change,
      // and an edited .env is not one.
      await writeFile(path.join(directory, '.env'), 'PORT=0\n');
      await new Promise((resolve) => setTimeout(resolve, 3_000));
      expect(child.exitCode).toBeNull();
      expect(output.match(failed)).toHaveLength(1);
      expect(output).not.toContain('Agent listening on');
    } finally {
      await new Promise<void>((resolve) => holder.close(() => resolve()));
    }
  }, 90_000);
  it('kills the agent 5 s after Ctrl+C, so a task still running then gets no answer [claim:gs-dev-ctrl-c-5s]', async () => {
    const directory = path.join(work, 'my-agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const manifest = JSON.parse(await readFile(path.join(directory, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    // A stand-in entry with no dependency to install: a server whose one request is a task that
    // answers 10 s after Ctrl+C, as a runtime draining a slow model call would.
    await writeFile(
      path.join(directory, 'src', 'main.ts'),
      [
        "import { createServer, type ServerResponse } from 'node:http';",
        'const waiting: ServerResponse[] = [];',
        'const server = createServer((_request, response) => waiting.push(response));',
        "server.listen(0, '127.0.0.1', () => {",
        '  const address = server.address();',
        "  console.log(`listening on ${typeof address === 'object' ? address?.port : ''}`);",
        '});',
        "process.on('SIGINT', () => {",
        "  console.log('stopping');",
        '  setTimeout(() => {',
        "    for (const response of waiting) response.end('answered');",
        "    console.log('stopped');",
        '    process.exit(0);',
        '  }, 10_000);',
        '});',
        '',
      ].join('\n'),
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PATH: `${ROOT_BIN}${path.delimiter}${process.env.PATH ?? ''}`,
    };
    let output = '';
    const dev = spawn('sh', ['-c', manifest.scripts.dev as string], {
      cwd: directory,
      env,
      detached: true,
    });
    child = dev;
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise((resolve) => dev.once('exit', resolve));
    await waitForCount(() => output, /listening on \d+/g, 1, 30_000);
    const port = /listening on (\d+)/.exec(output)?.[1];
    const answer = fetch(`http://127.0.0.1:${port}/messages`, { method: 'POST' }).then(
      async (response) => response.text(),
      () => 'no answer',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));

    // Ctrl+C: SIGINT to the terminal's foreground group (the shell, tsx's watcher, the entry).
    const pressed = Date.now();
    process.kill(-(dev.pid as number), 'SIGINT');
    await exited;
    const took = Date.now() - pressed;
    // Ended by the signal: nothing left for afterEach to stop.
    child = undefined;
    expect(output).toContain('stopping');
    expect(output).not.toContain('stopped');
    expect(await answer).toBe('no answer');
    expect(took).toBeGreaterThanOrEqual(4_500);
    expect(took).toBeLessThan(9_000);
  }, 90_000);
});

describe("the generated project's entry point", () => {
  it('prints where it listens, then a curl command that gets the reply [claim:gs-listening] [claim:gs-try-line]', async () => {
    // Inside the repository, so the project finds the workspace's packages and tsx.
    await rm(work, { recursive: true, force: true });
    work = await mkdtemp(path.join(PACKAGE_DIR, '.dev-check-'));
    const directory = path.join(work, 'my-agent');
    await createProject({ directory, model: 'scripted', memory: 'memory', source: 'registry' });
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: '0', WEFT_LOG_LEVEL: 'silent' };
    let output = '';
    child = spawn(
      process.execPath,
      ['--conditions=weft-source', '--import', 'tsx', 'src/main.ts'],
      { cwd: directory, env, detached: true },
    );
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitForCount(() => output, /^Try: .*$/gm, 1, 30_000);

    const [listening, tryLine] = output.trim().split('\n');
    expect(listening).toMatch(
      /^Agent listening on http:\/\/127\.0\.0\.1:\d+; press Ctrl\+C to stop\.$/,
    );
    const port = /:(\d+);/.exec(listening as string)?.[1];
    const curl = (tryLine as string).slice('Try: '.length);
    expect(curl).toMatch(new RegExp(`^curl -s -X POST http://127\\.0\\.0\\.1:${port}/messages `));
    const answer = await new Promise<string>((resolve, reject) => {
      const shell = spawn('sh', ['-c', curl], { cwd: directory });
      let text = '';
      shell.stdout.on('data', (chunk: Buffer) => (text += chunk.toString()));
      shell.once('error', reject);
      shell.once('exit', (code) =>
        code === 0 ? resolve(text) : reject(new Error(`curl exited with ${code}`)),
      );
    });
    expect(JSON.parse(answer)).toMatchObject({
      status: 'completed',
      reply: 'You said "Hello". Your Weft agent is listening.',
    });
  }, 60_000);
});
