/**
 * What the coordinator asks for when it connects, read from the startup message itself: a pooler
 * between it and PostgreSQL sees these parameters, and PgBouncer refuses a connection whose
 * startup message carries one it does not know (`unsupported startup parameter`). A fake server
 * reads the message and answers as such a pooler does, without a PostgreSQL server or a pooler.
 */
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { WeftError } from '@weft/core';
import { afterEach, describe, expect, it } from 'vitest';
import { PostgresSpaceCoordinator } from '../src/coordinator.js';

/** The parameters of a protocol 3 startup message: `key\0value\0` pairs after two int32s. */
function startupParameters(message: Buffer): Record<string, string> {
  const parts = message.subarray(8).toString('utf8').split('\0');
  const parameters: Record<string, string> = {};
  for (let index = 0; index + 1 < parts.length && parts[index] !== ''; index += 2) {
    parameters[parts[index] as string] = parts[index + 1] as string;
  }
  return parameters;
}

/** An ErrorResponse (FATAL, 08P01) with the message a pooler sends before it closes. */
function fatal(message: string): Buffer {
  const body = Buffer.concat([
    Buffer.from(`SFATAL\0C08P01\0M${message}\0`, 'utf8'),
    Buffer.from([0]),
  ]);
  const length = Buffer.alloc(4);
  length.writeInt32BE(body.length + 4);
  return Buffer.concat([Buffer.from('E'), length, body]);
}

let server: Server | undefined;

afterEach(async () => {
  await new Promise((resolve) => server?.close(resolve) ?? resolve(undefined));
  server = undefined;
});

describe('PostgresSpaceCoordinator startup parameters', () => {
  it('sends statement_timeout and the keepalive settings as startup parameters, which a pooler such as PgBouncer refuses by default, so the lock connection of a silent host ends 25 s into its silence [claim:coord-readme-pooler-startup-parameters] [claim:scaling-no-pooler] [claim:wp-coordinator]', async () => {
    const seen: Record<string, string>[] = [];
    server = createServer((socket: Socket) => {
      socket.once('data', (chunk) => {
        const parameters = startupParameters(chunk);
        seen.push(parameters);
        socket.end(fatal('unsupported startup parameter: statement_timeout'));
      });
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const coordinator = new PostgresSpaceCoordinator({
      connectionString: `postgres://weft@127.0.0.1:${port}/weft`,
      connectTimeoutMs: 3_000,
    });

    const error = await coordinator.init({ resume: () => undefined }).then(
      () => undefined,
      (failure: unknown) => failure,
    );

    expect(WeftError.is(error, 'WEFT_COORDINATOR_CONNECT_FAILED')).toBe(true);
    expect((error as Error).message).toContain('unsupported startup parameter: statement_timeout');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({
      statement_timeout: '5000',
      options: expect.stringContaining('-c tcp_user_timeout=25000') as unknown as string,
    });
    expect(seen[0]?.options).toContain('-c tcp_keepalives_idle=10');
    // Probes from 10 s of silence, 3 of them 5 s apart: the server ends the connection at 25 s,
    // as tcp_user_timeout does when data it sent waits unacknowledged.
    expect(seen[0]?.options).toContain('-c tcp_keepalives_interval=5');
    expect(seen[0]?.options).toContain('-c tcp_keepalives_count=3');
  });
});
