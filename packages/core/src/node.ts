/**
 * `@weft/core/node`: the HTTP server that serves plugins' route triggers in Node.js, built on
 * express. `Runtime.init` loads it by itself when some plugin has a route trigger; import it to
 * reach the runtime's express application (authentication middleware, routes of your own) or to
 * run a server without a runtime. express and cors are optional peer dependencies of
 * `@weft/core`: install them (`npm install express cors`) when an agent has route triggers.
 *
 * @packageDocumentation
 */
import type { Runtime } from './runtime/runtime.js';
import { WeftError } from './errors/weft-error.js';
import { ServerManager } from './server/server-manager.js';

export { ServerManager };
export type { CorsOptions, ServerManagerConfig } from './server/server-config.js';

/**
 * The runtime's HTTP server as the express-based `ServerManager`, to add middleware or routes to
 * its `app` before `runtime.start()`.
 *
 * @param runtime - A runtime made by `Runtime.init` in Node.js.
 * @returns Its server.
 * @throws {@link WeftError} `WEFT_INVALID_ARGUMENT` when the runtime has no HTTP server: it
 * loads one only when some plugin has a route trigger, and only in Node.js.
 * @example
 * ```ts
 * import type { Runtime } from '@weft/core';
 * import { serverOf } from '@weft/core/node';
 *
 * async function startWithHealthCheck(runtime: Runtime) {
 *   const { app } = serverOf(runtime);
 *   app.get('/healthz', (_request, response) => {
 *     response.json({ ok: true });
 *   });
 *   await runtime.start();
 * }
 * ```
 * @claim tsdoc-node-server-of
 */
export function serverOf(runtime: Runtime): ServerManager {
  const server = runtime.server;
  // By shape rather than instanceof: the CommonJS and ESM builds each hold their own class.
  if (typeof (server as Partial<ServerManager>).app === 'function') {
    return server as ServerManager;
  }
  throw new WeftError(
    'WEFT_INVALID_ARGUMENT',
    'serverOf: this runtime has no HTTP server; the runtime loads one only when some plugin has a route trigger, and only in Node.js.',
  );
}
