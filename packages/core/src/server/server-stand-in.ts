import { WeftError } from '../errors/weft-error.js';
import type { HttpServer } from './route.js';

/**
 * The runtime's `server` where nothing listens: in a browser, which cannot listen for
 * requests, and in Node.js when no plugin has a route trigger, since only then does the runtime
 * load the HTTP server of `@weft/core/node`. Its `port` and `url` are `undefined`; mounting a
 * route or starting it throws `WEFT_UNSUPPORTED_PLATFORM` in a browser, naming what needed the
 * server. The runtime never uses it: in a browser it leaves route triggers unserved, so a plugin
 * that has them still runs its tasks.
 * @claim tsdoc-browser-server-throws
 */
export class ServerStandIn implements HttpServer {
  /**
   * @param host - Where the runtime runs: `'browser'`, or `'node'` for a runtime without routes.
   */
  constructor(private readonly host: 'browser' | 'node') {}

  /**
   * Always `undefined`: nothing listens.
   * @claim tsdoc-browser-server-port
   */
  get port(): number | undefined {
    return undefined;
  }

  /** Always `undefined`: nothing listens. */
  get url(): string | undefined {
    return undefined;
  }

  /**
   * Throws, naming the route: route triggers need the HTTP server.
   *
   * @param pluginId - The plugin that owns the route.
   * @param route - The route's method and path.
   * @claim tsdoc-browser-server-mount
   */
  mount(pluginId: string, route: { method: string; path: string }): never {
    throw this.unavailable(
      `plugin "${pluginId}" has the route trigger ${route.method} ${route.path}, which`,
    );
  }

  /** Rejects: nothing can listen. */
  start(): Promise<never> {
    return Promise.reject(this.unavailable('ServerManager.start'));
  }

  /**
   * Resolves at once: nothing was started.
   * @claim tsdoc-browser-server-stop
   */
  async stop(): Promise<void> {}

  private unavailable(what: string): WeftError {
    return this.host === 'browser'
      ? new WeftError(
          'WEFT_UNSUPPORTED_PLATFORM',
          `${what} needs the HTTP server (options.server), which runs only in Node.js. In a browser, turn events into tasks with runtime.dispatch() instead of route triggers.`,
        )
      : new WeftError(
          'WEFT_INVALID_ARGUMENT',
          `${what} needs the HTTP server, which the runtime loads from @weft/core/node only when some plugin has a route trigger; this runtime has none.`,
        );
  }
}
