/**
 * The tutorial's "Run it" section, followed as written: its commands are read from the page and
 * run in order from the clone's root, the entry point as a process of its own, the messages with
 * curl; then Ctrl+C (a SIGINT to the process group, as a terminal sends it), a second start,
 * and a third question that finds the conversation in the SQLite file. Then the exports of "Point
 * it at a real model" and the same start, typed in one shell. The only changes to the page: the
 * stand-in model server in place of Ollama (CHAT_BASE_URL) and of OpenAI (the exported address),
 * a free port in place of 8787 (CHAT_PORT) and the database in a temporary folder (CHAT_DB), so
 * nothing is left in the clone.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import {
  sectionCommands,
  StartedCommand,
} from '../../tests/support/page-commands.js';
import { freePort } from '@weft-internal/test-support/postgres-server';
import {
  startFakeChatServer,
  type FakeChatServer,
} from './fake-chat-server.js';

const ROOT = path.resolve(
  fileURLToPath(new URL('.', import.meta.url)),
  '../..',
);
const PAGE = path.join(ROOT, 'docs/tutorials/chat-assistant.md');
const START_MS = 60_000;
const LISTENING = /Chat assistant on (http:\/\/\S+) /;

// The page's commands are a POSIX shell's (sh, curl), as the page shows them.
describe.skipIf(process.platform === 'win32')(
  'the chat tutorial’s commands, from the clone',
  () => {
    let model: FakeChatServer;
    let directory = '';

    beforeAll(async () => {
      model = await startFakeChatServer();
      directory = await mkdtemp(path.join(tmpdir(), 'weft-chat-page-'));
    });

    afterAll(async () => {
      await model?.close();
      if (directory) await rm(directory, { recursive: true, force: true });
    });

    it('starts the agent, answers with the earlier message in view, and keeps the conversation across Ctrl+C and a new start [claim:tut-run-from-clone] [claim:tut-survives-restart] [claim:tut-page-commands-test] [claim:tut-main-prints-url]', async () => {
      const commands = sectionCommands(PAGE, 'Run it');
      const [start, ...messages] = commands;
      expect(start).toBe(
        'node --conditions=weft-source --import tsx examples/tutorial-chat/main.ts',
      );
      expect(messages).toHaveLength(2);
      for (const line of messages) {
        expect(line).toMatch(
          /^curl .*http:\/\/127\.0\.0\.1:8787\/conversations\/trip\/messages/,
        );
      }

      const port = String(await freePort());
      const local = (line: string) => line.replace(/\b8787\b/g, port);
      const env = cleanEnv({
        CHAT_BASE_URL: model.baseUrl,
        CHAT_PORT: port,
        CHAT_DB: path.join(directory, 'chat-memory.db'),
      });
      const curl = async (line: string) =>
        JSON.parse(
          (
            await runCommand('sh', ['-c', local(line)], {
              cwd: ROOT,
              env,
              timeoutMs: 30_000,
            })
          ).stdout,
        ) as { status: string; reply: string };

      const first = new StartedCommand(start as string, { cwd: ROOT, env });
      try {
        const [, url] = await first.waitFor(LISTENING, START_MS);
        expect(url).toBe(`http://127.0.0.1:${port}`);
        // The runtime runs in the process the line started, with no wrapper
        // (`npx`, the `tsx` CLI) that could kill it while Ctrl+C's stop runs.
        const runtime = await first.loggingProcess();
        expect(await curl(messages[0] as string)).toMatchObject({
          status: 'completed',
          reply:
            'You said "I am going to Lisbon in May." after 0 earlier message(s).',
        });
        // "The second answer knows about Lisbon in May": the writer was shown the first exchange.
        expect(await curl(messages[1] as string)).toMatchObject({
          status: 'completed',
          reply: 'You said "What should I pack?" after 1 earlier message(s).',
        });
        expect(
          model.requests.at(-1)?.messages.map((message) => message.content),
        ).toContain('I am going to Lisbon in May.');

        // "Stop the agent with Ctrl+C": the runtime stops gracefully.
        first.signal('SIGINT');
        await first.waitFor(/"msg":"runtime stopped"/, 15_000);
        expect(await first.exited(15_000)).toBe(true);
        expect(new Set(first.logPids())).toEqual(new Set([runtime]));
      } finally {
        await first.stop();
      }
      // "the conversation is still there, in chat-memory.db".
      expect(
        (await stat(path.join(directory, 'chat-memory.db'))).size,
      ).toBeGreaterThan(0);

      // "start it again and ask a third question: the conversation is still there".
      const second = new StartedCommand(start as string, { cwd: ROOT, env });
      try {
        await second.waitFor(LISTENING, START_MS);
        const third = (messages[1] as string).replace(
          'What should I pack?',
          'Do I need an umbrella?',
        );
        expect(third).not.toBe(messages[1]);
        expect(await curl(third)).toMatchObject({
          status: 'completed',
          reply:
            'You said "Do I need an umbrella?" after 2 earlier message(s).',
        });
      } finally {
        await second.stop();
      }
    }, 180_000);

    it('runs the exports of "Point it at a real model" and the same start in one shell: the two models named there plan and answer, with the key sent [claim:tut-openai-commands-test]', async () => {
      const [start] = sectionCommands(PAGE, 'Run it');
      const commands = sectionCommands(PAGE, 'Point it at a real model');
      expect(commands).toEqual([
        'export CHAT_BASE_URL=https://api.openai.com/v1',
        'export CHAT_API_KEY=sk-...',
        'export CHAT_PLANNER_MODEL=gpt-4o-mini',
        'export CHAT_WRITER_MODEL=gpt-4o',
        start,
      ]);
      // The stand-in's address in place of OpenAI's, the only change to what is typed.
      const typed = commands
        .join('\n')
        .replace('https://api.openai.com/v1', model.baseUrl);
      expect(typed).toContain(`export CHAT_BASE_URL=${model.baseUrl}\n`);

      const port = String(await freePort());
      const env = cleanEnv({
        CHAT_PORT: port,
        CHAT_DB: path.join(directory, 'openai-memory.db'),
      });
      for (const name of [
        'CHAT_BASE_URL',
        'CHAT_API_KEY',
        'CHAT_PLANNER_MODEL',
        'CHAT_WRITER_MODEL',
      ]) {
        delete env[name];
      }
      const seenBefore = model.requests.length;
      const agent = new StartedCommand(typed, { cwd: ROOT, env });
      try {
        await agent.waitFor(
          /Chat assistant on http:\/\/127\.0\.0\.1:\d+ \(planner gpt-4o-mini, writer gpt-4o at /,
          START_MS,
        );
        // Also one process here: the shell that ran the exports started the runtime itself.
        await agent.loggingProcess();

        const curl = (sectionCommands(PAGE, 'Run it')[1] as string).replace(
          /\b8787\b/g,
          port,
        );
        const { stdout } = await runCommand('sh', ['-c', curl], {
          cwd: ROOT,
          env,
          timeoutMs: 30_000,
        });
        expect(JSON.parse(stdout)).toMatchObject({
          status: 'completed',
          reply:
            'You said "I am going to Lisbon in May." after 0 earlier message(s).',
        });
        const seen = model.requests.slice(seenBefore);
        expect(seen.map((request) => request.model)).toEqual([
          'gpt-4o-mini',
          'gpt-4o',
        ]);
        for (const request of seen) {
          expect(request.authorization).toBe('Bearer sk-...');
        }

        agent.signal('SIGINT');
        await agent.waitFor(/"msg":"runtime stopped"/, 15_000);
        expect(await agent.exited(15_000)).toBe(true);
      } finally {
        await agent.stop();
      }
    }, 180_000);
  },
);
