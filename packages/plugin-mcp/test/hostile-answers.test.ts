/**
 * A streamable HTTP server whose answers come where or how the plugin's bounds see them
 * differently from an answer in a POST's body (test/fixtures/astray-server.ts), against the
 * plugin in a real runtime: an answer sent on the background stream, a JSON-RPC error sent with
 * an HTTP error status, and an answer preceded by many notifications.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { McpPlugin } from '../src/index.js';
import {
  ASTRAY_TOOL_NAMES,
  REFUSED_WITH_400_TEXT,
  startAstrayServer,
  type AstrayServer,
} from './fixtures/astray-server.js';
import { startAgent, type TestAgent } from './fixtures/runtime.js';

let agent: TestAgent | undefined;
let server: AstrayServer | undefined;

afterEach(async () => {
  await agent?.runtime.stop();
  await server?.close();
  agent = undefined;
  server = undefined;
});

const MAX_RESULT_BYTES = 100_000;
/** maxResultBytes and the room the plugin leaves for the envelope. */
const ANSWER_LIMIT = MAX_RESULT_BYTES + 64 * 1024;
const CALL_TIMEOUT_MS = 1_500;

const plan = (tool: string) => ({ steps: [{ pluginId: 'mcp', action: `astray.${tool}` }] });

/** Runs one more task, whose `echo` call must be answered on the connection as it is now. */
async function expectNextCallAnswers(running: TestAgent): Promise<void> {
  const after = await running.run('and the next call');
  expect(after.chain[1]).toMatchObject({
    type: 'result',
    data: { content: [{ text: 'still here' }] },
  });
}

async function start(tools: string[]): Promise<TestAgent> {
  server = await startAstrayServer({ bytes: 3 * ANSWER_LIMIT, notices: 20 });
  const plugin = await McpPlugin.connect({
    servers: [
      {
        name: 'astray',
        url: server.url,
        tools: ASTRAY_TOOL_NAMES,
      },
    ],
    maxResultBytes: MAX_RESULT_BYTES,
    callTimeoutMs: CALL_TIMEOUT_MS,
    reconnectDelayMs: 50,
  });
  agent = await startAgent(plugin, tools.map(plan));
  // The background stream, on which some answers come, is open before the first call.
  await expect.poll(() => server?.streamsOpened() ?? 0, { timeout: 5_000 }).toBeGreaterThan(0);
  return agent;
}

const lost = ['MCP call lost its connection', 'MCP server disconnected; reconnecting'];

