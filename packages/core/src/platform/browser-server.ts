import type { Express, RequestHandler } from 'express';
import type { Logger } from 'pino';
import { WeftError } from '../errors/weft-error.js';
import type {
  ServerManager as NodeServerManager,
  ServerManagerConfig,
} from '../server/server-manager.js';

/**
 * The browser's stand-in for the HTTP server: a page cannot listen for requests, so there is
 * nothing to mount routes on. It has the Node class's members, so code that builds a runtime
 * compiles the same for both; using the server (mounting a route, starting, reading `app`)
 * throws `WEFT_UNSUPPORTED_PLATFORM`, naming what needed it. The runtime never uses it: in a
 * browser it leaves route triggers unserved, so a plugin that has them still runs its tasks.
 * @claim tsdoc-browser-server-throws
 */
export class ServerManager implements Pick<
  NodeServerManager,
  'app' | 'jsonBody' | 'port' | 'url' | 'mount' | 'start' | 'stop'
> {
  /**
   * Accepts the Node class's arguments and keeps nothing: there is no server to configure.
   *
   * @param _config - Ignored.
   * @param _logger - Ignored.
   */
  constructor(_config: ServerManagerConfig = {}, _logger?: Logger) {}

  /** Throws: there is no express application in a browser. */
  get app(): Express {
    throw serverUnavailable('ServerManager.app');
  }

  /** Throws: there is no express body parser in a browser. */
  get jsonBody(): RequestHandler {
    throw serverUnavailable('ServerManager.jsonBody');
  }

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
    throw serverUnavailable(
      `plugin "${pluginId}" has the route trigger ${route.method} ${route.path}, which`,
    );
  }

  /** Rejects: nothing can listen in a browser. */
  start(): Promise<never> {
    return Promise.reject(serverUnavailable('ServerManager.start'));
  }

  /**
   * Resolves at once: nothing was started.
   * @claim tsdoc-browser-server-stop
   */
  async stop(): Promise<void> {}
}

function serverUnavailable(what: string): WeftError {
  return new WeftError(
    'WEFT_UNSUPPORTED_PLATFORM',
    `${what} needs the HTTP server (options.server), which runs only in Node.js. In a browser, turn events into tasks with runtime.dispatch() instead of route triggers.`,
  );
}
