/**
 * Getting started's commands in the clone, followed as written: "Run the example" starts the
 * example's entry point with `node --import tsx` from the clone's root and sends it the `curl` of
 * "Run it";
 * "Switch to a real model" starts the second entry point without a key, on Ollama, and with a key
 * exported as the page does.
 * Each agent is a process of its own, stopped as Ctrl+C stops it. The only changes to the page:
 * a free port in place of 8787 (PORT), and a stand-in chat-completions server on 127.0.0.1 in
 * place of Ollama and OpenAI (OLLAMA_BASE_URL, OPENAI_BASE_URL); `ollama pull` is not run.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeOpenAI } from '../../tests/scaffold/support/fake-openai.js';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import {
  sectionCommands,
  StartedCommand,
} from '../../tests/support/page-commands.js';
import { freePort } from '@weft-internal/test-support/postgres-server';
import { DEFAULT_PORT } from './port.js';

const ROOT = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../..',
);
const PAGE = path.join(ROOT, 'docs/getting-started.md');
const START_MS = 60_000;

/** The page's `curl` of "Run it", sent to `port` instead of 8787. */
async function curlHello(port: string, env: NodeJS.ProcessEnv) {
  const curl = sectionCommands(PAGE, 'Run it').find((line) =>
    line.startsWith('curl '),
  );
  expect(curl).toContain('http://127.0.0.1:8787/messages');
  const { stdout } = await runCommand(
    'sh',
    ['-c', (curl as string).replace(/\b8787\b/g, port)],
    { cwd: ROOT, env, timeoutMs: 30_000 },
  );
  return JSON.parse(stdout) as Record<string, unknown>;
}

/**
 * Plays Ctrl+C, a SIGINT to the process group as a terminal sends it, and waits for the runtime
 * to say it stopped, from the process that started it.
 */
async function pressCtrlC(
  agent: StartedCommand,
  runtime: number,
): Promise<void> {
  agent.signal('SIGINT');
  await agent.waitFor(/"msg":"runtime stopped"/, 15_000);
  expect(await agent.exited(15_000)).toBe(true);
  expect(agent.output).toContain('"msg":"signal received; stopping"');
  expect(new Set(agent.logPids())).toEqual(new Set([runtime]));
}

