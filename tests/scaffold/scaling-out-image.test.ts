/**
 * The Scaling out guide's Compose image, followed without a container engine: the Dockerfile
 * that compose.yaml names is rehearsed from this clone (its build context) with the ignore file
 * beside it, and the image's command is started with the compose file's environment against a
 * real PostgreSQL server. It takes the guide's `curl`, answers, and drains on SIGTERM.
 *
 * The build stage's install is the cost: the four packages' dependencies, offline from the npm
 * cache where it holds them, never from this clone's node_modules (the ignore file keeps them out).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { access, mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { parseDockerfile } from '../../packages/create-weft/test/support/dockerfile';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import {
  freePort,
  startPostgres,
  type PostgresServer,
} from '@weft-internal/test-support/postgres-server';
import { filesIn, ignoreRule, rehearseImage, type RehearsedImage } from './support/image-rehearsal';

const root = path.resolve(__dirname, '../..');
const exampleDir = path.join(root, 'examples/scaling-out');
const MINUTE = 60_000;

interface Compose {
  services: {
    agent: {
      build: { context: string; dockerfile: string };
      environment: Record<string, string>;
      stop_grace_period: string;
    };
  };
}
const compose = parse(readFileSync(path.join(exampleDir, 'compose.yaml'), 'utf8')) as Compose;
const agent = compose.services.agent;
const context = path.resolve(exampleDir, agent.build.context);
const dockerfile = path.resolve(context, agent.build.dockerfile);

/** The guide's `curl` that posts a message to the first instance (its local route). */
function guidePost(): string {
  const page = readFileSync(path.join(root, 'docs/guides/scaling-out.md'), 'utf8');
  const line = page.split('\n').find((text) => text.startsWith('curl') && text.includes('-X POST'));
  if (!line) throw new Error('the guide has no `curl -X POST` line');
  return line;
}

/** The image's command, running, with what it printed so far. */
class Instance {
  readonly child: ChildProcess;
  output = '';
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;