describe('McpPlugin against answers that come astray', () => {
  it('cuts an answer over the limit that comes on the background stream, and the call ends with WEFT_MCP_TIMEOUT, keeping the connection [claim:mcpdoc-too-large-on-stream] [claim:mcp-readme-too-large-on-stream]', async () => {
    const running = await start(['on-stream-small', 'on-stream', 'echo']);
    // A small answer on the background stream is the call's answer, as MCP allows.
    const small = await running.run('a small answer on the stream');
    expect(small.chain[1]).toMatchObject({ type: 'result', data: { content: [{ type: 'text' }] } });

    const started = Date.now();
    const task = await running.run('a large answer on the stream');
    const elapsed = Date.now() - started;
    expect(task.chain[1]?.error).toMatch(
      /did not answer within 1500 ms \(callTimeoutMs\)\. \[WEFT_MCP_TIMEOUT\]/,
    );
    expect(elapsed).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 100);
    expect(running.logs.find((line) => line.msg === 'MCP server answer cut')).toMatchObject({
      method: 'GET',
      reason: 'event-size',
      limit: ANSWER_LIMIT,
    });
    // Not taken for too large: the connection was neither lost nor opened anew.
    expect(running.logs.filter((line) => lost.includes(line.msg as string))).toEqual([]);
    await expectNextCallAnswers(running);
  }, 20_000);

  it.each([
    ['a JSON-RPC error in the body of an HTTP 400', 'refused-with-400'],
    ['a body that is not JSON', 'not-json'],
  ])(
    'fails a call answered with %s with WEFT_MCP_UNAVAILABLE, and reconnects [claim:mcpdoc-http-error-status] [claim:mcp-readme-http-error-status-rpc] [claim:errors-mcp-unavailable-during-call] [claim:errors-mcp-call-failed-output-check]',
    async (_what, tool) => {
      const running = await start([tool, 'echo']);
      const task = await running.run('an answer taken for a failed connection');
      expect(task.chain[1]?.error).toMatch(
        new RegExp(
          `disconnected during the call of tool "${tool}"; the plugin is reconnecting\\. \\[WEFT_MCP_UNAVAILABLE\\]`,
        ),
      );
      expect(task.chain[1]?.error).not.toContain('hunter2');
      const lostLine = running.logs.find((line) => line.msg === 'MCP call lost its connection');
      expect(lostLine).toMatchObject({ server: 'astray', tool });
      // The server's message is in the log, or the start of a body that is not JSON.
      expect(lostLine?.error).toContain(
        tool === 'refused-with-400' ? REFUSED_WITH_400_TEXT : 'not JSON',
      );
      if (tool === 'not-json') {
        // Node.js's parser quotes the body only around where it broke: 10 characters on either
        // side, or a body of 20 characters or fewer whole.
        const quoted = /"(.*)"/.exec(String(lostLine?.error))?.[1] ?? '';
        expect(quoted.length).toBeGreaterThan(0);
        expect(quoted.length).toBeLessThanOrEqual(21);
      }
      await expect
        .poll(() => running.logs.some((line) => line.msg === 'MCP server reconnected'))
        .toBe(true);
      await expectNextCallAnswers(running);
    },
    20_000,
  );

  it("logs the parser's error for a JSON body that breaks late, which quotes at most 21 characters of the body [claim:mcpdoc-http-error-status]", async () => {
    const running = await start(['breaks-late', 'echo']);
    const task = await running.run('an answer whose JSON breaks near its end');
    expect(task.chain[1]?.error).toMatch(
      /disconnected during the call of tool "breaks-late"; the plugin is reconnecting\. \[WEFT_MCP_UNAVAILABLE\]/,
    );
    const lostLine = running.logs.find((line) => line.msg === 'MCP call lost its connection');
    expect(lostLine).toMatchObject({ server: 'astray', tool: 'breaks-late' });
    expect(lostLine?.error).toMatch(/JSON at position \d+/);
    // Neither the start of the body nor the tool's text: the parser quotes only near the break.
    expect(lostLine?.error).not.toContain('jsonrpc');
    expect(lostLine?.error).not.toContain('hunter2');
    await expect
      .poll(() => running.logs.some((line) => line.msg === 'MCP server reconnected'))
      .toBe(true);
    await expectNextCallAnswers(running);
  }, 20_000);

  it('lets a call whose answer ends cleanly before its result wait out callTimeoutMs, ending with WEFT_MCP_TIMEOUT on a kept connection [claim:mcpdoc-http-unanswered-kept]', async () => {
    const running = await start(['ends-early', 'echo']);
    const started = Date.now();
    const task = await running.run('an answer that ends early');
    expect(Date.now() - started).toBeGreaterThanOrEqual(CALL_TIMEOUT_MS - 100);
    expect(task.chain[1]?.error).toMatch(
      /did not answer within 1500 ms \(callTimeoutMs\)\. \[WEFT_MCP_TIMEOUT\]/,
    );
    expect(running.logs.filter((line) => lost.includes(line.msg as string))).toEqual([]);
    await expectNextCallAnswers(running);
  }, 20_000);

  it('keeps the result of a call whose answer runs past the bound after it, and connects anew at the cut, so the next call goes through [claim:mcpdoc-too-large-notifications] [claim:mcp-readme-http-answer-notifications]', async () => {
    const running = await start(['trails', 'echo']);
    // A small result, then twenty notifications of 10 KiB, some 200 KiB in all.
    const task = await running.run('a result, then many notifications');
    expect(task.chain[1]).toMatchObject({ type: 'result', data: { content: [{ text: 'done' }] } });
    await expect
      .poll(() => running.logs.find((line) => line.msg === 'MCP server answer cut'))
      .toMatchObject({ method: 'POST', reason: 'size', limit: ANSWER_LIMIT });
    // The connection opened anew at the cut, no call having failed to notice it.
    await expect
      .poll(() => running.logs.some((line) => line.msg === 'MCP server reconnected'))
      .toBe(true);
    expect(running.logs.some((line) => line.msg === 'MCP call lost its connection')).toBe(false);
    await expectNextCallAnswers(running);
  }, 20_000);

  it("counts the notifications a server sends before its answer toward the answer's bound [claim:mcpdoc-too-large-notifications] [claim:mcp-readme-http-answer-notifications]", async () => {
    const running = await start(['chatty-briefly', 'chatty']);
    // Two notifications of 10 KiB and a small result: well within the bound.
    const brief = await running.run('a few notifications');
    expect(brief.chain[1]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'done' }] },
    });
    // Twenty of them, some 200 KiB in all, before a result of a few bytes.
    const task = await running.run('many notifications');
    expect(task.chain[1]?.error).toMatch(
      /answered with more than 100000 bytes \(maxResultBytes\); the answer was dropped unread\. \[WEFT_MCP_RESULT_TOO_LARGE\]/,
    );
    expect(running.logs.find((line) => line.msg === 'MCP server answer cut')).toMatchObject({
      method: 'POST',
      reason: 'size',
      limit: ANSWER_LIMIT,
    });
  }, 20_000);
});
