import { spawn, type ChildProcess } from 'node:child_process';

/** A generated project's agent, running until `stop()`. */
export interface RunningAgent {
  url: string;
  output: () => string;
  stop: () => Promise<void>;
}

const LISTENING = /Agent listening on (http:\/\/127\.0\.0\.1:\d+)/;

/** How the agent is started: `npm start` builds first; the built entry point starts at once. */
export type StartCommand = readonly [string, ...string[]];
export const NPM_START: StartCommand = ['npm', 'start'];
export const BUILT_ENTRY: StartCommand = [process.execPath, 'dist/main.js'];

/**
 * Starts the agent in `cwd` and resolves with the URL it prints once it listens. Rejects with
 * its output if it exits or stays silent too long.
 */
export function startAgent(
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  [command, ...args]: StartCommand = NPM_START,
): Promise<RunningAgent> {
  // Its own process group, so stopping it also stops the node process npm started.
  const child = spawn(command, args, { cwd, env, detached: true });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  const stop = () => stopGroup(child, 10_000);

  return new Promise((resolve, reject) => {
    const fail = (reason: string) => {
      clearInterval(poll);
      clearTimeout(deadline);
      void stop().then(() =>
        reject(new Error(`${command} ${args.join(' ')} ${reason}\n${output}`)),
      );
    };
    const deadline = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
    const poll = setInterval(() => {
      const match = LISTENING.exec(output);
      if (!match) return;
      clearInterval(poll);
      clearTimeout(deadline);
      resolve({ url: match[1] as string, output: () => output, stop });
    }, 100);
    child.once('exit', (code) => fail(`exited with ${code} before listening`));
  });
}

/** Starts the agent expecting it to refuse; resolves with its exit code and output. */
export function startAgentExpectingExit(
  cwd: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
  [command, ...args]: StartCommand = NPM_START,
): Promise<{ code: number | null; output: string }> {
  const child = spawn(command, args, { cwd, env, detached: true });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => {
      void stopGroup(child, 5_000).then(() =>
        reject(
          new Error(`${command} ${args.join(' ')} still ran after ${timeoutMs} ms\n${output}`),
        ),
      );
    }, timeoutMs);
    child.once('exit', (code) => {
      clearTimeout(deadline);
      resolve({ code, output });
    });
  });
}

/** SIGTERM to the group (the agent stops gracefully), SIGKILL if it is still there later. */
function stopGroup(child: ChildProcess, graceMs: number): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) {
    return Promise.resolve();
  }
  const pid = child.pid;
  return new Promise((resolve) => {
    const kill = setTimeout(() => {
      signal(-pid, 'SIGKILL');
      resolve();
    }, graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    signal(-pid, 'SIGTERM');
  });
}

function signal(target: number, name: NodeJS.Signals): void {
  try {
    process.kill(target, name);
  } catch {
    // Already gone.
  }
}
