/**
 * The Scaling out guide's local route, followed as written: its shell commands are read from the
 * page's "Run two instances on one machine" section and run in order against a real PostgreSQL
 * server (started by the test helper, standing in for the page's `initdb` and `pg_ctl` block,
 * which PostgreSQL refuses to run as root, as CI does). The only changes to the page's commands
 * are free ports for 8787 and 8788, and the pid the first instance printed for `<pid>`.
 *
 * The Compose route needs a container engine; tests/scaffold/scaling-out-image.test.ts follows
 * its Dockerfile without one and starts the image it makes.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { PostgresMemoryProvider } from '@weft/memory-postgres';
import { readSettings } from './settings.js';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import {
  freePort,
  startPostgres,
  type PostgresServer,
} from '@weft-internal/test-support/postgres-server';

const ROOT = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../..',
);
const PAGE = path.join(ROOT, 'docs/guides/scaling-out.md');
const START_MS = 60_000;

let server: PostgresServer;
let databaseUrl = '';

beforeAll(async () => {
  server = await startPostgres();
  databaseUrl = await server.createDatabase('scaling_out_local');
}, 120_000);

afterAll(async () => {
  await server?.destroy();
}, 120_000);

/** The commands of the page's ```sh blocks in one section, a line each, comments dropped. */
function sectionCommands(markdown: string, heading: string): string[] {
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`the page has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  const section = markdown.slice(start, end < 0 ? undefined : end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)]
    .flatMap((match) => (match[1] ?? '').split('\n'))
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'));
}

/** A process started by a shell command, with what it printed so far. */
class Started {
  readonly child: ChildProcess;
  output = '';
  readonly exit: Promise<void>;

  constructor(command: string, env: NodeJS.ProcessEnv) {
    // Its own process group, so that cleaning up ends npm, its shell and node together.
    this.child = spawn('sh', ['-c', command], {
      cwd: ROOT,
      env,
      detached: true,
    });
    this.child.stdout?.on(
      'data',
      (chunk: Buffer) => (this.output += chunk.toString()),
    );
    this.child.stderr?.on(
      'data',
      (chunk: Buffer) => (this.output += chunk.toString()),
    );
    this.exit = new Promise((resolve) =>
      this.child.once('exit', () => resolve()),
    );
  }

  /** Waits until the output matches, or fails with the output after `ms`. */
  async waitFor(pattern: RegExp, ms: number): Promise<RegExpExecArray> {
    const deadline = Date.now() + ms;
    for (;;) {
      const match = pattern.exec(this.output);
      if (match) return match;
      if (Date.now() > deadline || this.child.exitCode !== null) {
        throw new Error(
          `no ${pattern} within ${ms} ms; the process printed:\n${this.output}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Ends the whole group: SIGTERM, then SIGKILL if it has not exited within 10 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const group = -(this.child.pid as number);
    try {
      process.kill(group, 'SIGTERM');
    } catch {
      return;
    }
    const exited = await Promise.race([
      this.exit.then(() => true),
      new Promise<boolean>((resolve) =>
        setTimeout(() => resolve(false), 10_000),
      ),
    ]);
    if (!exited) process.kill(group, 'SIGKILL');
  }
}

async function sh(command: string, env: NodeJS.ProcessEnv): Promise<string> {
  return (
    await runCommand('sh', ['-c', command], {
      cwd: ROOT,
      env,
      timeoutMs: 15_000,
    })
  ).stdout;
}

