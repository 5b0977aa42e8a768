/**
 * What the core needs from its host when it runs in Node.js. The core imports these through
 * `#platform` (package.json `imports`), which resolves here everywhere but in a browser build;
 * browser.ts is the browser's counterpart, with the same exports.
 */
import { setMaxListeners } from 'node:events';
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, extname, join } from 'node:path';
import { pino, type Logger } from 'pino';
import type { HttpServer } from '../server/route.js';
import type { ServerManagerConfig } from '../server/server-config.js';
import { readCoreEnvironment } from '../util/environment.js';
import { errorLogFields } from '../util/logger.js';

/** Whether `options.handleSignals` can work here: Node.js delivers process signals. */
export const SUPPORTS_SIGNALS: boolean = true;

/** Whether the HTTP server for route triggers can run here. */
export const SUPPORTS_SERVER: boolean = true;

/**
 * Loads the HTTP server of `@weft/core/node` (express and cors, its optional peer
 * dependencies) with `import()`, so that a runtime without route triggers never loads them.
 *
 * @returns A function that makes the server.
 * @throws The module system's error when express or cors is not installed.
 */
export async function loadHttpServer(): Promise<
  (config: ServerManagerConfig, logger: Logger) => HttpServer
> {
  const { ServerManager } = await import('../server/server-manager.js');
  return (config, logger) => new ServerManager(config, logger);
}

/**
 * The environment variables the core reads (`WEFT_LOG_LEVEL`).
 *
 * @returns `process.env`.
 */
export function hostEnvironment(): Readonly<Record<string, string | undefined>> {
  return process.env;
}

/**
 * The root logger when the user supplies none: JSON to stdout at `info`, or at the level named
 * by `WEFT_LOG_LEVEL`. `Runtime.init` has already reported a bad level as a configuration
 * problem, so a bad one never reaches pino (whose own error would name no variable). Tests pass
 * `pino({ level: 'silent' })` to keep their output clean.
 * @claim tsdoc-node-default-logger
 * @claim tsdoc-node-bad-level
 */
export function createDefaultLogger(): Logger {
  return pino({ name: 'weft', level: readCoreEnvironment(process.env).logLevel });
}

/**
 * Lets any number of listeners wait on a signal. The parent signal holds one listener per
 * running task, as many as the scheduler runs at once: more than Node's default warning
 * threshold of 10 is expected, not a leak.
 *
 * @param signal - The long-lived signal, such as the scheduler's.
 */
export function allowManyListeners(signal: AbortSignal): void {
  setMaxListeners(0, signal);
}

/**
 * Reads every `*.liquid` file of a directory (not recursive: a subdirectory is skipped, even one
 * whose name ends in `.liquid`, and so is a symbolic link to one), sorted by template name. A
 * hidden file, whose name starts with `.` (an editor's lock or backup file), is skipped as a
 * shell's `*.liquid` would skip it: its name could not be a template's.
 *
 * @param directory - Path of the directory.
 * @returns Each template's name (the file name without `.liquid`) and source.
 * @throws The file system's error when the directory cannot be read.
 * @claim tsdoc-node-read-templates
 */
export async function readTemplateFiles(
  directory: string,
): Promise<{ name: string; source: string }[]> {
  const entries = await readdir(directory, { withFileTypes: true });
  const candidates = entries.filter(
    (entry) =>
      !entry.isDirectory() && !entry.name.startsWith('.') && extname(entry.name) === '.liquid',
  );
  // A symbolic link is followed, as reading it would: one that leads to a directory is skipped
  // like a directory, where reading it would fail the whole directory with EISDIR. What is not a
  // regular file (a named pipe, a socket, a device) is refused: reading a pipe nobody writes to
  // waits forever.
  const files = await Promise.all(
    candidates.map(async (entry) => {
      if (entry.isFile()) return entry.name;
      const target = entry.isSymbolicLink() ? await stat(join(directory, entry.name)) : entry;
      if (target.isDirectory()) return undefined;
      if (!target.isFile()) {
        throw new Error(`${entry.name} is not a regular file (a named pipe, socket or device)`);
      }
      return entry.name;
    }),
  );
  // Sorted without the extension, as the registry lists names: `a` before `a-b`, although
  // `a-b.liquid` sorts before `a.liquid`.
  const names = files
    .filter((file): file is string => file !== undefined)
    .map((file) => basename(file, '.liquid'))
    .sort();
  return Promise.all(
    names.map(async (name) => ({
      name,
      source: await readFile(join(directory, `${name}.liquid`), 'utf8'),
    })),
  );
}

