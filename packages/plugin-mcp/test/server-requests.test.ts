import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { McpConnection } from '../src/connection.js';
import { resolveOptions } from '../src/options.js';

const BURST = fileURLToPath(new URL('./fixtures/burst-stdio-server.mjs', import.meta.url));
const ASKING = fileURLToPath(new URL('./fixtures/asking-sdk-server.mjs', import.meta.url));

/** The ids the burst server saw answered, each with `ok` or its error's code. */
async function answersAfterBurst(
  requests: number,
): Promise<{ answers: Record<string, unknown>; warnings: string[] }> {
  const options = resolveOptions({
    servers: [
      {
        name: 'burst',
        command: process.execPath,
        args: [BURST],
        env: { WEFT_FIXTURE_BURST: String(requests) },
        tools: ['answers'],
      },
    ],
  });
  const warnings: string[] = [];
  const connection = new McpConnection(options.servers[0]!, {
    options,
    logger: () => ({
      debug() {},
      info() {},
      warn: (_fields: unknown, message: string) => warnings.push(message),
      error() {},
    }),
  });
  await connection.open();
  try {
    const never = new AbortController().signal;
    let answers: Record<string, unknown> = {};
    await expect
      .poll(
        async () => {
          const result = await connection.callTool('answers', {}, never);
          const [item] = result.content as { text: string }[];
          answers = JSON.parse(item!.text) as Record<string, unknown>;
          return Object.keys(answers).length;
        },
        { timeout: 10_000 },
      )
      .toBe(requests);
    return { answers, warnings };
  } finally {
    await connection.close();
  }
}

describe("McpPlugin answering a server's own requests", () => {
  it('answers every one of 500 requests a stdio server writes at once, a ping with a result and an unknown method with -32601 [claim:mcp-readme-server-requests-answered]', async () => {
    const { answers, warnings } = await answersAfterBurst(500);
    for (let id = 1; id <= 500; id += 1) {
      // The fixture sends ping for every fourth id, sampling, elicitation and roots between.
      expect(answers[`burst-${id}`]).toBe(id % 4 === 0 ? 'ok' : -32601);
    }
    expect(warnings).not.toContain(
      'MCP server sends requests faster than it takes the answers; answers dropped',
    );
  }, 30_000);

  it('answers all 40 requests a server on the official SDK sends at once from a tool call [claim:mcp-readme-server-requests-answered]', async () => {
    const options = resolveOptions({
      servers: [{ name: 'asking', command: process.execPath, args: [ASKING], tools: ['ask'] }],
      callTimeoutMs: 20_000,
    });
    const connection = new McpConnection(options.servers[0]!, {
      options,
      logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    });
    await connection.open();
    try {
      const result = await connection.callTool('ask', {}, new AbortController().signal);
      const [item] = result.content as { text: string }[];
      // Every third a ping, answered with a result; sampling and roots refused with an error.
      expect(JSON.parse(item!.text)).toEqual({ result: 14, error: 26, none: 0 });
    } finally {
      await connection.close();
    }
  }, 30_000);
});