describe('the Scaling out guide, on one machine', () => {
  it('runs two instances by the page’s commands, and the second finishes the task of the first after it is killed [claim:task-crash-coordinator-takes-over] [claim:scaling-local-example] [claim:scaling-local-no-key] [claim:scaling-local-from-clone] [claim:scaling-local-listening] [claim:scaling-local-accepted] [claim:scaling-local-takeover] [claim:scaling-local-answer] [claim:scaling-local-test] [claim:scaling-keeps-id] [claim:scaling-local-ctrl-c-drains]', async () => {
    const commands = sectionCommands(
      readFileSync(PAGE, 'utf8'),
      'Run two instances on one machine',
    );
    const instanceLines = commands.filter((line) =>
      line.includes('npm run example:scaling-out'),
    );
    const postLine = commands.find(
      (line) => line.startsWith('curl') && line.includes('POST'),
    );
    const killLine = commands.find((line) => line.startsWith('kill -9'));
    const answersLine = commands.find(
      (line) => line.startsWith('curl') && line.endsWith('/answers'),
    );
    expect(instanceLines).toHaveLength(2);
    expect(postLine).toContain(':8787/');
    expect(killLine).toContain('<pid>');
    expect(answersLine).toContain(':8788/');
    // The page's order: instances, then the message, the kill and the answers.
    const order = [instanceLines[1], postLine, killLine, answersLine].map(
      (line) => commands.indexOf(line as string),
    );
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const ports = new Map([
      ['8787', String(await freePort())],
      ['8788', String(await freePort())],
    ]);
    const local = (line: string): string =>
      line.replace(/\b(8787|8788)\b/g, (port) => ports.get(port) as string);
    // As `export DATABASE_URL=...` in each terminal.
    const env = cleanEnv({ DATABASE_URL: databaseUrl });

    const [first, second] = instanceLines.map(
      (line) => new Started(local(line), env),
    ) as [Started, Started];
    try {
      const listening = /Instance (\S+) \(pid (\d+)\) listening on (\S+)/;
      const [, firstName, firstPid, firstUrl] = await first.waitFor(
        listening,
        START_MS,
      );
      const [, secondName, , secondUrl] = await second.waitFor(
        listening,
        START_MS,
      );
      expect([firstName, secondName]).toEqual(['a', 'b']);
      expect(firstUrl).toBe(`http://127.0.0.1:${ports.get('8787')}`);
      expect(secondUrl).toBe(`http://127.0.0.1:${ports.get('8788')}`);

      const { taskId } = JSON.parse(
        await sh(local(postLine as string), env),
      ) as {
        taskId: string;
      };
      expect(taskId).toMatch(/^[0-9a-f-]{36}$/);

      const killedAt = Date.now();
      await sh(
        local((killLine as string).replace('<pid>', firstPid as string)),
        env,
      );
      await first.exit;
      // The instance's node process died of the signal, before its answer was written.
      expect(first.output).not.toContain('"status":"completed"');

      // The survivor says it took the task over, runs it, and shows the answer it wrote.
      const [, resumedAt] = await second.waitFor(
        new RegExp(
          `"time":(\\d+)[^\\n]*"taskId":"${taskId}"[^\\n]*"msg":"resuming a task"`,
        ),
        10_000,
      );
      // "Within about a second": the survivor sweeps every second. The bound leaves room for a
      // loaded machine, as the failover test's does, and fails a takeover that waits for more.
      expect(Number(resumedAt) - killedAt).toBeLessThan(3_000);
      const deadline = Date.now() + 30_000;
      let answers: unknown[] = [];
      while (answers.length === 0) {
        if (Date.now() > deadline)
          throw new Error(`no answer within 30 s:\n${second.output}`);
        await new Promise((resolve) => setTimeout(resolve, 500));
        answers = JSON.parse(
          await sh(local(answersLine as string), env),
        ) as unknown[];
      }
      expect(answers).toEqual([
        { taskId, message: 'My order has not arrived', answeredBy: 'b' },
      ]);

      // Ctrl+C while the second instance answers one more message and holds another queued
      // behind it (the same ticket, so it waits): both finish before it exits. A terminal sends
      // SIGINT to its foreground group, npm and node alike.
      const postToSecond = local(
        (postLine as string).replace(':8787/', ':8788/'),
      );
      const more = JSON.parse(await sh(postToSecond, env)) as {
        taskId: string;
      };
      const queued = JSON.parse(await sh(postToSecond, env)) as {
        taskId: string;
      };
      await second.waitFor(
        new RegExp(
          `"taskId":"${more.taskId}"[^\\n]*"msg":"answering the ticket"`,
        ),
        10_000,
      );
      // The second message waits behind the first when the stop begins.
      expect(second.output).not.toMatch(
        new RegExp(
          `"taskId":"${queued.taskId}"[^\\n]*"msg":"answering the ticket"`,
        ),
      );
      process.kill(-(second.child.pid as number), 'SIGINT');
      await second.waitFor(/"msg":"runtime stopped"/, 45_000);
      expect(second.output).toMatch(
        /"signal":"SIGINT","msg":"signal received; stopping"/,
      );
      expect(second.output).not.toContain('drain timed out');
      const memory = new PostgresMemoryProvider({
        connectionString: databaseUrl,
      });
      await memory.init();
      try {
        const stored = await memory.query({
          space: 'ticket-1042',
          kind: 'answer',
          order: 'asc',
        });
        expect(stored.map((answer) => [answer.taskId, answer.content])).toEqual(
          [
            [taskId, { message: 'My order has not arrived', answeredBy: 'b' }],
            [
              more.taskId,
              { message: 'My order has not arrived', answeredBy: 'b' },
            ],
            [
              queued.taskId,
              { message: 'My order has not arrived', answeredBy: 'b' },
            ],
          ],
        );
      } finally {
        await memory.shutdown();
      }
    } finally {
      await Promise.all([first.stop(), second.stop()]);
    }
  }, 180_000);
});

