import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';

/**
 * Keeps a kept-alive connection open while the client sends its next request, so that a client
 * slow to send that request's headers gets the same `408` after `headersTimeout` as on a new
 * connection.
 *
 * Node.js times a kept-alive connection from its last byte, for `keepAliveTimeout` plus a second,
 * and stops that timer only once the next request's headers are complete: a client that pauses
 * for longer while it sends them would have its connection closed without an answer, before
 * `headersTimeout` (10 s by default, the keep-alive timer 6 s). Here, a timer that runs out after
 * bytes of a new request have arrived is set again for `headersTimeout` plus a second; the
 * headers check answers `408` before it runs out, and a connection that has sent only line ends
 * (which begin no request, so no check times them) is closed when it does. A timer that runs out
 * on a connection that sent nothing since its last answer closes it, as Node.js would.
 *
 * @param server - The server, before it listens.
 * @param headersTimeoutMs - The server's `headersTimeout`.
 */
export function holdArrivingRequests(server: Server, headersTimeoutMs: number): void {
  /** The bytes a connection had read when its last answer was sent. */
  const readWhenAnswered = new WeakMap<Socket, number>();
  /** Connections whose keep-alive timer was set again for a request arriving. */
  const held = new WeakSet<Socket>();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const socket = request.socket;
    response.once('finish', () => {
      readWhenAnswered.set(socket, socket.bytesRead);
      held.delete(socket);
    });
  });
  // With a listener here, Node.js leaves a timed-out connection to it instead of closing it.
  server.on('timeout', (socket: Socket) => {
    const read = readWhenAnswered.get(socket);
    if (read !== undefined && socket.bytesRead > read && !held.has(socket)) {
      held.add(socket);
      socket.setTimeout(headersTimeoutMs + 1_000);
      return;
    }
    socket.destroy();
  });
}
