/**
 * BoundedStdioTransport on its own, over in-memory streams with a small limit: where exactly a
 * line is long enough to be refused, for lines ended LF and CRLF, whole or cut across chunks.
 */
import { PassThrough, Writable } from 'node:stream';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BoundedStdioTransport } from '../src/stdio.js';

const LIMIT = 100;

/** A ping of exactly `bytes` bytes (ASCII), without its line ending. */
function ping(id: number, bytes: number): string {
  const bare = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { pad: '' } });
  const line = bare.replace('"pad":""', `"pad":"${'x'.repeat(bytes - bare.length)}"`);
  expect(line.length).toBe(bytes);
  return line;
}

const transports: BoundedStdioTransport[] = [];
afterEach(async () => {
  await Promise.all(transports.splice(0).map((transport) => transport.close()));
});

/** What a transport did with what it was fed. */
interface Fed {
  /** The ids of the messages it took. */
  readonly taken: unknown[];
  /** All it wrote to stdout, chunk by chunk. */
  readonly written: string[];
  /** Its answers, each line of stdout parsed. */
  readonly answers: { id: unknown; error: { code: number } }[];
  /** Its log lines. */
  readonly logged: string[];
}

/**
 * Starts a transport on in-memory streams (with `maxLineBytes` when given) and writes `chunks` to
 * its stdin one at a time, letting it read each.
 */
async function feedTransport(chunks: readonly string[], maxLineBytes?: number): Promise<Fed> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const fed: Fed = { taken: [], written: [], answers: [], logged: [] };
  stdout.on('data', (chunk: Buffer) => {
    const text = chunk.toString('utf8');
    fed.written.push(text);
    for (const line of text.split('\n').filter(Boolean)) {
      fed.answers.push(JSON.parse(line) as Fed['answers'][number]);
    }
  });
  const transport = new BoundedStdioTransport({
    stdin,
    stdout,
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
    log: (line) => fed.logged.push(line),
  });
  transports.push(transport);
  transport.onmessage = (message: JSONRPCMessage) =>
    fed.taken.push((message as { id: unknown }).id);
  await transport.start();
  for (const chunk of chunks) {
    stdin.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return fed;
}

/** Feeds `chunks` to a transport of limit LIMIT; gives the ids it took and the codes it answered. */
async function feed(chunks: readonly string[]): Promise<{ taken: unknown[]; refused: number[] }> {
  const { taken, answers } = await feedTransport(chunks, LIMIT);
  return { taken, refused: answers.map((answer) => answer.error.code) };
}

describe('BoundedStdioTransport counts a line without its ending', () => {
  it('takes a line of the limit ended LF or CRLF, whole or with its CR cut from its LF [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    const line = ping(1, LIMIT);
    expect(await feed([`${line}\n`])).toEqual({ taken: [1], refused: [] });
    expect(await feed([`${line}\r\n`])).toEqual({ taken: [1], refused: [] });
    expect(await feed([`${line}\r`, '\n'])).toEqual({ taken: [1], refused: [] });
    expect(await feed([line.slice(0, 50), `${line.slice(50)}\r`, '\n'])).toEqual({
      taken: [1],
      refused: [],
    });
  });

  it('refuses a line one byte longer, ended LF or CRLF, and reads the next [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    const long = ping(2, LIMIT + 1);
    const next = `${ping(3, 60)}\n`;
    expect(await feed([`${long}\n`, next])).toEqual({ taken: [3], refused: [-32600] });
    expect(await feed([`${long}\r\n`, next])).toEqual({ taken: [3], refused: [-32600] });
    expect(await feed([`${long}\r`, '\n', next])).toEqual({ taken: [3], refused: [-32600] });
  });

  it('refuses a line whose byte past the limit is a CR inside it, not its end', async () => {
    // The CR ends a chunk, so the line is let through until the next byte shows it goes on.
    expect(await feed(['a'.repeat(LIMIT) + '\r', 'x\n'])).toEqual({ taken: [], refused: [-32600] });
  });
});

describe('BoundedStdioTransport and a line that is no JSON-RPC message', () => {
  it('skips an empty line, or one of white space only, LF or CRLF, without an answer or a log line [claim:mcp-docs-readme-stdio-blank]', async () => {
    const { written, logged, taken } = await feedTransport([
      '\n',
      '\r\n',
      '   \n',
      ' \t \r\n',
      `${ping(5, 60)}\n`,
    ]);
    expect(written).toEqual([]);
    expect(logged).toEqual([]);
    expect(taken).toEqual([5]);
  });

  it('answers -32700 to JSON of another shape as to a line that is not JSON, logs each, and reads the next [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    const { answers, logged, taken } = await feedTransport(
      ['not json', '{"hello":"world"}', '[1,2]', ping(4, 60)].map((line) => `${line}\n`),
    );
    expect(answers.map((answer) => [answer.id, answer.error.code])).toEqual([
      [null, -32700],
      [null, -32700],
      [null, -32700],
    ]);
    expect(logged).toHaveLength(3);
    expect(logged.every((line) => line.includes('not a JSON-RPC message'))).toBe(true);
    expect(taken).toEqual([4]);
  });
});

describe('BoundedStdioTransport and a client that does not read its answers', () => {
  it('stops reading stdin while stdout is full, and reads on once it drains [claim:tsdoc-docs-stdio-backpressure] [claim:mcp-docs-readme-stdio-backpressure]', async () => {
    const stdin = new PassThrough();
    // A client that reads nothing until told: each write waits for its callback.
    const waiting: (() => void)[] = [];
    const stdout = new Writable({
      highWaterMark: 1024,
      write: (_chunk, _encoding, callback) => waiting.push(callback),
    });
    const transport = new BoundedStdioTransport({ stdin, stdout, log: () => {} });
    transports.push(transport);
    const taken: unknown[] = [];
    const answer = 'x'.repeat(1000);
    transport.onmessage = (message) => {
      const { id } = message as { id: number };
      taken.push(id);
      void transport.send({ jsonrpc: '2.0', id, result: { answer } });
    };
    await transport.start();
    // 1000 pings, 100 to a chunk: answered in full, they would hold about 1 MB.
    for (let first = 0; first < 1000; first += 100) {
      const lines = Array.from({ length: 100 }, (_, index) =>
        JSON.stringify({ jsonrpc: '2.0', id: first + index, method: 'ping' }),
      );
      stdin.write(`${lines.join('\n')}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(taken.length).toBeLessThan(10);
    expect(stdout.writableLength).toBeLessThan(10_000);
    // The client reads: every message is taken and answered.
    const deadline = Date.now() + 10_000;
    while (taken.length < 1000 && Date.now() < deadline) {
      waiting.splice(0).forEach((callback) => callback());
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(taken).toEqual(Array.from({ length: 1000 }, (_, index) => index));
  });
});