describe('the scaling-out instance’s settings', () => {
  it('reads DATABASE_URL, PORT, HOST, INSTANCE and WORK_MS, with PORT 8787, HOST 127.0.0.1 and WORK_MS 2000 by default [claim:scaling-local-settings]', () => {
    const url = 'postgres://weft@127.0.0.1:5433/postgres';
    expect(readSettings({ DATABASE_URL: url })).toMatchObject({
      databaseUrl: url,
      port: 8787,
      host: '127.0.0.1',
      workMs: 2_000,
    });
    expect(
      readSettings({
        DATABASE_URL: url,
        PORT: '9000',
        HOST: '0.0.0.0',
        INSTANCE: 'b',
        WORK_MS: '10000',
      }),
    ).toEqual({
      databaseUrl: url,
      port: 9000,
      host: '0.0.0.0',
      instance: 'b',
      workMs: 10_000,
    });
    expect(() => readSettings({ DATABASE_URL: url, WORK_MS: 'soon' })).toThrow(
      'WORK_MS: "soon" is not a whole number from 0 to 600000',
    );
  });

  it('stops before anything starts, in one line naming the variable, when DATABASE_URL is missing', async () => {
    const env = cleanEnv();
    delete env.DATABASE_URL;
    const instance = new Started('npm run --silent example:scaling-out', env);
    try {
      const exited = await Promise.race([
        instance.exit.then(() => true),
        new Promise<boolean>((resolve) =>
          setTimeout(() => resolve(false), START_MS),
        ),
      ]);
      expect(exited).toBe(true);
      expect(instance.child.exitCode).toBe(1);
      expect(instance.output.trim()).toBe(
        'Cannot start the instance. DATABASE_URL: set it to the shared database, such as postgres://weft@127.0.0.1:5433/postgres',
      );
    } finally {
      await instance.stop();
    }
  }, 90_000);
});

describe('the Scaling out guide, with Docker Compose', () => {
  const compose = parse(
    readFileSync(path.join(ROOT, 'examples/scaling-out/compose.yaml'), 'utf8'),
  ) as {
    services: {
      agent: {
        build: { context: string; dockerfile: string };
        ports: string[];
      };
    };
  };
  const composeDir = path.join(ROOT, 'examples/scaling-out');

  it('builds the agent from the clone’s root with the Dockerfile beside compose.yaml, and publishes a port per instance [claim:scaling-compose-image] [claim:scaling-compose-ports]', () => {
    const { build, ports } = compose.services.agent;
    expect(path.resolve(composeDir, build.context)).toBe(ROOT);
    expect(path.resolve(ROOT, build.dockerfile)).toBe(
      path.join(composeDir, 'Dockerfile'),
    );
    // Host ports 8787 and 8788, as the page's local route uses, each to the image's 8787, and
    // only on the loopback interface, as the runtime's own default host keeps it.
    expect(ports).toEqual(['127.0.0.1:8787-8788:8787']);
    const ignored = readFileSync(
      path.join(composeDir, 'Dockerfile.dockerignore'),
      'utf8',
    );
    // The build stage installs its own dependencies; this machine's must not be copied in.
    expect(ignored.split('\n')).toContain('**/node_modules');
  });
});
