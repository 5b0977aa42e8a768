/**
 * The steps of "Add a plugin to your project" (docs/getting-started.md), followed in a project
 * create-weft generates: write the plugin file, add it to `plugins:` in src/agent.ts, give the
 * scripted model a route to it, add its test; then the project's tests and type-check pass, and
 * the running agent answers with the plugin, showing the error the plugin marks safe to show.
 * The project lives inside the repository (a folder .gitignore names), where `@weft/*` resolve
 * to the workspace sources, so nothing is installed.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { copyFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProject } from '../../packages/create-weft/src/create-project';
import { sectionCommands } from '../support/page-commands';
import { startAgent, startAgentExpectingExit } from './support/agent-process';
import { postMessage } from './support/messages';

const run = promisify(execFile);
const root = path.resolve(__dirname, '../..');
const example = path.join(root, 'examples/add-a-plugin');
const MINUTE = 60_000;
const PAGE = path.join(root, 'docs/getting-started.md');
const SECTION = 'Add a plugin to your project';

/**
 * What the section asks the running agent: the message of its `curl`, and the question its prose
 * sends "the same way", with the status and the error the prose says the agent answers.
 */
function pageQuestions(): {
  url: string;
  body: { user: string; text: string };
  unknownZone: { text: string; status: number; error: string };
} {
  const [curl, ...rest] = sectionCommands(PAGE, SECTION);
  expect(rest).toEqual([]);
  const url = /curl .*?(http:\/\/\S+)\/messages/.exec(curl ?? '')?.[1];
  const data = /-d '([^']+)'/.exec(curl ?? '')?.[1];
  if (!url || !data) throw new Error(`"${SECTION}" has no curl that posts a message any more`);
  const markdown = readFileSync(PAGE, 'utf8');
  const section = markdown.slice(markdown.indexOf(`\n## ${SECTION}\n`));
  const asked =
    /Ask `([^`]+)` the same way and the agent answers `(\d{3})` with `"error": ("(?:[^"\\]|\\.)*")`/.exec(
      section,
    );
  if (!asked) throw new Error(`"${SECTION}" no longer says what the agent answers to a bad zone`);
  return {
    url,
    body: JSON.parse(data) as { user: string; text: string },
    unknownZone: {
      text: asked[1] as string,
      status: Number(asked[2]),
      error: JSON.parse(asked[3] as string) as string,
    },
  };
}

/** `npm run dev` without the watcher, loading `@weft/*` from the workspace sources. */
const TSX_MAIN = [
  process.execPath,
  path.join(root, 'node_modules/tsx/dist/cli.mjs'),
  '--conditions=weft-source',
  'src/main.ts',
] as const;

/** Runs a Node.js tool of the workspace in `cwd`; rejects with its output when it fails. */
async function tool(cwd: string, script: string, args: string[]): Promise<string> {
  try {
    const { stdout } = await run(process.execPath, [path.join(root, script), ...args], {
      cwd,
      timeout: 2 * MINUTE,
      env: { ...process.env, WEFT_LOG_LEVEL: 'silent', NO_COLOR: '1' },
    });
    return stdout;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(`${script} ${args.join(' ')} failed:\n${stdout}\n${stderr}`);
  }
}

/** Replaces `from` with `to` in a project file, failing when the page's anchor text is gone. */
async function edit(file: string, from: string, to: string): Promise<void> {
  const text = await readFile(file, 'utf8');
  if (!text.includes(from)) throw new Error(`${file} no longer contains ${JSON.stringify(from)}`);
  await writeFile(file, text.replace(from, to));
}

