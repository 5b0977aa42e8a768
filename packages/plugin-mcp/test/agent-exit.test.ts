/**
 * An agent that ends without `stop()` (here a Ctrl-C, SIGINT to its process group, with no
 * handler for it) leaves its stdio servers to notice that their input closed: the signal does
 * not reach their process groups, so a process a server started that does not read that input
 * lives on.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { running } from '../src/process-transport.js';

const AGENT = fileURLToPath(new URL('./fixtures/exiting-agent.ts', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./fixtures/fixture-server.ts', import.meta.url));

const leftRunning: number[] = [];
afterEach(() => {
  for (const pid of leftRunning.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  }
});

describe.skipIf(process.platform === 'win32')('an agent that ends without stop()', () => {
  it.each([
    ['a Ctrl-C it does not handle', 'SIGINT'],
    ['process.exit', 'exit'],
  ] as const)(
    'leaves the children of a server started through sh -c running after %s [claim:mcpdoc-no-stop-no-end] [claim:prod-mcp-no-stop] [claim:mcp-readme-no-stop]',
    async (_how, ending) => {
      const dir = await mkdtemp(path.join(tmpdir(), 'weft-mcp-exit-'));
      const serverFile = path.join(dir, 'server-pid');
      const childFile = path.join(dir, 'child-pid');
      // The shell starts a child that never reads the server's input, then becomes the server.
      const script = `sleep 60 & echo $! > "${childFile}"; echo $$ > "${serverFile}"; exec "${process.execPath}" --import tsx "${FIXTURE}"`;
      const agent = spawn(
        process.execPath,
        ['--conditions=weft-source', '--import', 'tsx', AGENT, 'sh', '-c', script],
        // A group of its own, as a program run from a terminal has: Ctrl-C signals that group.
        {
          detached: true,
          stdio: ['ignore', 'pipe', 'inherit'],
          env: { ...process.env, ...(ending === 'exit' ? { WEFT_TEST_EXIT: '1' } : {}) },
        },
      );
      const exited = once(agent, 'exit');
      const [first] = (await once(agent.stdout, 'data')) as [Buffer];
      expect(first.toString()).toContain('connected 1');
      const serverPid = Number(await readFile(serverFile, 'utf8'));
      const childPid = Number(await readFile(childFile, 'utf8'));
      leftRunning.push(childPid, serverPid);
      expect(running(serverPid)).toBe(true);

      if (ending === 'SIGINT') {
        process.kill(-(agent.pid as number), 'SIGINT');
        expect(await exited).toEqual([null, 'SIGINT']);
      } else {
        expect(await exited).toEqual([0, null]);
      }
      // The server, which reads its input, ends once that closes; the shell's other child is not
      // told anything, as the SIGINT went to the agent's group only.
      await expect.poll(() => running(serverPid), { timeout: 5_000 }).toBe(false);
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(running(childPid)).toBe(true);
    },
    30_000,
  );
});