  constructor(image: RehearsedImage, env: NodeJS.ProcessEnv) {
    const [, ...args] = image.cmd;
    this.child = spawn(process.execPath, args, { cwd: image.appDir, env });
    this.child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (this.output += chunk));
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code, signal) => resolve({ code, signal })),
    );
  }

  /** Waits until the output matches `count` times, or fails with the output after `ms`. */
  async waitFor(pattern: RegExp, ms: number, count = 1): Promise<RegExpExecArray> {
    const global = new RegExp(pattern.source, 'g');
    const deadline = Date.now() + ms;
    for (;;) {
      const matches = [...this.output.matchAll(global)];
      if (matches.length >= count) return matches[count - 1] as RegExpExecArray;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(`no ${pattern} (x${count}) within ${ms} ms; it printed:\n${this.output}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  /** Resolves with how it exited, or fails with its output after `ms`. */
  async exit(ms: number): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new Error(`it did not exit within ${ms} ms; it printed:\n${this.output}`)),
        ms,
      );
    });
    try {
      return await Promise.race([this.exited, late]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** Resolves once a TCP connection to the address opens; fails after 5 s. */
function connects(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port, timeout: 5_000 });
    socket.once('connect', () => {
      socket.destroy();
      resolve();
    });
    socket.once('timeout', () => {
      socket.destroy();
      reject(new Error(`no connection to ${host}:${port} within 5 s`));
    });
    socket.once('error', reject);
  });
}

describe('the Scaling out guide’s Compose image', () => {
  let work = '';
  let server: PostgresServer | undefined;
  let databaseUrl = '';
  let image: RehearsedImage;
  // Offline from the npm cache where it can, as a Docker build cache would spare the network.
  const env = cleanEnv({
    npm_config_update_notifier: 'false',
    npm_config_audit: 'false',
    npm_config_fund: 'false',
    npm_config_prefer_offline: 'true',
  });

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'weft-scaling-image-'));
    server = await startPostgres();
    databaseUrl = await server.createDatabase('scaling_out_image');
    image = await rehearseImage(
      { dockerfile, context, ignoreFile: `${dockerfile}.dockerignore` },
      work,
      env,
      5 * MINUTE,
    );
  }, 8 * MINUTE);

  afterAll(async () => {
    await server?.destroy();
    if (work) await rm(work, { recursive: true, force: true });
  }, 2 * MINUTE);

  it('installs only what the instance imports, and the image holds one bundled file run by node as the node user [claim:scaling-compose-image-slim]', async () => {
    // The build stage's install: the four packages' dependencies, none of the docs site's.
    const lock = JSON.parse(
      await readFile(path.join(work, 'image-build/app/node_modules/.package-lock.json'), 'utf8'),
    ) as { packages: Record<string, { link?: boolean }> };
    const installed = Object.entries(lock.packages)
      .filter(([, entry]) => !entry.link)
      .map(([key]) => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(installed).toEqual(expect.arrayContaining(['pg', 'express', 'cors', 'pino', 'zod']));
    for (const name of ['@docusaurus/core', 'react', 'typescript', 'tsx', 'vitest']) {
      expect(installed).not.toContain(name);
    }
    expect(installed.length).toBeLessThan(200);

    // The image: the bundle and its source map, no node_modules, sources or package.json.
    expect(await filesIn(image.appDir)).toEqual(['dist', 'dist/main.mjs', 'dist/main.mjs.map']);
    const { size } = await stat(path.join(image.appDir, 'dist/main.mjs'));
    // About 2 MB, as the guide says.
    expect(size).toBeGreaterThan(1024 * 1024);
    expect(size).toBeLessThan(3 * 1024 * 1024);
    expect(image.cmd).toEqual(['node', '--enable-source-maps', 'dist/main.mjs']);
    expect(image.env).toEqual({ NODE_ENV: 'production', HOST: '0.0.0.0', PORT: '8787' });
    const finalStage = parseDockerfile(await readFile(dockerfile, 'utf8')).filter(
      ({ stage }, _, all) => stage === Math.max(...all.map((each) => each.stage)),
    );
    expect(finalStage.filter(({ keyword }) => keyword === 'USER').map(({ args }) => args)).toEqual([
      'node',
    ]);
  });

  it('leaves the clone’s installed and built files, caches and history out of the build', async () => {
    const rules = (await readFile(`${dockerfile}.dockerignore`, 'utf8'))
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '' && !line.startsWith('#'))
      .map(ignoreRule);
    const ignored = (relative: string) => rules.some((rule) => rule(relative));
    for (const relative of [
      '.git',
      'node_modules',
      'packages/core/node_modules',
      'packages/core/dist',
      'build',
      '.docusaurus',
      '.cache',
      'packages/mcp-docs/.cache',
      'weft-core-0.1.0.tgz',
      'vendor/weft-core-0.1.0.tgz',
    ]) {
      expect(ignored(relative), relative).toBe(true);
    }
    for (const relative of [
      'package.json',
      'package-lock.json',
      'packages/core/package.json',
      'packages/core/src/index.ts',
      'examples/scaling-out/main.ts',
    ]) {
      expect(ignored(relative), relative).toBe(false);
    }
    // This clone's own history stayed out of the rehearsed build.
    await expect(access(path.join(work, 'image-build/app/.git'))).rejects.toThrow();
  });

  it(
    'starts with the compose file’s environment, takes the guide’s curl and answers on every interface, then drains on SIGTERM and exits 0 [claim:scaling-compose-image] [claim:scaling-compose-rehearsed] [claim:scaling-compose-drain]',
    async () => {
      // compose.yaml points the agents at its `postgres` service; here that is the test's server.
      expect(new URL(agent.environment.DATABASE_URL as string).hostname).toBe('postgres');
      const port = String(await freePort());
      // As `docker run`: the image's ENV, then the compose file's environment; a free port
      // stands in for the container's own 8787.
      const instanceEnv = cleanEnv({
        ...image.env,
        ...agent.environment,
        DATABASE_URL: databaseUrl,
        PORT: port,
      });
      delete instanceEnv.WEFT_LOG_LEVEL;
      const workMs = Number(agent.environment.WORK_MS);
      const instance = new Instance(image, instanceEnv);
      try {
        const [, , pid] = await instance.waitFor(
          /Instance (\S+) \(pid (\d+)\) listening on (\S+)/,
          MINUTE,
        );
        // The CMD's own process serves and gets the signals: no npm or shell in between.
        expect(Number(pid)).toBe(instance.child.pid);
        // HOST=0.0.0.0: reached on this machine's other addresses too, as a published port
        // reaches the container's own address.
        const outside = Object.values(networkInterfaces())
          .flat()
          .find(
            (address) => address !== undefined && !address.internal && address.family === 'IPv4',
          );
        if (outside) await connects(outside.address, Number(port));

        const post = guidePost().replace(/\b8787\b/, port);
        const first = JSON.parse(
          (await runCommand('sh', ['-c', post], { cwd: work, env: instanceEnv, timeoutMs: 15_000 }))
            .stdout,
        ) as { taskId: string };
        expect(first.taskId).toMatch(/^[0-9a-f-]{36}$/);
        const deadline = Date.now() + workMs + 30_000;
        let answers: { taskId: string; message: string }[] = [];
        while (!answers.some(({ taskId }) => taskId === first.taskId)) {
          if (Date.now() > deadline) {
            throw new Error(`no answer within ${workMs + 30_000} ms:\n${instance.output}`);
          }
          await new Promise((resolve) => setTimeout(resolve, 500));
          const response = await fetch(`http://127.0.0.1:${port}/tickets/1042/answers`, {
            signal: AbortSignal.timeout(10_000),
          });
          answers = (await response.json()) as typeof answers;
        }
        expect(answers).toEqual([
          {
            taskId: first.taskId,
            message: 'My order has not arrived',
            answeredBy: expect.any(String),
          },
        ]);

        // A second message, still running when `docker stop` sends SIGTERM: it finishes first.
        const second = JSON.parse(
          (await runCommand('sh', ['-c', post], { cwd: work, env: instanceEnv, timeoutMs: 15_000 }))
            .stdout,
        ) as { taskId: string };
        await instance.waitFor(/answering the ticket/, 30_000, 2);
        instance.child.kill('SIGTERM');
        // Within the compose file's stop_grace_period, after which Docker would SIGKILL.
        const graceMs = Number.parseInt(agent.stop_grace_period, 10) * 1_000;
        expect(await instance.exit(graceMs)).toEqual({ code: 0, signal: null });
        expect(instance.output).toContain('signal received; stopping');

        const memory = new PostgresMemoryProvider({ connectionString: databaseUrl });
        await memory.init();
        try {
          const stored = await memory.query({ space: 'ticket-1042', kind: 'answer', limit: 10 });
          expect(stored.map(({ taskId }) => taskId).sort()).toEqual(
            [first.taskId, second.taskId].sort(),
          );
        } finally {
          await memory.shutdown();
        }
      } finally {
        if (instance.child.exitCode === null && instance.child.signalCode === null) {
          instance.child.kill('SIGKILL');
        }
      }
    },
    3 * MINUTE,
  );
});
