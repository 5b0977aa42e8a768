/**
 * The server over streamable HTTP, for clients that connect to a URL rather than start a
 * process. Stateless: each POST gets its own server and transport, so nothing is kept between
 * requests. Bound to 127.0.0.1 by default, and every request's `Host` (and `Origin`, when a
 * browser sends one) must pass the same check as the Weft runtime's HTTP server, so a web page
 * whose name was rebound to 127.0.0.1 cannot reach it.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { hostChecker, hostnameOf, type AllowedHosts } from '@weft/core/internal';
import { logToStderr, type FailureLog } from './answers.js';
import type { DocsBundle } from './bundle.js';
import { createDocsServer } from './server.js';

/** The path of the MCP endpoint; every other path is answered 404. */
export const MCP_HTTP_PATH = '/mcp';
/** A JSON-RPC request for a docs tool is small; a larger body is refused before it is parsed. */
export const MAX_BODY_BYTES = 1_000_000;
/** The longest a client may take to send a request; a stalled one is cut off. */
export const REQUEST_DEADLINE_MS = 30_000;

/** Where {@link startHttpServer} listens and what it accepts. */
export interface HttpOptions {
  /** The interface to listen on; 127.0.0.1 unless the machine's users should reach it. */
  readonly host?: string;
  /**
   * The port; `0`, the default here, picks a free one (read it from the returned `url`). The
   * `weft-docs-mcp` command defaults to 3920 instead.
   */
  readonly port?: number;
  /** Host names accepted besides the loopback names and `host`, as in the runtime's server. */
  readonly allowedHosts?: AllowedHosts;
  /** Where failures are written, with the id the client is given; standard error by default. */
  readonly log?: FailureLog;
}

/** A started HTTP transport. */
export interface RunningHttpServer {
  /** The MCP endpoint, such as `http://127.0.0.1:3920/mcp`. */
  readonly url: string;
  /** Closes every connection, open requests included, and stops listening. */
  close(): Promise<void>;
}

function sendJsonError(response: ServerResponse, status: number, message: string): void {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJsonBody(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES)
      throw new RangeError(`the body is larger than ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/**
 * Starts the HTTP transport.
 *
 * @param bundle - The documentation to serve.
 * @param options - Where to listen and which host names to accept.
 * @returns The server's URL (its MCP endpoint) and a way to stop it.
 * @throws The listening error itself, such as `EADDRINUSE` when the port is taken.
 */
export async function startHttpServer(
  bundle: DocsBundle,
  options: HttpOptions = {},
): Promise<RunningHttpServer> {
  const host = options.host ?? '127.0.0.1';
  const log = options.log ?? logToStderr;
  const isAllowed = hostChecker(options.allowedHosts ?? [], host);

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    const hostHeader = request.headers.host;
    if (!isAllowed(hostHeader)) {
      sendJsonError(
        response,
        403,
        `Host ${JSON.stringify(hostnameOf(hostHeader ?? '').slice(0, 100))} is not allowed by this server`,
      );
      return;
    }
    const origin = request.headers.origin;
    if (origin !== undefined && origin !== 'null' && !isAllowed(originHost(origin))) {
      sendJsonError(
        response,
        403,
        `Origin ${JSON.stringify(origin.slice(0, 100))} is not allowed by this server`,
      );
      return;
    }
    const path = (request.url ?? '/').split('?')[0];
    if (path !== MCP_HTTP_PATH) {
      sendJsonError(response, 404, `Not found: the MCP endpoint is ${MCP_HTTP_PATH}`);
      return;
    }
    if (request.method !== 'POST') {
      // Stateless: no stream to resume (GET) and no session to end (DELETE).
      response.setHeader('allow', 'POST');
      sendJsonError(response, 405, 'Method not allowed: this server answers POST only');
      return;
    }
    let body: unknown;
    try {
      body = await readJsonBody(request);
    } catch (error) {
      sendJsonError(
        response,
        error instanceof RangeError ? 413 : 400,
        `Bad request: ${(error as Error).message}`,
      );
      return;
    }
    const server = createDocsServer(bundle, log);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    response.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request, response, body);
  };

  const httpServer: Server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const id = randomUUID();
      log(
        `weft-docs-mcp: an HTTP request failed (error id ${id}): ${(error as Error).stack ?? error}`,
      );
      if (!response.headersSent)
        sendJsonError(response, 500, `Internal error; the server's log has id ${id}`);
      else response.end();
    });
  });
  httpServer.requestTimeout = REQUEST_DEADLINE_MS;
  httpServer.headersTimeout = REQUEST_DEADLINE_MS;

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port ?? 0, host, () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const address = httpServer.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${shownHost}:${address.port}${MCP_HTTP_PATH}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        httpServer.closeAllConnections();
        httpServer.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** The `host[:port]` part of an Origin such as `http://localhost:5173`, for the host check. */
function originHost(origin: string): string | undefined {
  try {
    return new URL(origin).host;
  } catch {
    return undefined;
  }
}
