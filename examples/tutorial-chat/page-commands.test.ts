/**
 * The tutorial's "Run it" section, followed as written: its commands are read from the page and
 * run in order from the clone's root, the entry point as a process of its own, the messages with
 * curl; then Ctrl+C (a SIGINT to the process group, as a terminal sends it), a second start,
 * and a third question that finds the conversation in the SQLite file. Then the exports of "Point
 * it at a real model" and the same start, typed in one shell. The only changes to the page: the
 * stand-in model server in place of Ollama (CHAT_BASE_URL) and of OpenAI (the exported address),
 * a free port in place of 8787 (CHAT_PORT) and the database in a temporary folder (CHAT_DB), so
 * nothing is left in the clone. Last, the same start where it cannot start (its port held, a
 * CHAT_PORT that is no port, a CHAT_DB in a missing folder, no database or another program's, versioned or not)
 * says why in one line on stderr.
 */
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';
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

/**
 * Runs the page's start where it cannot start, and returns the lines it wrote to stderr once it
 * has exited, after checking that it exited with status 1 and printed no stack trace. `printed`
 * receives all it printed, the runtime's log lines on stdout included.
 */
async function failedStart(
  start: string,
  env: NodeJS.ProcessEnv,
  printed?: (output: string) => void,
): Promise<string[]> {
  const agent = new StartedCommand(start, { cwd: ROOT, env });
  try {
    expect(await agent.exited(START_MS)).toBe(true);
    expect(await agent.exit).toBe(1);
    expect(agent.stderr).not.toMatch(/^\s+at /m);
    printed?.(agent.output);
    return agent.stderr.trimEnd().split('\n');
  } finally {
    await agent.stop();
  }
}

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

    it('stops at once when another agent holds its port: one line on stderr naming the address and CHAT_PORT, no stack trace, exit status 1 [claim:tut-port-taken] [claim:tut-main-one-line] [claim:tut-main-runtime-logs]', async () => {
      const [start] = sectionCommands(PAGE, 'Run it');
      // The Getting started agent, left running: a server on the port the tutorial asks for.
      const holder = createServer();
      await new Promise<void>((resolve) =>
        holder.listen(0, '127.0.0.1', resolve),
      );
      const held = String((holder.address() as AddressInfo).port);
      let output = '';
      try {
        const lines = await failedStart(
          start as string,
          cleanEnv({
            CHAT_BASE_URL: model.baseUrl,
            CHAT_PORT: held,
            CHAT_DB: path.join(directory, 'port-taken.db'),
          }),
          (printed) => (output = printed),
        );
        expect(lines).toHaveLength(1);
        expect(lines[0]).toMatch(
          new RegExp(
            `^Cannot start the chat assistant\\. ServerManager: cannot listen on 127\\.0\\.0\\.1:${held}: .*EADDRINUSE.*\\[WEFT_LISTEN_FAILED\\] Stop the agent that holds this port \\(the Getting started one, say\\), or set CHAT_PORT to a free one\\.$`,
          ),
        );
        // Besides it, the runtime's own JSON lines on stdout: the start failed, and it stopped.
        expect(output).toContain(
          '"msg":"runtime failed to start; rolling back"',
        );
        expect(output).toContain('"msg":"runtime stopped"');
      } finally {
        await new Promise<void>((resolve) => holder.close(() => resolve()));
      }
    }, 120_000);

    it('says in one line what to fix, with exit status 1 and no stack trace, for a CHAT_PORT that is no port, a CHAT_BASE_URL the provider refuses, a CHAT_DB in a folder that does not exist, one that is no database and one of another program [claim:tut-main-one-line] [claim:tut-main-runtime-logs] [claim:tut-bad-port] [claim:tut-provider-refuses-setting]', async () => {
      const [start] = sectionCommands(PAGE, 'Run it');
      const badPort = await failedStart(
        start as string,
        cleanEnv({ CHAT_BASE_URL: model.baseUrl, CHAT_PORT: 'eighty' }),
      );
      expect(badPort).toEqual([
        'Cannot start the chat assistant. CHAT_PORT: expected an integer from 0 to 65535, got "eighty"; unset it to use 8787.',
      ]);

      // A bad setting the provider refuses, not readChatSettings: named too, without a trace.
      const badUrl = await failedStart(
        start as string,
        cleanEnv({ CHAT_BASE_URL: 'localhost:11434/v1', CHAT_PORT: '0' }),
      );
      expect(badUrl).toEqual([
        'Cannot start the chat assistant. CHAT_BASE_URL or CHAT_API_KEY has a value the provider refuses: OpenAIModelProvider: option "baseUrl" must be an absolute http(s) URL, got "localhost:11434/v1" [WEFT_OPENAI_INVALID_OPTIONS]',
      ]);

      const missing = path.join(directory, 'no-such-folder', 'chat-memory.db');
      let databaseOutput = '';
      const badDatabase = await failedStart(
        start as string,
        cleanEnv({
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: '0',
          CHAT_DB: missing,
        }),
        (printed) => (databaseOutput = printed),
      );
      expect(badDatabase).toHaveLength(1);
      expect(databaseOutput).toContain(
        '"msg":"runtime failed to start; rolling back"',
      );
      expect(badDatabase[0]).toMatch(/^Cannot start the chat assistant\. /);
      expect(badDatabase[0]).toContain(`cannot open the database "${missing}"`);
      expect(badDatabase[0]).toMatch(
        /\[WEFT_START_FAILED\] Set CHAT_DB to a database file of this agent, or to a new file in a folder that exists\.$/,
      );
      // Besides it, the runtime's own JSON lines, on stdout: the start failed, and it stopped.
      expect(databaseOutput).toContain('"msg":"runtime stopped"');

      // A file that is there but is no SQLite database: the same advice, not only the folder's.
      const notDatabase = path.join(directory, 'notes.txt');
      await writeFile(notDatabase, 'not a database\n');
      const wrongFile = await failedStart(
        start as string,
        cleanEnv({
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: '0',
          CHAT_DB: notDatabase,
        }),
      );
      expect(wrongFile).toHaveLength(1);
      expect(wrongFile[0]).toContain(
        `cannot open the database "${notDatabase}": file is not a database`,
      );
      expect(wrongFile[0]).toMatch(
        /\[WEFT_START_FAILED\] Set CHAT_DB to a database file of this agent, or to a new file in a folder that exists\.$/,
      );

      // A SQLite file of another program, whose own `memories` table stops this agent's schema:
      // the same advice, since the message alone names no setting.
      const otherProgram = path.join(directory, 'other-program.db');
      const other = new Database(otherProgram);
      other.exec('CREATE TABLE memories (note TEXT)');
      other.close();
      const foreignFile = await failedStart(
        start as string,
        cleanEnv({
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: '0',
          CHAT_DB: otherProgram,
        }),
      );
      expect(foreignFile).toHaveLength(1);
      expect(foreignFile[0]).toContain('[WEFT_SQLITE_MIGRATION_FAILED]');
      expect(foreignFile[0]).toMatch(
        /\[WEFT_START_FAILED\] Set CHAT_DB to a database file of this agent, or to a new file in a folder that exists\.$/,
      );

      // A SQLite file of another program that set its own schema version, as many do: read as
      // one a newer @weft/memory-sqlite wrote, and pointed to CHAT_DB all the same.
      const versioned = path.join(directory, 'versioned-program.db');
      const program = new Database(versioned);
      program.pragma('user_version = 7');
      program.exec('CREATE TABLE settings (name TEXT)');
      program.close();
      const versionedFile = await failedStart(
        start as string,
        cleanEnv({
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: '0',
          CHAT_DB: versioned,
        }),
      );
      expect(versionedFile).toHaveLength(1);
      expect(versionedFile[0]).toContain('[WEFT_SQLITE_SCHEMA_TOO_NEW]');
      expect(versionedFile[0]).toMatch(
        /\[WEFT_START_FAILED\] Set CHAT_DB to a database file of this agent, or to a new file in a folder that exists\.$/,
      );
    }, 120_000);

    it('advises another CHAT_PORT, not stopping an agent, when the port is refused without being held [claim:tut-main-one-line]', async () => {
      const [start] = sectionCommands(PAGE, 'Run it');
      // A port below 1024 for a user without privileges: played by a listen that fails EACCES,
      // since the tests may run as root, which may listen there.
      const refuse = path.join(directory, 'refuse-listen.mjs');
      await writeFile(
        refuse,
        [
          "import net from 'node:net';",
          'net.Server.prototype.listen = function () {',
          "  const error = Object.assign(new Error('listen EACCES: permission denied 127.0.0.1:80'), { code: 'EACCES', syscall: 'listen' });",
          "  process.nextTick(() => this.emit('error', error));",
          '  return this;',
          '};',
          '',
        ].join('\n'),
      );
      expect(start).toMatch(/^node /);
      const lines = await failedStart(
        (start as string).replace(/^node /, `node --import ${refuse} `),
        cleanEnv({
          CHAT_BASE_URL: model.baseUrl,
          CHAT_PORT: '80',
          CHAT_DB: path.join(directory, 'port-refused.db'),
        }),
      );
      expect(lines).toEqual([
        'Cannot start the chat assistant. ServerManager: cannot listen on 127.0.0.1:80: listen EACCES: permission denied 127.0.0.1:80 [WEFT_LISTEN_FAILED] Set CHAT_PORT to a port this user may listen on (1024 or above on most systems), or to 0 for a free one.',
      ]);
    }, 120_000);

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
