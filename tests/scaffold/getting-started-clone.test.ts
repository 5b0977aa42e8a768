/**
 * Getting started's route from a clone, typed as a reader types it: the commands are read from
 * docs/getting-started.md and run in the page's order, from the folders the page says, with
 * the page's defaults (scripted model, memory lost on exit, the creator installs). From a
 * temporary folder standing for the reader's own: "Create a project" clones and makes
 * `../my-agent` from the clone; "Run it" goes into the project, runs `npm test`, starts
 * `npm run dev`, sends the page's `curl`, expects the page's reply and presses Ctrl+C; "Run the
 * example" goes back to the clone and starts the example's entry point, which answers the same.
 * The `cd` commands of "Run it" and "Run the example" are in the page's prose and read from it.
 *
 * What differs from the page, and why:
 * - `git clone https://github.com/weft-ai/weft.git` copies this checkout's files that a commit
 *   would hold (tracked and new, as they stand) into `weft/`, so that a page or template edit is
 *   followed before it is committed; nothing is fetched from GitHub.
 * - `npm ci` links the repository's own node_modules into the copy (npm's links to the
 *   workspace packages are remade to point at the copy's packages, as `npm ci` makes them):
 *   CI runs `npm ci` itself on a clean clone, and reinstalling 2,000 packages here would take
 *   minutes and the network.
 * - npm is told to prefer its cache and to skip the audit, funding and update notices.
 * - `npm run dev` gets a free port through PORT in the environment (the page: `PORT` changes it;
 *   variables set in the shell win over `.env`), and the `curl` line is sent to that port.
 *   Other tests on the machine may hold 8787.
 * The creator's own `npm install` runs as the page says: from the npm cache and the registry.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import {
  appendFile,
  copyFile,
  lstat,
  mkdir,
  mkdtemp,
  readdir,
  readlink,
  rm,
  stat,
  symlink,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanEnv, runCommand } from '@weft-internal/test-support/commands';
import { sectionBlocks, sectionCommands, StartedCommand } from '../support/page-commands';
import { freePort } from '@weft-internal/test-support/postgres-server';

const git = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');
const PAGE = path.join(ROOT, 'docs/getting-started.md');
const MINUTE = 60_000;
const CLONE_URL = 'https://github.com/weft-ai/weft.git';

/** The page's clone route: the commands of "Create a project" from `git clone` on. */
function cloneRoute(): string[] {
  const commands = sectionCommands(PAGE, 'Create a project');
  const from = commands.findIndex((line) => line.startsWith('git clone '));
  if (from < 0) throw new Error('"Create a project" has no `git clone` command any more');
  return commands.slice(from);
}

/** A `cd` the page gives in its prose, found by the words that follow it. */
function proseCd(heading: string, after: RegExp): string {
  const match = new RegExp(`\`(cd [^\`]+)\` ${after.source}`).exec(readSection(heading));
  if (!match) throw new Error(`"${heading}" no longer says where to go (${after.source})`);
  return match[1] as string;
}

/** Where "Run it" says to go after `npm run create-agent`. */
const cdAfterCreateAgent = () => proseCd('Run it', /after `npm run create-agent`/);

/** One `## heading` section of the page, prose and all. */
function readSection(heading: string): string {
  const markdown = readFileSync(PAGE, 'utf8');
  const start = markdown.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`${PAGE} has no section "## ${heading}"`);
  const end = markdown.indexOf('\n## ', start + 1);
  return markdown.slice(start, end < 0 ? undefined : end);
}

/**
 * Copies what a commit of this checkout would hold into `target`: a clone's files, including
 * edits not committed yet.
 */
async function copyCheckout(target: string): Promise<void> {
  const { stdout } = await git(
    'git',
    ['ls-files', '-z', '--cached', '--others', '--exclude-standard'],
    { cwd: ROOT, maxBuffer: 64 << 20, timeout: MINUTE },
  );
  const files = [...new Set(stdout.split('\0').filter(Boolean))];
  for (const file of files) {
    const source = path.join(ROOT, file);
    // A tracked file deleted in the checkout is not in the next commit either.
    if (!(await stat(source).catch(() => undefined))?.isFile()) continue;
    await mkdir(path.dirname(path.join(target, file)), { recursive: true });
    await copyFile(source, path.join(target, file));
  }
}

