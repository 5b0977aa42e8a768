import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { rawAnswer } from './client-errors.js';

/** The caps on a server's open connections; a cap left out is not applied. */
export interface ConnectionLimits {
  /** Open connections in all. */
  readonly total: number;
  /** Open connections from one client address. */
  readonly perClient?: number;
}

/** What a refused connection is told, with the cap it met. */
export interface RefusedConnection {
  readonly address: string;
  readonly open: number;
  readonly limit: 'maxConnections' | 'maxConnectionsPerClient';
}

/** How long a refused connection may take to read its answer before it is destroyed. */
const FLUSH_GRACE_MS = 1_000;

/**
 * Caps the connections a Node server holds open, in all and per client address, so that one
 * peer opening connections without end cannot take every socket and file descriptor of the
 * process (the database's and the model server's included). A connection over a cap is
 * answered `503` with `WEFT_TOO_MANY_CONNECTIONS` and `Retry-After`, then closed; the ones
 * already open go on, and a slot is free again as soon as one of them closes.
 *
 * @param server - The server, before it listens.
 * @param limits - The caps.
 * @param headers - Headers every answer carries, such as `X-Content-Type-Options`.
 * @param onRefused - Called with each refusal, for the log.
 * @returns Whether a socket was refused: Node's parser still reads what such a client sends, so
 * the application's first middleware drops its requests before any route sees them.
 */
export function limitConnections(
  server: Server,
  limits: ConnectionLimits,
  headers: Readonly<Record<string, string>>,
  onRefused: (refused: RefusedConnection) => void,
): (socket: Socket) => boolean {
  let total = 0;
  const refused = new WeakSet<Socket>();
  const perAddress = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    // An IPv4 client reaching a dual-stack server shows as ::ffff:a.b.c.d; it is one address.
    const address = (socket.remoteAddress ?? '').replace(/^::ffff:/, '');
    const fromAddress = perAddress.get(address) ?? 0;
    const limit =
      total >= limits.total
        ? 'maxConnections'
        : limits.perClient !== undefined && fromAddress >= limits.perClient
          ? 'maxConnectionsPerClient'
          : undefined;
    if (limit !== undefined) {
      onRefused({ address, open: limit === 'maxConnections' ? total : fromAddress, limit });
      refused.add(socket);
      socket.end(
        rawAnswer(
          503,
          'The server holds as many connections as it takes from you or in all; close one or retry shortly',
          'WEFT_TOO_MANY_CONNECTIONS',
          { ...headers, 'Retry-After': '1' },
        ),
      );
      setTimeout(() => socket.destroy(), FLUSH_GRACE_MS).unref();
      return;
    }
    total += 1;
    perAddress.set(address, fromAddress + 1);
    socket.once('close', () => {
      total -= 1;
      const left = (perAddress.get(address) ?? 1) - 1;
      if (left === 0) perAddress.delete(address);
      else perAddress.set(address, left);
    });
  });
  return (socket) => refused.has(socket);
}