describe('adding a plugin to a generated project, as the page says', () => {
  let work = '';
  let project = '';

  beforeAll(async () => {
    work = await mkdtemp(path.join(root, 'packages/create-weft/.variants-check-'));
    project = path.join(work, 'my-agent');
    await createProject({
      directory: project,
      model: 'scripted',
      memory: 'memory',
      source: 'registry',
    });
    // Step 1: the plugin's file.
    await copyFile(
      path.join(example, 'src/clock-plugin.ts'),
      path.join(project, 'src/clock-plugin.ts'),
    );
    // Step 2: import it and add it to `plugins:` in src/agent.ts.
    const agent = path.join(project, 'src/agent.ts');
    await edit(
      agent,
      "import { AssistantPlugin } from './assistant-plugin.js';\n",
      "import { AssistantPlugin } from './assistant-plugin.js';\nimport { ClockPlugin } from './clock-plugin.js';\n",
    );
    await edit(
      agent,
      'plugins: [new AssistantPlugin()],',
      'plugins: [new AssistantPlugin(), new ClockPlugin()],',
    );
    // Step 3: a route, so the scripted model plans the clock's step for questions about time.
    await edit(
      path.join(project, 'src/scripted-model.ts'),
      'export const ROUTES: ScriptedRoute[] = [];',
      "export const ROUTES: ScriptedRoute[] = [\n  { pattern: /\\btime\\b/i, pluginId: 'clock', action: 'now' },\n];",
    );
    // Step 4: its test.
    await copyFile(
      path.join(example, 'test/clock-plugin.test.ts'),
      path.join(project, 'test/clock-plugin.test.ts'),
    );
    // The project's own settings, reading the workspace packages from their sources.
    await writeFile(
      path.join(project, 'tsconfig.check.json'),
      JSON.stringify({
        extends: './tsconfig.json',
        compilerOptions: { customConditions: ['weft-source'] },
      }),
    );
    await writeFile(
      path.join(project, 'vitest.check.config.ts'),
      [
        "import { defaultServerConditions } from 'vite';",
        "import { defineConfig } from 'vitest/config';",
        "const conditions = ['weft-source', ...defaultServerConditions];",
        'export default defineConfig({',
        '  resolve: { conditions },',
        '  ssr: { resolve: { conditions } },',
        "  test: { include: ['test/**/*.test.ts'], env: { WEFT_LOG_LEVEL: 'silent' }, testTimeout: 20_000 },",
        '});',
        '',
      ].join('\n'),
    );
  }, MINUTE);

  afterAll(async () => {
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('ends with the files the page shows [claim:gs-add-plugin-followed]', async () => {
    for (const file of ['src/agent.ts', 'src/scripted-model.ts']) {
      expect(await readFile(path.join(project, file), 'utf8'), file).toBe(
        await readFile(path.join(example, file), 'utf8'),
      );
    }
  });

  it(
    'type-checks, and its tests, the clock plugin test among them, pass [claim:gs-add-plugin-followed]',
    async () => {
      expect(
        await tool(project, 'node_modules/typescript/bin/tsc', ['-p', 'tsconfig.check.json']),
      ).toBe('');
      const output = await tool(project, 'node_modules/vitest/vitest.mjs', [
        'run',
        '--config',
        'vitest.check.config.ts',
      ]);
      // Every test the example file holds ran in the project, none skipped.
      const written = (
        await readFile(path.join(example, 'test/clock-plugin.test.ts'), 'utf8')
      ).match(/^\s*it\(/gm);
      expect(written?.length).toBeGreaterThan(3);
      expect(output).toContain(`test/clock-plugin.test.ts (${written?.length} tests)`);
      expect(output).toMatch(/Tests\s+\d+ passed/);
    },
    4 * MINUTE,
  );

  it(
    "runs: the page's questions reach the clock, and its unknown-zone error reaches the user [claim:exec-expose-generated] [claim:gs-422] [claim:gs-add-plugin-wire] [claim:gs-add-plugin-followed]",
    async () => {
      const { url, body, unknownZone } = pageQuestions();
      expect(url).toBe('http://127.0.0.1:8787');
      const agent = await startAgent(
        project,
        { ...process.env, PORT: '0', WEFT_LOG_LEVEL: 'silent' },
        MINUTE,
        TSX_MAIN,
      );
      try {
        const time = await postMessage(agent.url, { user: 'ada', text: 'What time is it?' });
        expect(time.status).toBe(200);
        expect(time.body.reply).toMatch(/^It is \d\d:\d\d in UTC\.$/);
        // The section's curl: "The reply is the time in Tokyo".
        expect(body.text).toContain('Asia/Tokyo');
        const tokyo = await postMessage(agent.url, body);
        expect(tokyo.status).toBe(200);
        expect(tokyo.body.reply).toMatch(/^It is \d\d:\d\d in Asia\/Tokyo\.$/);
        // "Ask `What time is it in Mars/Olympus?` the same way".
        const unknown = await postMessage(agent.url, { ...body, text: unknownZone.text });
        expect(unknown).toEqual({
          status: unknownZone.status,
          body: { taskId: expect.any(String), status: 'failed', error: unknownZone.error },
        });
        expect(unknownZone).toEqual({
          text: 'What time is it in Mars/Olympus?',
          status: 422,
          error: '"Mars/Olympus" is not a time zone I know; name one such as Europe/Paris.',
        });
      } finally {
        await agent.stop();
      }
    },
    2 * MINUTE,
  );

  it(
    'stops at once when its port is taken, naming the address and the PORT setting [claim:gs-port-taken]',
    async () => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as AddressInfo;
      try {
        const result = await startAgentExpectingExit(
          project,
          { ...process.env, PORT: String(port), WEFT_LOG_LEVEL: 'silent' },
          MINUTE,
          TSX_MAIN,
        );
        expect(result.code).toBe(1);
        expect(result.output).toContain(
          `Cannot start the agent. ServerManager: cannot listen on 127.0.0.1:${port}`,
        );
        expect(result.output).toContain('Set PORT in .env to a free port');
      } finally {
        await new Promise<void>((resolve) => holder.close(() => resolve()));
      }
    },
    2 * MINUTE,
  );
});
