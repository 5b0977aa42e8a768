/**
 * What the core needs from its host when it runs in a browser: the counterpart of node.ts, with
 * the same exports, chosen by the `browser` condition of `#platform` (package.json `imports`).
 * What only Node.js has (the HTTP server, files, process signals, environment variables) is
 * absent here; using it throws `WEFT_UNSUPPORTED_PLATFORM` or is a configuration problem.
 */
// pino's `browser` field hands bundlers its console build, so its Node build (streams, worker
// transports) never reaches a page; the core's own browser build bundles it (tsup.config.ts).
import { pino, type Logger } from 'pino';
import { WeftError } from '../errors/weft-error.js';
import type * as NodePlatform from './node.js';

/**
 * Whether `options.handleSignals` can work here: a page receives no process signals.
 * @claim tsdoc-browser-signals
 */
export const SUPPORTS_SIGNALS: boolean = false;

/**
 * Whether the HTTP server for route triggers can run here: a page cannot listen, so the runtime
 * leaves route triggers unserved (and says so in its log) and refuses `options.server`.
 */
export const SUPPORTS_SERVER: boolean = false;

/**
 * Never called: the runtime loads no HTTP server where {@link SUPPORTS_SERVER} is false.
 *
 * @returns A promise that rejects with `WEFT_UNSUPPORTED_PLATFORM`.
 */
export const loadHttpServer: typeof NodePlatform.loadHttpServer = () =>
  Promise.reject(
    new WeftError(
      'WEFT_UNSUPPORTED_PLATFORM',
      'The HTTP server runs only in Node.js; in a browser, dispatch tasks with runtime.dispatch().',
    ),
  );

/**
 * The environment variables the core reads: a page has none.
 *
 * @returns An empty record.
 * @claim tsdoc-browser-environment
 */
export const hostEnvironment: typeof NodePlatform.hostEnvironment = () => ({});

/**
 * The root logger when the user supplies none: pino's browser logger, which writes objects to
 * the console at `info`.
 */
export const createDefaultLogger: typeof NodePlatform.createDefaultLogger = (): Logger =>
  pino({ name: 'weft', level: 'info' });

/** Nothing to do: a browser's EventTarget has no listener limit to warn about. */
export const allowManyListeners: typeof NodePlatform.allowManyListeners = () => undefined;

/**
 * Throws: a page cannot read a directory.
 *
 * @param directory - The directory that was asked for, named in the error.
 * @claim tsdoc-browser-read-templates
 */
export const readTemplateFiles: typeof NodePlatform.readTemplateFiles = (directory) =>
  Promise.reject(
    new WeftError(
      'WEFT_UNSUPPORTED_PLATFORM',
      `PromptRegistry.loadDirectory: cannot read ${directory}: reading template files needs Node.js. In a browser, register each template's source with PromptRegistry.register, or a plugin's templates field.`,
    ),
  );

/** Never called: `Runtime.init` refuses `options.handleSignals` where signals are unsupported. */
export const onStopSignal: typeof NodePlatform.onStopSignal = () => () => undefined;
