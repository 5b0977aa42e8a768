/**
 * Requests this HTTP/1.1 server would misread are refused: a request line naming another HTTP
 * major version, which Node.js would serve as HTTP/1.1, and a body with a transfer coding other
 * than chunked, which Node.js would pass on still encoded.
 */
import { gzipSync } from 'node:zlib';
import { ServerManager } from '@weft/core/node';
import { afterEach, describe, expect, it } from 'vitest';
import { rawConnectionTo, silentLogger } from './fixtures.js';

let server: ServerManager | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function serve(): Promise<{ port: number; ran: unknown[] }> {
  const ran: unknown[] = [];
  server = new ServerManager({ port: 0 }, silentLogger);
  for (const method of ['GET', 'POST'] as const) {
    server.mount(
      'probe',
      {
        method,
        path: '/probe',
        handler: (request, response) => {
          ran.push(request.body ?? method);
          response.status(200).json({ ok: true });
        },
      },
      undefined,
    );
  }
  await server.start();
  return { port: Number(new URL(server.url as string).port), ran };
}

/** Sends raw bytes and gives all that came back once the server closed the connection. */
async function exchange(port: number, bytes: Buffer | string): Promise<string> {
  const { socket, received, closed } = rawConnectionTo(port);
  socket.write(bytes);
  await closed;
  return received();
}

function answerOf(received: string): { status: number; code: string; message: string } {
  const body = received.slice(received.indexOf('\r\n\r\n') + 4);
  const { error } = JSON.parse(body) as {
    error: { status: number; code: string; message: string };
  };
  return error;
}

describe('ServerManager and requests it does not speak', () => {
  it('answers 505 WEFT_BAD_REQUEST to a request line naming HTTP/2.0 or HTTP/0.9, runs no route and closes the connection, once the host check has passed; HTTP/1.2 is not HTTP to the parser (400) [claim:trig-501-505-row] [claim:httpchat-row-505] [claim:chat-readme-501-505] [claim:prod-http-version] [claim:errors-505-http-version] [claim:errors-5xx-message-generic]', async () => {
    const { port, ran } = await serve();
    for (const version of ['2.0', '0.9']) {
      const received = await exchange(
        port,
        `GET /probe HTTP/${version}\r\nHost: 127.0.0.1\r\n\r\n`,
      );
      expect(received).toMatch(/^HTTP\/1\.1 505 /);
      expect(received.toLowerCase()).toContain('connection: close');
      const answer = answerOf(received);
      expect(answer).toMatchObject({ status: 505, code: 'WEFT_BAD_REQUEST' });
      expect(answer.message).toContain(`HTTP/${version}`);
    }
    // Another version number is not HTTP to Node.js's parser: 400, as for other bytes that are not.
    const unparsed = await exchange(port, 'GET /probe HTTP/1.2\r\nHost: 127.0.0.1\r\n\r\n');
    expect(unparsed).toMatch(/^HTTP\/1\.1 400 /);
    expect(answerOf(unparsed)).toMatchObject({ status: 400, code: 'WEFT_BAD_REQUEST' });
    // The host check comes first: a Host that is not allowed gets its 403 whatever the version.
    const rebound = await exchange(
      port,
      'GET /probe HTTP/2.0\r\nHost: rebound.example\r\nConnection: close\r\n\r\n',
    );
    expect(rebound).toMatch(/^HTTP\/1\.1 403 /);
    expect(answerOf(rebound)).toMatchObject({ status: 403, code: 'WEFT_HOST_NOT_ALLOWED' });
    expect(ran).toEqual([]);
  });

  it('still serves HTTP/1.0 and HTTP/1.1', async () => {
    const { port, ran } = await serve();
    for (const version of ['1.0', '1.1']) {
      const received = await exchange(
        port,
        `GET /probe HTTP/${version}\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n`,
      );
      expect(received).toMatch(/^HTTP\/1\.1 200 /);
    }
    expect(ran).toEqual(['GET', 'GET']);
  });

  it('answers 501 WEFT_BAD_REQUEST to a body with a transfer coding other than chunked, runs no route and closes the connection, once the host check has passed [claim:trig-501-505-row] [claim:httpchat-row-501] [claim:chat-readme-501-505] [claim:prod-transfer-coding] [claim:errors-501-transfer-coding] [claim:errors-5xx-message-generic]', async () => {
    const { port, ran } = await serve();
    const gzipped = gzipSync(JSON.stringify({ text: 'hello' }));
    const body = Buffer.concat([
      Buffer.from(`${gzipped.length.toString(16)}\r\n`),
      gzipped,
      Buffer.from('\r\n0\r\n\r\n'),
    ]);
    for (const codings of ['gzip, chunked', 'Deflate,chunked']) {
      const received = await exchange(
        port,
        Buffer.concat([
          Buffer.from(
            `POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: ${codings}\r\n\r\n`,
          ),
          body,
        ]),
      );
      expect(received).toMatch(/^HTTP\/1\.1 501 /);
      expect(received.toLowerCase()).toContain('connection: close');
      const answer = answerOf(received);
      expect(answer).toMatchObject({ status: 501, code: 'WEFT_BAD_REQUEST' });
      expect(answer.message).toContain(codings.split(',')[0]?.toLowerCase());
    }
    // The host check comes first: a Host that is not allowed gets its 403 whatever the coding.
    const rebound = await exchange(
      port,
      Buffer.concat([
        Buffer.from(
          'POST /probe HTTP/1.1\r\nHost: rebound.example\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\nConnection: close\r\n\r\n',
        ),
        body,
      ]),
    );
    expect(rebound).toMatch(/^HTTP\/1\.1 403 /);
    expect(answerOf(rebound)).toMatchObject({ status: 403, code: 'WEFT_HOST_NOT_ALLOWED' });
    expect(ran).toEqual([]);
  });

  it("answers 501 to a coding alone too, and leaves codings after chunked to Node.js's parser, which answers 400 [claim:prod-transfer-coding] [claim:prod-transfer-coding-after-chunked] [claim:errors-501-after-chunked] [claim:trig-501-505-row]", async () => {
    const { port, ran } = await serve();
    const alone = await exchange(
      port,
      'POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\nConnection: close\r\n\r\n',
    );
    expect(alone).toMatch(/^HTTP\/1\.1 501 /);
    expect(answerOf(alone)).toMatchObject({ status: 501, code: 'WEFT_BAD_REQUEST' });
    const after = await exchange(
      port,
      'POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked, gzip\r\nConnection: close\r\n\r\n0\r\n\r\n',
    );
    expect(after).toMatch(/^HTTP\/1\.1 400 /);
    expect(answerOf(after)).toMatchObject({ status: 400, code: 'WEFT_BAD_REQUEST' });
    expect(ran).toEqual([]);
  });

  it('still takes a chunked body, whatever the case of chunked', async () => {
    const { port, ran } = await serve();
    const json = JSON.stringify({ text: 'hello' });
    const received = await exchange(
      port,
      `POST /probe HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nTransfer-Encoding: Chunked\r\nConnection: close\r\n\r\n${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
    );
    expect(received).toMatch(/^HTTP\/1\.1 200 /);
    expect(ran).toEqual([{ text: 'hello' }]);
  });
});
