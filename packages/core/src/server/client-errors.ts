import { randomUUID } from 'node:crypto';
import { STATUS_CODES, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errorDocsUrl } from '../errors/error-registry.js';
import type { ErrorAnswer } from './error-answer.js';

/**
 * The answers to requests Node.js refuses before any route or middleware sees them, by the
 * code of Node's error. Each message says what the client should change.
 */
const CLIENT_ERRORS: Readonly<Record<string, { status: number; message: string }>> = {
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    message:
      'The request took longer to arrive than the server waits (server.headersTimeout for the headers, server.requestTimeout for the whole request); send it again without pausing',
  },
  HPE_HEADER_OVERFLOW: {
    status: 431,
    // Node counts the request line, and so the URL, with the headers.
    message:
      'The request line and headers, the URL included, are larger than the server accepts; send a shorter URL, or fewer or shorter headers',
  },
  HPE_CHUNK_EXTENSIONS_OVERFLOW: {
    status: 413,
    message: 'The chunk extensions of the request body are larger than the server accepts',
  },
};

const MALFORMED = { status: 400, message: 'The request is not valid HTTP/1.1' };

const EXPECTATION_FAILED =
  'The server meets no expectation but 100-continue; send the request again without this Expect header';

/** How long an answered connection may take to flush before it is destroyed all the same. */
const FLUSH_GRACE_MS = 1_000;

/**
 * The status and message a request Node.js refused gets, by the code of Node's error: 408 for a
 * late one, 431 for headers too large, 413 for chunk extensions too large, and 400 for bytes that
 * are not HTTP (an unknown method, a malformed request line or header).
 *
 * @param code - The `code` of the error Node.js's `clientError` event gave.
 * @returns The answer's status and message, each saying what the client should change.
 */
export function clientErrorRefusal(code: string | undefined): { status: number; message: string } {
  return CLIENT_ERRORS[code ?? ''] ?? MALFORMED;
}

/**
 * Makes a Node server answer the requests it refuses itself (a client too slow to send its
 * request, headers too large, bytes that are not HTTP) like every other error answer of the
 * runtime: a JSON body with a code, a `docsUrl` and a request id, also sent as `X-Request-Id`.
 * Without this, Node answers them with an empty body and no id. A connection whose answer has
 * already begun is destroyed instead, as Node does, so the client never reads a corrupt answer.
 * An HTTP/1.1 request whose `Expect` header does not name `100-continue` is answered `417` the same
 * way (Node passes an HTTP/1.0 request's `Expect` on to the routes), where Node would send an empty `417` of its own, and its connection is closed.
 * A `CONNECT` request, which Node would close without an answer, is answered `404`
 * `WEFT_NOT_FOUND`, as every request no route matches is, and its connection is closed.
 *
 * @param server - The server, before it listens.
 * @param headers - Headers every answer carries, such as `X-Content-Type-Options`.
 */
export function answerClientErrors(
  server: Server,
  headers: Readonly<Record<string, string>>,
): void {
  const inFlight = new WeakMap<Duplex, ServerResponse>();
  // The last request of each connection, kept after its answer: its body may still be late.
  const latest = new WeakMap<Duplex, { request: IncomingMessage; response: ServerResponse }>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    inFlight.set(request.socket, response);
    latest.set(request.socket, { request, response });
    response.once('close', () => {
      if (inFlight.get(request.socket) === response) inFlight.delete(request.socket);
    });
  });
  server.on('checkExpectation', (request: IncomingMessage, response: ServerResponse) => {
    if (!request.socket.writable) {
      request.socket.destroy();
      return;
    }
    const requestId = randomUUID();
    const answer: ErrorAnswer = {
      status: 417,
      message: EXPECTATION_FAILED,
      code: 'WEFT_BAD_REQUEST',
      docsUrl: errorDocsUrl('WEFT_BAD_REQUEST'),
      requestId,
    };
    const body = JSON.stringify({ error: answer });
    response.writeHead(417, {
      'Content-Type': 'application/json; charset=utf-8',
      'Content-Length': Buffer.byteLength(body),
      'X-Request-Id': requestId,
      ...headers,
      // The body the client may send next is not read: the connection ends with the answer.
      Connection: 'close',
    });
    response.end(body);
  });
  // Node closes a CONNECT request's connection without a word when nothing listens for it; no
  // route can match one (the server is no proxy), so it gets the 404 of every unmatched request.
  server.on('connect', (_request: IncomingMessage, socket: Duplex) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    socket.end(
      rawAnswer(404, 'No route for CONNECT: this server is not a proxy', 'WEFT_NOT_FOUND', headers),
    );
    setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable || inFlight.get(socket)?.headersSent) {
      socket.destroy();
      return;
    }
    const { status, message } = clientErrorRefusal(error.code);
    // A request whose body is late was given its id when its headers arrived, and middleware or
    // its handler may have logged that id: the answer carries the same one, also when the
    // request was answered already. A request whose headers are late has none yet.
    const last = latest.get(socket);
    const given =
      last !== undefined && !last.request.complete
        ? last.response.getHeader('x-request-id')
        : undefined;
    const requestId = typeof given === 'string' ? given : randomUUID();
    socket.end(rawAnswer(status, message, 'WEFT_BAD_REQUEST', headers, requestId));
    setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
  });
}

/**
 * A whole HTTP/1.1 error answer, written to the socket since there is no response object (or the
 * one there is cannot be used).
 */
export function rawAnswer(
  status: number,
  message: string,
  code: 'WEFT_BAD_REQUEST' | 'WEFT_NOT_FOUND' | 'WEFT_TOO_MANY_CONNECTIONS',
  headers: Readonly<Record<string, string>>,
  requestId: string = randomUUID(),
): string {
  const answer: ErrorAnswer = { status, message, code, docsUrl: errorDocsUrl(code), requestId };
  const body = JSON.stringify({ error: answer });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Bad Request'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    `X-Request-Id: ${requestId}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${lines.join('\r\n')}\r\n\r\n${body}`;
}
