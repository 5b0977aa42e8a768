/**
 * BoundedStdioTransport on its own, over in-memory streams with a small limit: where exactly a
 * line is long enough to be refused, for lines ended LF and CRLF, whole or cut across chunks.
 */
import { PassThrough } from 'node:stream';
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

/** Writes `chunks` to a transport's stdin; returns the ids it took and the codes it answered. */
async function feed(chunks: readonly string[]): Promise<{ taken: unknown[]; refused: number[] }> {
  const stdin = new PassThrough();
  const stdout = new PassThrough();
  const taken: unknown[] = [];
  const refused: number[] = [];
  stdout.on('data', (chunk: Buffer) => {
    for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
      refused.push((JSON.parse(line) as { error: { code: number } }).error.code);
    }
  });
  const transport = new BoundedStdioTransport({
    stdin,
    stdout,
    maxLineBytes: LIMIT,
    log: () => undefined,
  });
  transports.push(transport);
  transport.onmessage = (message: JSONRPCMessage) => taken.push((message as { id: unknown }).id);
  await transport.start();
  for (const chunk of chunks) {
    stdin.write(chunk);
    await new Promise((resolve) => setImmediate(resolve));
  }
  return { taken, refused };
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
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const written: string[] = [];
    stdout.on('data', (chunk: Buffer) => written.push(chunk.toString('utf8')));
    const logged: string[] = [];
    const taken: unknown[] = [];
    const transport = new BoundedStdioTransport({
      stdin,
      stdout,
      log: (line) => logged.push(line),
    });
    transports.push(transport);
    transport.onmessage = (message: JSONRPCMessage) => taken.push((message as { id: unknown }).id);
    await transport.start();
    for (const chunk of ['\n', '\r\n', '   \n', ' \t \r\n', `${ping(5, 60)}\n`]) {
      stdin.write(chunk);
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(written).toEqual([]);
    expect(logged).toEqual([]);
    expect(taken).toEqual([5]);
  });

  it('answers -32700 to JSON of another shape as to a line that is not JSON, logs each, and reads the next [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    const answers: { id: unknown; error: { code: number } }[] = [];
    stdout.on('data', (chunk: Buffer) => {
      for (const line of chunk.toString('utf8').split('\n').filter(Boolean)) {
        answers.push(JSON.parse(line) as { id: unknown; error: { code: number } });
      }
    });
    const logged: string[] = [];
    const taken: unknown[] = [];
    const transport = new BoundedStdioTransport({
      stdin,
      stdout,
      log: (line) => logged.push(line),
    });
    transports.push(transport);
    transport.onmessage = (message: JSONRPCMessage) => taken.push((message as { id: unknown }).id);
    await transport.start();
    for (const line of ['not json', '{"hello":"world"}', '[1,2]', ping(4, 60)]) {
      stdin.write(`${line}\n`);
      await new Promise((resolve) => setImmediate(resolve));
    }
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
