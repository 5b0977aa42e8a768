import { execFile } from 'node:child_process';

/** What a finished command printed. */
export interface CommandOutput {
  stdout: string;
  stderr: string;
}

/**
 * Runs a command with a deadline. On failure the error names the command and carries what it
 * printed, so a failing test shows npm's own explanation.
 */
export function runCommand(
  command: string,
  args: readonly string[],
  options: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number },
): Promise<CommandOutput> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      {
        cwd: options.cwd,
        env: options.env ?? process.env,
        timeout: options.timeoutMs,
        killSignal: 'SIGKILL',
        maxBuffer: 64 << 20,
      },
      (error, stdout, stderr) => {
        if (!error) {
          resolve({ stdout, stderr });
          return;
        }
        const reason = error.killed
          ? `did not finish within ${options.timeoutMs} ms`
          : `failed (${error.code ?? error.signal})`;
        reject(
          new Error(
            `${command} ${args.join(' ')} in ${options.cwd} ${reason}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`,
          ),
        );
      },
    );
  });
}

/** The last lines of a long output: where npm and vitest say what went wrong. */
function tail(text: string, lines = 60): string {
  return text.split('\n').slice(-lines).join('\n');
}

/** How long a nested npm waits for one registry request before it tries again. */
export const NPM_FETCH_TIMEOUT_MS = 60_000;

/** The environment without the npm variables of the `npm test` that runs these tests. */
export function cleanEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    // `npm test` exports its config (npm_config_*) and package data (npm_package_*); a nested
    // npm would take them as its own settings.
    if (!/^npm_/i.test(key) && key !== 'INIT_CWD' && key !== 'FORCE_COLOR') env[key] = value;
  }
  return {
    ...env,
    // Plain output, so tests can read what vitest and npm print.
    NO_COLOR: '1',
    // npm waits five minutes for a registry request by default, longer than the tests' install
    // deadlines: a request that hangs is cut sooner and tried again (npm's fetch-retries), so a
    // stalled connection costs the install a minute, not the test.
    npm_config_fetch_timeout: String(NPM_FETCH_TIMEOUT_MS),
    ...extra,
  };
}