// The page's commands are a POSIX shell's (sh, curl), as the page shows them.
describe.skipIf(process.platform === 'win32')(
  'Getting started’s commands, in the clone',
  () => {
    it("runs the example's entry point from the clone, on 8787 unless PORT moves it, in one process that Ctrl+C stops gracefully, and not beside an agent that holds its port, which it says in one line [claim:gs-example-port] [claim:gs-example-port-taken] [claim:gs-example-runs] [claim:gs-example-one-process] [claim:gs-page-commands-test]", async () => {
      const [start, ...rest] = sectionCommands(PAGE, 'Run the example');
      expect(start).toBe(
        'node --conditions=weft-source --import tsx examples/getting-started/main.ts',
      );
      expect(rest).toEqual([]);
      expect(DEFAULT_PORT).toBe(8787);

      // A port another agent holds (the generated one, left running): the example cannot start.
      const holder = createServer();
      await new Promise<void>((resolve) =>
        holder.listen(0, '127.0.0.1', resolve),
      );
      const held = String((holder.address() as AddressInfo).port);
      const blocked = new StartedCommand(start as string, {
        cwd: ROOT,
        env: cleanEnv({ PORT: held }),
      });
      try {
        expect(await blocked.exited(START_MS)).toBe(true);
        expect(await blocked.exit).toBe(1);
        // One line on stderr, naming the address and the setting that moves the agent.
        expect(blocked.stderr.trimEnd().split('\n')).toEqual([
          expect.stringMatching(
            new RegExp(
              `^Cannot start the agent\\. ServerManager: cannot listen on 127\\.0\\.0\\.1:${held}: .*EADDRINUSE.*\\[WEFT_LISTEN_FAILED\\] Stop the agent that holds this port, or set PORT to a free one\\.$`,
            ),
          ),
        ]);
        // Besides it, the runtime's own JSON lines on stdout: the start failed, and it stopped.
        expect(blocked.output).toContain(
          '"msg":"runtime failed to start; rolling back"',
        );
        expect(blocked.output).toContain('"msg":"runtime stopped"');
      } finally {
        await blocked.stop();
        await new Promise<void>((resolve) => holder.close(() => resolve()));
      }

      const port = String(await freePort());
      const env = cleanEnv({ PORT: port });
      const agent = new StartedCommand(start as string, { cwd: ROOT, env });
      try {
        const [, url] = await agent.waitFor(
          /Agent listening on (http:\/\/\S+); press Ctrl\+C to stop\./,
          START_MS,
        );
        expect(url).toBe(`http://127.0.0.1:${port}`);
        // "answers the same `curl` command with the same reply".
        expect(await curlHello(port, env)).toEqual({
          taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
          status: 'completed',
          reply: 'You said "Hello". Your Weft agent is listening.',
        });
        await pressCtrlC(agent, await agent.loggingProcess());
      } finally {
        await agent.stop();
      }
    }, 180_000);

    describe('Switch to a real model', () => {
      let model: Awaited<ReturnType<typeof startFakeOpenAI>>;

      beforeAll(async () => {
        model = await startFakeOpenAI();
      });

      afterAll(async () => {
        await model?.close();
      });

      it('starts the second entry point on Ollama when no key is set, asks for the model the page pulls, with no key, and the reply comes from the model [claim:gs-page-commands-test]', async () => {
        const commands = sectionCommands(PAGE, 'Switch to a real model');
        const pull = commands.find((line) => line.startsWith('ollama pull '));
        const start = commands.find((line) => line.startsWith('node '));
        expect(pull).toBe('ollama pull llama3.1:8b');
        expect(start).toBe(
          'node --conditions=weft-source --import tsx examples/getting-started/main-real-model.ts',
        );
        // The start comes right after the pull, as one types them, and before the OpenAI
        // commands, as the page gives them.
        expect(commands.indexOf(start as string)).toBe(
          commands.indexOf(pull as string) + 1,
        );
        expect(
          commands.findIndex((line) =>
            line.startsWith('export OPENAI_API_KEY='),
          ),
        ).toBeGreaterThan(commands.indexOf(start as string));
        const pulled = (pull as string).split(' ')[2];

        const port = String(await freePort());
        // The stand-in answers where Ollama would; no key is set, as on a machine without one.
        const env = cleanEnv({ PORT: port, OLLAMA_BASE_URL: model.baseUrl });
        delete env.OPENAI_API_KEY;
        delete env.OLLAMA_MODEL;
        const before = model.requests.length;
        const agent = new StartedCommand(start as string, { cwd: ROOT, env });
        try {
          await agent.waitFor(
            /Agent on "ollama" listening on http:\/\/127\.0\.0\.1:\d+/,
            START_MS,
          );
          expect(await curlHello(port, env)).toMatchObject({
            status: 'completed',
            reply: 'Fake model heard: Hello',
          });
          const requests = model.requests.slice(before);
          // The plan and the reply.
          expect(requests).toHaveLength(2);
          for (const request of requests) {
            expect(request.model).toBe(pulled);
            expect(request.authorization).toBeUndefined();
          }
          await pressCtrlC(agent, await agent.loggingProcess());
        } finally {
          await agent.stop();
        }
      }, 180_000);

      it('starts the second entry point on the key exported as the page does, and the reply comes from the model [claim:gs-page-commands-test]', async () => {
        const commands = sectionCommands(PAGE, 'Switch to a real model');
        const exportKey = commands.find((line) =>
          line.startsWith('export OPENAI_API_KEY='),
        );
        const start = commands.at(-1);
        expect(exportKey).toBe('export OPENAI_API_KEY=sk-...');
        expect(start).toBe(
          'node --conditions=weft-source --import tsx examples/getting-started/main-real-model.ts',
        );
        expect(commands.indexOf(exportKey as string)).toBe(commands.length - 2);

        const port = String(await freePort());
        const env = cleanEnv({ PORT: port, OPENAI_BASE_URL: model.baseUrl });
        delete env.OPENAI_API_KEY;
        // The stand-in is shared with the Ollama case: only this agent's requests count.
        const before = model.requests.length;
        // As typed in one terminal: the export, then the start.
        const agent = new StartedCommand(`${exportKey}\n${start}`, {
          cwd: ROOT,
          env,
        });
        try {
          await agent.waitFor(
            /Agent on "openai" listening on http:\/\/127\.0\.0\.1:\d+/,
            START_MS,
          );
          expect(await curlHello(port, env)).toMatchObject({
            status: 'completed',
            reply: 'Fake model heard: Hello',
          });
          const requests = model.requests.slice(before);
          expect(requests.length).toBeGreaterThanOrEqual(2);
          for (const request of requests) {
            expect(request.authorization).toBe('Bearer sk-...');
          }
          await pressCtrlC(agent, await agent.loggingProcess());
        } finally {
          await agent.stop();
        }
      }, 180_000);

      it('stops the start at once, naming the provider, when no Ollama answers [claim:gs-health-on-start] [claim:trouble-real-model-ollama] [claim:gs-page-commands-test]', async () => {
        const start = sectionCommands(PAGE, 'Switch to a real model').find(
          (line) => line.startsWith('node '),
        );
        // A port that was free a moment ago: nothing listens there.
        const nobody = await freePort();
        const env = cleanEnv({
          PORT: '0',
          OLLAMA_BASE_URL: `http://127.0.0.1:${nobody}/v1`,
        });
        delete env.OPENAI_API_KEY;
        const agent = new StartedCommand(start as string, { cwd: ROOT, env });
        try {
          expect(await agent.exited(START_MS)).toBe(true);
          expect(await agent.exit).toBe(1);
          // One line on stderr, without a stack trace.
          expect(agent.stderr.trimEnd().split('\n')).toEqual([
            expect.stringMatching(
              /^Cannot start the agent\. Runtime\.start: model provider "ollama" is not healthy: checkHealth\(\) answered false\. .*\[WEFT_START_FAILED\]$/,
            ),
          ]);
          // Besides it, the runtime's own JSON lines on stdout.
          expect(agent.output).toContain(
            '"msg":"runtime failed to start; rolling back"',
          );
          expect(agent.output).toContain('"msg":"runtime stopped"');
        } finally {
          await agent.stop();
        }
      }, 120_000);
    });
  },
);
