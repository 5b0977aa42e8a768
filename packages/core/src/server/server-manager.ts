import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import cors from 'cors';
import express, { type ErrorRequestHandler, type Express } from 'express';
import type { Logger } from 'pino';
import type { TriggerRoute } from '../plugins/types.js';
import type { Runtime } from '../runtime/runtime.js';
import { describeError, WeftError } from '../errors/weft-error.js';

/** Options of the `cors` middleware, passed through unchanged. */
export type CorsOptions = cors.CorsOptions;

/** How the runtime's HTTP server listens and what it accepts. */
export interface ServerManagerConfig {
  /** TCP port; `0` picks a free one (read it back from {@link ServerManager.port}). Default 3000. */
  port?: number;
  /** Interface to listen on. Default `127.0.0.1`; use `0.0.0.0` to accept remote clients. */
  host?: string;
  /** `true` allows every origin, an object configures the `cors` middleware; default off. */
  cors?: boolean | CorsOptions;
  /** Largest accepted JSON body, as bytes or a string like `'100kb'`. Default `'1mb'`. */
  bodyLimit?: number | string;
}

/**
 * The HTTP server that plugins' {@link TriggerRoute}s are mounted on, built on express. It
 * parses JSON bodies and answers errors as JSON `{ "error": { "status", "message" } }`:
 * 400 for malformed JSON, 413 for a body over the limit, 404 for an unknown path, the error's
 * own `status` when it has one (503 for a full queue), and 500 with no stack trace otherwise.
 * The runtime only starts it when some plugin has a route.
 *
 * @example
 * ```ts
 * import { ServerManager } from '@weft/core';
 *
 * const server = new ServerManager({ port: 0 });
 * await server.start();
 * console.log(`listening on ${server.url}`);
 * await server.stop();
 * ```
 */
export class ServerManager {
  /** The express application, for middleware of your own (add it before `start`). */
  readonly app: Express;
  private readonly config: Required<Omit<ServerManagerConfig, 'cors'>> & {
    cors: ServerManagerConfig['cors'];
  };
  private readonly logger: Logger | undefined;
  private readonly mounted = new Set<string>();
  private server: Server | undefined;
  private listeningPort: number | undefined;

  /**
   * Creates the server and its express application; it listens only once started.
   *
   * @param config - Port, host, CORS and body limit.
   * @param logger - Where request failures are logged.
   * @throws Error when the port is not an integer from 0 to 65535.
   */
  constructor(config: ServerManagerConfig = {}, logger?: Logger) {
    const port = config.port ?? 3000;
    if (!Number.isInteger(port) || port < 0 || port > 65535) {
      throw new WeftError(
        'WEFT_INVALID_ARGUMENT',
        `ServerManager: option "port" must be an integer from 0 to 65535, got ${String(config.port)}.`,
      );
    }
    this.config = {
      port,
      host: config.host ?? '127.0.0.1',
      bodyLimit: config.bodyLimit ?? '1mb',
      cors: config.cors,
    };
    this.logger = logger;
    this.app = express();
    this.app.disable('x-powered-by');
    if (this.config.cors) this.app.use(cors(this.config.cors === true ? {} : this.config.cors));
    this.app.use(express.json({ limit: this.config.bodyLimit }));
  }

  /** The port listened on, once started. */
  get port(): number | undefined {
    return this.listeningPort;
  }

  /** The base URL, once started, such as `http://127.0.0.1:3000`. */
  get url(): string | undefined {
    return this.listeningPort === undefined
      ? undefined
      : `http://${formatHost(this.config.host)}:${this.listeningPort}`;
  }

  /**
   * Mounts a trigger route.
   *
   * @param pluginId - The plugin that owns the route, for logs.
   * @param route - The route.
   * @param runtime - Passed to the route's handler.
   * @throws Error when the server is already started or the method and path are taken.
   */
  mount(pluginId: string, route: TriggerRoute, runtime: Runtime): void {
    if (this.server) {
      throw new WeftError(
        'WEFT_RUNTIME_STOPPED',
        `ServerManager: cannot mount ${route.method} ${route.path} of plugin "${pluginId}" after the server started.`,
      );
    }
    const key = `${route.method} ${route.path}`;
    if (this.mounted.has(key)) {
      throw new WeftError(
        'WEFT_DUPLICATE',
        `ServerManager: route ${key} of plugin "${pluginId}" is already mounted.`,
      );
    }
    this.mounted.add(key);
    const method = route.method.toLowerCase() as 'get' | 'post' | 'put' | 'patch' | 'delete';
    this.app[method](route.path, async (request, response) => {
      await route.handler(request, response, runtime);
    });
  }

  /**
   * Starts listening.
   *
   * @returns The address listened on.
   * @throws Error naming the host and port when listening fails (for example, port in use).
   */
  async start(): Promise<{ host: string; port: number }> {
    if (this.server) return { host: this.config.host, port: this.listeningPort as number };
    this.app.use((request, response) => {
      response.status(404).json({
        error: { status: 404, message: `No route for ${request.method} ${request.path}` },
      });
    });
    this.app.use(this.errorHandler);
    const server = this.app.listen(this.config.port, this.config.host);
    await new Promise<void>((resolve, reject) => {
      server.once('listening', resolve);
      server.once('error', (error) =>
        reject(
          new WeftError(
            'WEFT_LISTEN_FAILED',
            `ServerManager: cannot listen on ${this.config.host}:${this.config.port}: ${describeError(error)}`,
            { cause: error },
          ),
        ),
      );
    });
    this.server = server;
    this.listeningPort = (server.address() as AddressInfo).port;
    this.logger?.info({ url: this.url }, 'HTTP server listening');
    return { host: this.config.host, port: this.listeningPort };
  }

  /** Stops accepting connections and waits for open requests to finish. Idempotent. */
  async stop(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    server.closeIdleConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    this.logger?.info('HTTP server stopped');
  }

  private readonly errorHandler: ErrorRequestHandler = (
    error: unknown,
    request,
    response,
    _next,
  ) => {
    const { status, message } = describeHttpError(error);
    if (status >= 500) {
      this.logger?.error(
        {
          method: request.method,
          path: request.path,
          error: describeError(error),
          stack: (error as Error)?.stack,
        },
        'request failed',
      );
    }
    if (response.headersSent) {
      response.end();
      return;
    }
    response.status(status).json({ error: { status, message } });
  };
}

function describeHttpError(error: unknown): { status: number; message: string } {
  const details = (typeof error === 'object' && error !== null ? error : {}) as {
    type?: string;
    status?: unknown;
    statusCode?: unknown;
    message?: string;
    limit?: number;
  };
  if (details.type === 'entity.parse.failed') {
    return { status: 400, message: `Malformed JSON body: ${details.message ?? 'could not parse'}` };
  }
  if (details.type === 'entity.too.large') {
    return {
      status: 413,
      message: `Request body is larger than the limit of ${details.limit ?? '?'} bytes`,
    };
  }
  const status = Number(details.status ?? details.statusCode);
  if (Number.isInteger(status) && status >= 400 && status < 600 && status !== 500) {
    return { status, message: details.message ?? 'Request failed' };
  }
  return { status: 500, message: 'Internal server error' };
}

function formatHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