/**
 * How long after a signal the same signal again is a copy of it, not a second request. A
 * terminal's Ctrl+C reaches every process of its foreground group, and `tsx`, `tsx watch` and
 * other supervisors in that group forward what they receive to their child as well, so an agent
 * under `npm run dev` can get one Ctrl+C twice, milliseconds apart.
 */
const RELAYED_SIGNAL_MS = 1_000;

/**
 * How long the process may take to end by itself once its stop has settled. pino writes each
 * line asynchronously, through libuv's thread pool, and `process.exit` ends the process without
 * waiting for a write still queued there, so the stop's last lines ("runtime stopped") were lost
 * when the pool was busy. The process ends as soon as nothing is left to do, and at this
 * deadline when something, such as a hung executor's timer, would keep it alive.
 */
const EXIT_AFTER_STOP_MS = 2_000;

function exitSoon(code: NonNullable<typeof process.exitCode>): void {
  process.exitCode = code;
  setTimeout(() => process.exit(code), EXIT_AFTER_STOP_MS).unref();
}

/**
 * Stops the runtime on `SIGINT` or `SIGTERM` (`options.handleSignals`), then ends the process
 * once its last log lines are written, within two seconds even while a timer would keep it alive:
 * with `process.exitCode` (0 when unset) when the stop resolves, with 1 when it fails. The same signal again within a second is taken for a copy of
 * the first, which a supervisor such as `tsx watch` forwards, and ignored. Later, a second
 * `SIGINT` during a hung stop gets Node's default (unless the program listens for it too),
 * which ends the process at once.
 *
 * @param stop - Stops the runtime.
 * @param logger - Where the signal and a failed stop are logged.
 * @returns A function that removes the listeners again, before a signal has come; after one, it
 * leaves them, so that they still ignore copies of it and hand a later one to Node.
 * @claim tsdoc-node-stop-signal
 * @claim tsdoc-node-stop-signal-copy
 * @claim tsdoc-node-stop-signal-once
 * @claim tsdoc-node-stop-signal-logs
 * @claim tsdoc-node-stop-signal-remove
 */
export function onStopSignal(stop: () => Promise<void>, logger: Logger): () => void {
  const firstAt = new Map<NodeJS.Signals, number>();
  const onSignal = (signal: NodeJS.Signals): void => {
    const at = firstAt.get(signal);
    if (at !== undefined) {
      if (Date.now() - at < RELAYED_SIGNAL_MS) return;
      // Asked again: hand the signal back to Node, whose default ends the process.
      process.off(signal, onSignal);
      process.kill(process.pid, signal);
      return;
    }
    firstAt.set(signal, Date.now());
    logger.info({ signal }, 'signal received; stopping');
    // The runtime took over the signal, so it must also end the process, even if a hung
    // executor's timer would keep the event loop alive.
    stop().then(
      () => exitSoon(process.exitCode ?? 0),
      (error: unknown) => {
        logger.error(errorLogFields(error), 'stop failed');
        exitSoon(1);
      },
    );
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => {
    // Once a signal has begun the stop, the listeners stay until the process ends: the stop
    // removes them as it begins, and a forwarded copy would otherwise reach Node's default,
    // which ends the process in the middle of the stop.
    if (firstAt.size > 0) return;
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
  };
}
