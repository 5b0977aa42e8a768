import { spawn } from 'node:child_process';
import { CreateWeftError } from './errors.js';
import { installEnvironment } from './install-environment.js';
import { formatCommand, installCommand, type PackageManager } from './package-manager.js';

/**
 * A first install downloads everything; ten minutes covers a slow connection, not a hung one.
 * @claim tsdoc-cw-install-timeout
 */
export const DEFAULT_INSTALL_TIMEOUT_MS = 10 * 60_000;

/** What {@link installDependencies} runs, where, and for how long. */
export interface InstallOptions {
  manager: PackageManager;
  /** The project folder. */
  directory: string;
  timeoutMs?: number;
  /**
   * Where the manager's own output goes; the user's terminal by default.
   * @claim tsdoc-cw-install-stdio
   */
  stdio?: 'inherit' | 'ignore';
}

/**
 * Runs the manager's install in the new project. The project stays when this fails: the error
 * says which command to run again once the cause (network, registry) is fixed.
 * @claim tsdoc-cw-install-runs
 * @claim tsdoc-cw-install-stays
 */
export function installDependencies(options: InstallOptions): Promise<void> {
  const command = installCommand(options.manager);
  const timeoutMs = options.timeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS;
  const retry = `fix: cd into the project and run ${formatCommand(command)}`;
  return new Promise((resolve, reject) => {
    const child = spawn(command.program, command.args, {
      cwd: options.directory,
      stdio: options.stdio ?? 'inherit',
      env: installEnvironment(options.manager, process.env),
      // Windows starts npm, pnpm and yarn through .cmd shims, which only a shell runs.
      shell: process.platform === 'win32',
    });
    let timedOut = false;
    const deadline = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
    }, timeoutMs);
    child.once('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(deadline);
      reject(
        new CreateWeftError(
          'WEFT_CREATE_INSTALL_FAILED',
          `install: ${command.program} could not be started (${error.code ?? error.message}); ${retry}`,
        ),
      );
    });
    child.once('exit', (code, signal) => {
      clearTimeout(deadline);
      if (timedOut) {
        reject(
          new CreateWeftError(
            'WEFT_CREATE_INSTALL_FAILED',
            `install: ${formatCommand(command)} did not finish within ${timeoutMs / 1000} s and was stopped; ${retry}`,
          ),
        );
      } else if (code !== 0) {
        reject(
          new CreateWeftError(
            'WEFT_CREATE_INSTALL_FAILED',
            `install: ${formatCommand(command)} failed (${code === null ? signal : `exit code ${code}`}); ${retry}`,
          ),
        );
      } else {
        resolve();
      }
    });
  });
}
