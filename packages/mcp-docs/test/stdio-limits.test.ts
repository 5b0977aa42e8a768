/**
 * The command over stdio against input no client should send: a line of 10 MB, and a line that
 * is not JSON. Each is refused with a JSON-RPC error and a line on stderr, and the server goes
 * on answering; before, the 10 MB line made it exit with code 0 and say nothing.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_BYTES } from '../src/stdio.js';
import { CLI_ARGS, ROOT_DIR, writeSmallBundle } from './support.js';

let child: ChildProcessWithoutNullStreams;
let stdout = '';
let stderr = '';
let exited: number | null | undefined;

beforeAll(async () => {
  child = spawn(process.execPath, [...CLI_ARGS, '--data', await writeSmallBundle()], {
    cwd: ROOT_DIR,
  });
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.on('exit', (code) => (exited = code));
  // Up once it answers a ping.
  await send(`${JSON.stringify({ jsonrpc: '2.0', id: 'up', method: 'ping' })}\n`);
  await answered((message) => message.id === 'up', 60_000);
}, 90_000);

afterAll(() => {
  child?.kill();
});

/** Writes to the server's stdin, waiting for it to drain. */
async function send(text: string): Promise<void> {
  if (!child.stdin.write(text)) await new Promise((resolve) => child.stdin.once('drain', resolve));
}

type Message = { id?: unknown; error?: { code: number; message: string }; result?: unknown };

/** The server's messages so far. */
function messages(): Message[] {
  return stdout
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Message);
}

/** Waits for a message that `matches`, failing after `ms`. */
async function answered(matches: (message: Message) => boolean, ms = 10_000): Promise<Message> {
  const deadline = Date.now() + ms;
  for (;;) {
    const found = messages().find(matches);
    if (found) return found;
    if (Date.now() > deadline || exited !== undefined) {
      throw new Error(
        `no such answer in ${ms} ms (exit ${exited}); stdout: ${stdout.slice(0, 500)}; stderr: ${stderr.slice(0, 500)}`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('weft-docs-mcp over stdio, with input no client should send', () => {
  it('refuses a 10 MB line with a JSON-RPC error and a line on stderr, then answers the next [claim:mcp-docs-stdio-long-line] [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    const chunk = 'x'.repeat(1024 * 1024);
    await send('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"');
    for (let index = 0; index < 10; index += 1) await send(chunk);
    await send('"}}\n');
    await send(`${JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' })}\n`);
    const refusal = await answered((message) => message.error?.code === -32600);
    expect(refusal).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32600,
        message: `Invalid request: the message is longer than ${MAX_MESSAGE_BYTES} bytes`,
      },
    });
    expect(await answered((message) => message.id === 2)).toMatchObject({ result: {} });
    expect(stderr).toContain(`refused a message longer than ${MAX_MESSAGE_BYTES} bytes on stdin`);
    expect(exited).toBeUndefined();
  });

  it('answers a line of 1,000,000 bytes and refuses one of 1,000,001, the figure the README and the guide give (1 MB) [claim:mcp-docs-readme-stdio-bound] [claim:mcp-docs-stdio-long-line]', async () => {
    // A ping padded to an exact length in bytes (ASCII), newline not counted.
    const ping = (id: number, bytes: number) => {
      const bare = JSON.stringify({ jsonrpc: '2.0', id, method: 'ping', params: { pad: '' } });
      const line = bare.replace('"pad":""', `"pad":"${'x'.repeat(bytes - bare.length)}"`);
      expect(line.length).toBe(bytes);
      return `${line}\n`;
    };
    const refusedBefore = messages().filter((message) => message.error?.code === -32600).length;
    await send(ping(10, 1_000_000));
    expect(await answered((message) => message.id === 10)).toMatchObject({ result: {} });
    await send(ping(11, 1_000_001));
    await send(`${JSON.stringify({ jsonrpc: '2.0', id: 12, method: 'ping' })}\n`);
    expect(await answered((message) => message.id === 12)).toMatchObject({ result: {} });
    expect(messages().filter((message) => message.error?.code === -32600)).toHaveLength(
      refusedBefore + 1,
    );
    expect(messages().some((message) => message.id === 11)).toBe(false);
  });

  it('answers a line that is not JSON with a parse error, then goes on [claim:mcp-docs-readme-stdio-bound] [claim:tsdoc-docs-stdio-refuse]', async () => {
    await send('this is not json\n');
    await send(`${JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' })}\n`);
    expect(await answered((message) => message.error?.code === -32700)).toMatchObject({
      id: null,
      error: { message: 'Parse error: the line is not a JSON-RPC message' },
    });
    expect(await answered((message) => message.id === 3)).toMatchObject({ result: {} });
    expect(stderr).toContain('refused a line of stdin that is not a JSON-RPC message');
  });
});