/**
 * Stands in for `npm ci` in `clone`: each entry of a node_modules folder of the repository
 * becomes a link to the repository's own, except npm's relative links to workspace packages,
 * which are made again as they are, so they lead to the clone's packages.
 */
async function linkNodeModules(from: string, to: string): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const entry of await readdir(from, { withFileTypes: true })) {
    const source = path.join(from, entry.name);
    const target = path.join(to, entry.name);
    if (entry.isSymbolicLink()) {
      // Relative, so it leads to the same place inside the clone.
      await symlink(await readlink(source), target);
    } else if (entry.isDirectory() && entry.name.startsWith('@')) {
      await linkNodeModules(source, target);
    } else {
      await symlink(source, target);
    }
  }
}

async function npmCi(clone: string): Promise<void> {
  await linkNodeModules(path.join(ROOT, 'node_modules'), path.join(clone, 'node_modules'));
  for (const pkg of await readdir(path.join(ROOT, 'packages'))) {
    const nested = path.join(ROOT, 'packages', pkg, 'node_modules');
    if (await stat(nested).catch(() => undefined)) {
      await linkNodeModules(nested, path.join(clone, 'packages', pkg, 'node_modules'));
    }
  }
}

/** Resolves true once no process of the command's group is left, or false after `ms`. */
async function groupEnded(command: StartedCommand, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  for (;;) {
    try {
      // Signal 0 only asks whether the group still has a member.
      process.kill(-(command.child.pid as number), 0);
    } catch {
      return true;
    }
    if (Date.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

// The page's commands are a POSIX shell's (cd, curl), as the page shows them.
describe.skipIf(process.platform === 'win32')(
  'Getting started from a clone, typed as the page says',
  () => {
    let home = '';
    let cwd = '';
    let clone = '';
    let project = '';
    let creatorOutput = '';
    // Every long-running command started, so that each is ended even when a step fails.
    const started: StartedCommand[] = [];
    const startCommand = (line: string, options: { cwd: string; env: NodeJS.ProcessEnv }) => {
      const command = new StartedCommand(line, options);
      started.push(command);
      return command;
    };
    const env = cleanEnv({
      npm_config_prefer_offline: 'true',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_update_notifier: 'false',
    });
    // The page's defaults: the runtime logs at info, as a reader sees it.
    delete env.WEFT_LOG_LEVEL;
    delete env.PORT;

    beforeAll(async () => {
      home = await mkdtemp(path.join(tmpdir(), 'weft-getting-started-'));
      cwd = home;
    });

    afterAll(async () => {
      for (const command of started) await command.stop();
      if (home) await rm(home, { recursive: true, force: true });
    });

    it(
      '"Create a project": clones, and `npm run create-agent -- ../my-agent` writes and installs the project beside the clone [claim:cg-getting-started-clone] [claim:gs-flags] [claim:gs-clone-creator] [claim:gs-creator-installs]',
      async () => {
        const route = cloneRoute();
        expect(route).toEqual([
          `git clone ${CLONE_URL}`,
          'cd weft',
          'npm ci',
          'npm run create-agent -- ../my-agent',
        ]);
        for (const line of route) {
          if (line.startsWith('git clone ')) {
            const url = line.slice('git clone '.length).trim();
            // git names the folder after the URL's last part, without .git.
            clone = path.join(cwd, path.basename(url, '.git'));
            await copyCheckout(clone);
          } else if (line.startsWith('cd ')) {
            cwd = path.resolve(cwd, line.slice(3).trim());
            expect((await stat(cwd)).isDirectory()).toBe(true);
          } else if (line === 'npm ci') {
            expect(cwd).toBe(clone);
            await npmCi(clone);
          } else {
            const { stdout, stderr } = await runCommand('sh', ['-c', line], {
              cwd,
              env,
              timeoutMs: 12 * MINUTE,
            });
            creatorOutput = `${stdout}${stderr}`;
          }
        }
        project = path.join(home, 'my-agent');
        // The defaults: the scripted model and memory lost on exit; the creator installed.
        expect(creatorOutput).toContain('Created my-agent with --model scripted --memory memory.');
        // Installed from the tarballs packed from the clone: a copy, not a link to the clone.
        expect((await lstat(path.join(project, 'node_modules/@weft/core'))).isDirectory()).toBe(
          true,
        );
        expect((await readdir(path.join(project, 'vendor'))).sort()).toEqual([
          expect.stringMatching(/^weft-core-.+\.tgz$/),
          expect.stringMatching(/^weft-testing-.+\.tgz$/),
        ]);
      },
      14 * MINUTE,
    );

    it('the creator prints the next steps "Run it" gives [claim:gs-creator-installs] [claim:gs-cd-then-run]', () => {
      expect(project).not.toBe('');
      const cd = cdAfterCreateAgent();
      expect(cd).toBe('cd ../my-agent');
      const steps = sectionCommands(PAGE, 'Run it').filter((line) => !line.startsWith('curl '));
      expect(steps).toEqual(['npm test', 'npm run dev']);
      const next = creatorOutput.slice(creatorOutput.indexOf('Next:'));
      let at = 0;
      for (const step of [cd, ...steps]) {
        const found = next.indexOf(step, at);
        expect(found, `"${step}" among the creator's next steps:\n${next}`).toBeGreaterThan(-1);
        at = found + step.length;
      }
    });

    it(
      '"Run it": `cd ../my-agent` and `npm test` pass in the project [claim:gs-cd-then-run]',
      async () => {
        expect(project).not.toBe('');
        cwd = path.resolve(cwd, cdAfterCreateAgent().slice(3));
        expect(cwd).toBe(project);
        const [test] = sectionCommands(PAGE, 'Run it');
        expect(test).toBe('npm test');
        const { stdout } = await runCommand('sh', ['-c', test as string], {
          cwd,
          env,
          timeoutMs: 4 * MINUTE,
        });
        expect(stdout).toMatch(/Tests\s+\d+ passed/);
        expect(stdout).not.toMatch(/failed/i);
      },
      5 * MINUTE,
    );

    it(
      '"Run it": `npm run dev` says where it listens, answers the page\'s `curl` with the page\'s reply, restarts on a change, and stops on Ctrl+C [claim:cg-getting-started-clone] [claim:gs-reply] [claim:gs-dev-restarts] [claim:gs-listening] [claim:gs-cd-then-run] [claim:gs-json-logs]',
      async () => {
        expect(cwd).toBe(project);
        const [, dev, curl] = sectionCommands(PAGE, 'Run it');
        expect(dev).toBe('npm run dev');
        expect(curl).toMatch(/^curl .*http:\/\/127\.0\.0\.1:8787\/messages/);
        const [listening] = sectionBlocks(PAGE, 'Run it', ['text']);
        expect(listening?.trim()).toBe(
          'Agent listening on http://127.0.0.1:8787; press Ctrl+C to stop.',
        );
        const [reply] = sectionBlocks(PAGE, 'Run it', ['json']);
        const expected = JSON.parse(reply as string) as Record<string, unknown>;

        const port = String(await freePort());
        const local = (text: string) => text.replace(/\b8787\b/g, port);
        const agent = startCommand(dev as string, { cwd, env: { ...env, PORT: port } });
        const listeningHere = local(listening?.trim() as string).replace(
          /[.*+?^${}()|[\]\\]/g,
          '\\$&',
        );
        await agent.waitFor(new RegExp(listeningHere), 3 * MINUTE);
        // "The runtime logs JSON lines": pino writes them asynchronously, so they may come
        // after the line that says where the agent listens.
        await agent.waitFor(/^\{"level":30,.*"msg":"runtime started"/m, 10_000);

        // "In a second terminal": from the project's folder, where the reader stands.
        const { stdout } = await runCommand('sh', ['-c', local(curl as string)], {
          cwd,
          env,
          timeoutMs: MINUTE,
        });
        expect(JSON.parse(stdout)).toEqual({
          ...expected,
          taskId: expect.stringMatching(
            /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
          ),
        });

        // "`npm run dev` runs `src/main.ts` and restarts on every change".
        await appendFile(path.join(cwd, 'src/main.ts'), '\n// Edited while `npm run dev` runs.\n');
        await agent.waitFor(new RegExp(`${listeningHere}[\\s\\S]*${listeningHere}`), 2 * MINUTE);
        const again = await runCommand('sh', ['-c', local(curl as string)], {
          cwd,
          env,
          timeoutMs: MINUTE,
        });
        expect(JSON.parse(again.stdout)).toMatchObject({ status: 'completed' });

        // Ctrl+C: a SIGINT to the terminal's foreground group (npm, tsx watch and the agent).
        const before = agent.output.length;
        agent.signal('SIGINT');
        expect(
          await agent.exited(20_000),
          `still running 20 s after Ctrl+C:\n${agent.output}`,
        ).toBe(true);
        const after = agent.output.slice(before);
        // The whole output on failure: which process printed what, and in which order, is what
        // tells a stop cut short by a second signal from a last log line that was not written.
        expect(after, `after Ctrl+C, in:\n${agent.output.slice(-4_000)}`).toContain(
          '"msg":"runtime stopped"',
        );
        expect(after).not.toMatch(/Force killing|"level":50|Error/);
        // The prompt comes back: npm, tsx's watcher and the agent have all ended.
        expect(await groupEnded(agent, 20_000), `left running after Ctrl+C:\n${agent.output}`).toBe(
          true,
        );
      },
      5 * MINUTE,
    );

    it(
      '"Run the example": `cd ../weft` from the project, and the example\'s entry point answers the same `curl` with the same reply, in one process that Ctrl+C stops [claim:cg-getting-started-clone] [claim:gs-example-cd-clone] [claim:gs-example-runs] [claim:gs-example-one-process]',
      async () => {
        expect(cwd).toBe(project);
        const cd = proseCd('Run the example', /from `my-agent`/);
        expect(cd).toBe('cd ../weft');
        cwd = path.resolve(cwd, cd.slice(3));
        expect(cwd).toBe(clone);
        const [start, ...rest] = sectionCommands(PAGE, 'Run the example');
        expect(rest).toEqual([]);
        const curl = sectionCommands(PAGE, 'Run it').find((line) => line.startsWith('curl '));
        const [reply] = sectionBlocks(PAGE, 'Run it', ['json']);

        const port = String(await freePort());
        const agent = startCommand(start as string, { cwd, env: { ...env, PORT: port } });
        await agent.waitFor(
          new RegExp(
            `Agent listening on http://127\\.0\\.0\\.1:${port}; press Ctrl\\+C to stop\\.`,
          ),
          3 * MINUTE,
        );
        const { stdout } = await runCommand(
          'sh',
          ['-c', (curl as string).replace(/\b8787\b/g, port)],
          { cwd, env, timeoutMs: MINUTE },
        );
        expect(JSON.parse(stdout)).toEqual({
          ...(JSON.parse(reply as string) as Record<string, unknown>),
          taskId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        });
        // One process: the line started the runtime itself, with no wrapper that could kill it
        // while Ctrl+C's stop runs.
        const runtime = await agent.loggingProcess();
        agent.signal('SIGINT');
        expect(await groupEnded(agent, 20_000), `left running after Ctrl+C:\n${agent.output}`).toBe(
          true,
        );
        expect(agent.output).toContain('"msg":"runtime stopped"');
        expect(new Set(agent.logPids())).toEqual(new Set([runtime]));
      },
      5 * MINUTE,
    );
  },
);
