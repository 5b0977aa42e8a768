/**
 * The plugin against the fixture MCP server spawned as a child process over stdio, driven
 * through real Weft tasks: plan, step, review.
 */
import {
  Runtime,
  WeftError,
  type AgentTask,
  type ExecutionContext,
  type SpaceCoordinator,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { McpConnection } from '../src/connection.js';
import { McpPlugin, UNTRUSTED_NOTICE, type McpPluginOptions } from '../src/index.js';
import { resolveOptions } from '../src/options.js';
import { INJECTED_ERROR_TEXT, LONG_ERROR_TEXT } from './fixtures/fixture-server.js';
import { promptText, startAgent, type TestAgent } from './fixtures/runtime.js';
import { fixtureServer } from './fixtures/spawn.js';

let agent: TestAgent | undefined;
let plugin: McpPlugin | undefined;

afterEach(async () => {
  await agent?.runtime.stop();
  await plugin?.close();
  agent = undefined;
  plugin = undefined;
});

/**
 * Starting the fixture (Node loading the MCP SDK) takes a second on a busy machine, tens of them
 * on a loaded one; the default 10 s is tight. One deadline covers the start and the tool listing.
 */
const SLOW_START_MS = 60_000;

async function connect(tools: readonly string[], options: Partial<McpPluginOptions> = {}) {
  plugin = await McpPlugin.connect({
    servers: [fixtureServer(tools)],
    connectTimeoutMs: SLOW_START_MS,
    ...options,
  });
  return plugin;
}

const plan = (...tools: string[]) => ({
  steps: tools.map((tool) => ({ pluginId: 'mcp', action: `fixture.${tool}` })),
});

/** Whether the process `pid` is gone within `ms`. */
async function goneWithin(pid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function pidOf(data: unknown): number {
  const { content } = data as { content: { text: string }[] };
  return Number(content[0]?.text);
}

// Each test spawns the fixture (and some respawn it), so they get more than the default 20 s.

/**
 * Starts an agent whose task calls the tool that never answers (callTimeoutMs 120 s), and stops
 * the runtime while the call runs: the task, and how long stop() took.
 */
async function stopDuringHangingCall(
  options: Parameters<typeof startAgent>[2],
): Promise<{ task: Awaited<ReturnType<TestAgent['run']>>; stopMs: number }> {
  const running = await startAgent(
    await connect(['hang'], { callTimeoutMs: 120_000 }),
    [plan('hang')],
    options,
  );
  agent = running;
  const task = running.run('hang');
  // The tool takes no arguments, so the call starts as soon as the plan is made.
  await expect
    .poll(() => running.logs.some((line) => line.msg === 'pipeline planned'), { timeout: 10_000 })
    .toBe(true);
  await new Promise((resolve) => setTimeout(resolve, 200));
  const started = Date.now();
  await running.runtime.stop();
  const stopMs = Date.now() - started;
  return { task: await task, stopMs };
}

/** The hanging call's step logged that its call was cancelled with the task. */
async function expectCallCancelledWithTask(): Promise<void> {
  await expect
    .poll(() => agent?.logs.find((line) => line.code === 'WEFT_MCP_TIMEOUT')?.error, {
      timeout: 2000,
    })
    .toMatch(/cancelled with the task/);
}

describe('McpPlugin over stdio', { timeout: 120_000 }, () => {
  it('offers only the allowed tools, as <server>.<tool> executors the planner sees [claim:mcpdoc-allow-list] [claim:prod-mcp-untrusted] [claim:mcp-connect-checks] [claim:mcp-action-names] [claim:mcp-allow-list] [claim:mcp-data] [claim:wp-plugin-mcp]', async () => {
    agent = await startAgent(await connect(['echo', 'add']), [plan('add'), { a: 2, b: 40 }]);
    expect(plugin?.executors.map((executor) => executor.action)).toEqual([
      'fixture.echo',
      'fixture.add',
    ]);
    const task = await agent.run('what is 2 + 40?');
    expect(task.status).toBe('completed');
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      action: 'fixture.add',
      data: {
        notice: UNTRUSTED_NOTICE,
        server: 'fixture',
        tool: 'add',
        arguments: { a: 2, b: 40 },
        content: [{ type: 'text', text: '42' }],
        structuredContent: { sum: 42 },
      },
    });
    const planning = promptText(agent.model);
    expect(planning).toContain('fixture.add');
    expect(planning).not.toContain('fixture.hang');
  });

  it("shows the model the operator's description instead of the server's, and cuts the server's [claim:mcpdoc-outside-code] [claim:prod-mcp-untrusted] [claim:mcp-descriptions]", async () => {
    plugin = await McpPlugin.connect({
      servers: [
        { ...fixtureServer(['echo', 'add', 'verbose']), descriptions: { add: 'Adds two prices.' } },
      ],
      connectTimeoutMs: SLOW_START_MS,
    });
    const [echo, add, verbose] = plugin.executors;
    // The server's 3000-character description is cut to 1000 characters and marked as cut,
    // between the tags that mark it as the server's untrusted text.
    expect(verbose?.description).toMatch(
      /^MCP tool "verbose" of server "fixture".*<untrusted-server-text>Says a lot\. Really.{900,}… \(3\d{3} characters\)<\/untrusted-server-text>$/,
    );
    expect(verbose?.description.length).toBeLessThan(1400);
    // Exactly 1000 characters of the server's text, before the mark.
    const kept = /<untrusted-server-text>(.*)… \(\d+ characters\)<\/untrusted-server-text>$/.exec(
      verbose?.description ?? '',
    )?.[1];
    expect(kept).toHaveLength(1000);
    expect(echo?.description).toMatch(
      /<untrusted-server-text>Repeats the text it is given\.<\/untrusted-server-text>$/,
    );
    expect(add?.description).toBe('Adds two prices.');
  });

  it("passes a stdio server its env and the SDK's safe variables, and not the rest of this process's environment [claim:mcp-env]", async () => {
    process.env.WEFT_FIXTURE_PARENT = 'not for the server';
    try {
      plugin = await McpPlugin.connect({
        servers: [{ ...fixtureServer(['env']), env: { WEFT_FIXTURE_GIVEN: 'for the server' } }],
        connectTimeoutMs: SLOW_START_MS,
      });
    } finally {
      delete process.env.WEFT_FIXTURE_PARENT;
    }
    agent = await startAgent(plugin, [plan('env')]);
    const task = await agent.run('env');
    const { content } = task.chain[1]?.data as { content: { text: string }[] };
    expect(JSON.parse(content[0]?.text ?? '')).toEqual({
      given: 'for the server',
      inherited: null,
      safe: { PATH: process.env.PATH ?? null, HOME: process.env.HOME ?? null },
    });
  });

  it('rejects an allow-list naming a tool the server does not have, listing those it has [claim:mcpdoc-allow-list] [claim:mcp-connect-checks] [claim:mcp-allow-list] [claim:tsdoc-mcp-unknown-tool]', async () => {
    const error = await McpPlugin.connect({
      servers: [fixtureServer(['echo', 'ech'])],
      connectTimeoutMs: SLOW_START_MS,
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_UNKNOWN_TOOL')).toBe(true);
    expect((error as Error).message).toMatch(
      /server "[^"]+" has no tool "ech".*"echo", "add", "place-order"/,
    );
  });

  it('checks nested arguments against the tool schema; the review sees the field that was wrong [claim:mcp-arguments-review] [claim:mcp-readme-failures-step-errors] [claim:wp-plugin-mcp]', async () => {
    const bad = {
      customer: { id: 'c-7', email: 'ada@example.com' },
      lines: [{ sku: 'tea', quantity: 0 }],
    };
    agent = await startAgent(
      await connect(['place-order']),
      [plan('place-order'), bad, bad, bad, { type: 'stop', reason: 'quantity was wrong' }],
      { pipelineReview: 'always' },
    );
    const task = await agent.run('order zero tea for c-7');
    expect(task.status).toBe('failed');
    const failed = task.chain[1];
    expect(failed?.type).toBe('error');
    expect(failed?.error).toContain('lines[0].quantity');
    // The last request is the review, and it shows the step's error with the field.
    const review = agent.model.requests
      .at(-1)
      ?.map((message) => message.content)
      .join('\n');
    expect(review).toContain('lines[0].quantity');
  });

  it('calls a tool with nested arguments once they match [claim:mcpdoc-arguments] [claim:mcp-arguments-schema]', async () => {
    agent = await startAgent(await connect(['place-order']), [
      plan('place-order'),
      { customer: { id: 'c-7', email: 'not-an-email' }, lines: [{ sku: 'tea', quantity: 2 }] },
      { customer: { id: 'c-7', email: 'ada@example.com' }, lines: [{ sku: 'tea', quantity: 2 }] },
    ]);
    const task = await agent.run('order two teas for c-7');
    expect(task.status).toBe('completed');
    expect(task.chain[1]?.data).toMatchObject({ content: [{ text: 'order for c-7: 2 x tea' }] });
    // The second request for arguments carried the first answer's error.
    expect(promptText(agent.model)).toContain('customer.email');
  });

  it('fails a hanging call as a step error after callTimeoutMs, and the task ends [claim:mcpdoc-deadlines] [claim:mcpdoc-hung] [claim:mcp-option-defaults] [claim:mcp-cancel] [claim:mcp-readme-cancel-first] [claim:mcp-timeout] [claim:tsdoc-mcp-connection-call-deadline] [claim:wp-plugin-mcp] [claim:mcpdoc-hung-codes]', async () => {
    agent = await startAgent(await connect(['hang', 'echo'], { callTimeoutMs: 500 }), [
      plan('hang', 'echo'),
      { text: 'still here' },
    ]);
    const started = Date.now();
    const task = await agent.run('hang, then echo');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(task.chain[1]).toMatchObject({ type: 'error', action: 'fixture.hang' });
    expect(task.chain[1]?.error).toMatch(/did not answer within 500 ms/);
    expect(task.chain[1]?.error).toContain('[WEFT_MCP_TIMEOUT]');
    expect(task.chain[2]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'still here' }] },
    });
    expect(agent.logs.some((line) => line.code === 'WEFT_MCP_TIMEOUT')).toBe(true);
  });

  it("cancels a hanging call when the task's deadline passes, whatever callTimeoutMs says [claim:errors-mcp-step-codes-after-task-end] [claim:mcpdoc-deadlines] [claim:mcpdoc-hung] [claim:mcp-cancel] [claim:mcp-readme-cancel-first] [claim:mcp-readme-cancel-signal] [claim:mcp-timeout] [claim:tsdoc-mcp-connection-call-deadline] [claim:mcpdoc-hung-codes] [claim:mcp-readme-failures-step-errors]", async () => {
    agent = await startAgent(await connect(['hang'], { callTimeoutMs: 120_000 }), [plan('hang')], {
      taskTimeoutMs: 1000,
    });
    const started = Date.now();
    const task = await agent.run('hang');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)).toMatchObject({
      type: 'error',
      action: 'timeout',
      error: expect.stringContaining('WEFT_TASK_TIMEOUT'),
    });
    // The step's own WEFT_MCP_TIMEOUT is not in the chain: the task had ended already.
    expect(task.chain.some((item) => item.error?.includes('WEFT_MCP_TIMEOUT'))).toBe(false);
    // The step itself ended too: the call was cancelled, not left running.
    await expect
      .poll(() => agent?.logs.find((line) => line.code === 'WEFT_MCP_TIMEOUT')?.msg, {
        timeout: 2000,
      })
      .toBe('step failed');
    expect(agent.logs.find((line) => line.code === 'WEFT_MCP_TIMEOUT')?.error).toMatch(
      /cancelled with the task/,
    );
  });

  it('cancels a hanging call when the runtime cancels its tasks as it stops, whatever callTimeoutMs says [claim:errors-mcp-step-codes-after-task-end] [claim:mcp-cancel] [claim:mcp-readme-cancel-signal] [claim:mcpdoc-deadlines]', async () => {
    const { task, stopMs } = await stopDuringHangingCall({ shutdown: 'cancel' });
    expect(stopMs).toBeLessThan(10_000);
    expect(task.status).toBe('cancelled');
    // The step's WEFT_MCP_TIMEOUT is not in the chain: the task had ended already.
    expect(task.chain.some((item) => item.error?.includes('WEFT_MCP_TIMEOUT'))).toBe(false);
    // The step ended too: its call was cancelled with the task, not left to callTimeoutMs.
    await expectCallCancelledWithTask();
  });

  it('cancels a hanging call when a drain outlasts shutdownTimeoutMs, whatever callTimeoutMs says [claim:mcpdoc-deadlines] [claim:mcp-cancel] [claim:mcp-readme-cancel-signal]', async () => {
    const { task, stopMs } = await stopDuringHangingCall({
      shutdown: 'drain',
      shutdownTimeoutMs: 500,
    });
    // The drain gave the task 500 ms, then cancelled it: not callTimeoutMs (120 s).
    expect(stopMs).toBeGreaterThanOrEqual(450);
    expect(stopMs).toBeLessThan(10_000);
    expect(
      agent?.logs.some((line) => line.msg === 'drain timed out; cancelling remaining tasks'),
    ).toBe(true);
    expect(task.status).toBe('cancelled');
    // The step's WEFT_MCP_TIMEOUT is not in the chain: the task had ended already.
    expect(task.chain.some((item) => item.error?.includes('WEFT_MCP_TIMEOUT'))).toBe(false);
    await expectCallCancelledWithTask();
  });

  it("cancels a hanging call when the runtime's coordinator loses the task's space, whatever callTimeoutMs says [claim:mcpdoc-deadlines] [claim:mcp-cancel] [claim:mcp-readme-cancel-signal]", async () => {
    // A coordinator beside the real server and runtime: it grants the space at once, and the
    // test takes the space away while the call hangs, as a lost lock connection does.
    const lost = new AbortController();
    let tickets = 0;
    const coordinator: SpaceCoordinator = {
      id: 'losing',
      init: async () => undefined,
      shutdown: async () => undefined,
      admit: async () => (tickets += 1),
      acquire: async () => ({ ticket: tickets, signal: lost.signal }),
      release: async () => undefined,
    };
    const running = await startAgent(
      await connect(['hang'], { callTimeoutMs: 120_000 }),
      [plan('hang')],
      { coordinator },
    );
    agent = running;
    const task = running.run('hang');
    // The tool takes no arguments: its step is the call, which hangs until cancelled.
    await expect
      .poll(() => running.logs.some((line) => line.msg === 'pipeline planned'), { timeout: 10_000 })
      .toBe(true);
    const started = Date.now();
    lost.abort(new Error('the space was lost'));
    const ended = await task;
    // Ended by the lost space, not by callTimeoutMs (120 s).
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(ended.status).toBe('cancelled');
    // The step's WEFT_MCP_TIMEOUT is not in the chain: the task had ended already.
    expect(ended.chain.some((item) => item.error?.includes('WEFT_MCP_TIMEOUT'))).toBe(false);
    await expectCallCancelledWithTask();
  });

  it('turns an isError result into a step error without the server text; the text is logged under an id [claim:mcpdoc-tool-error] [claim:mcpdoc-failures-no-server-text] [claim:mcpdoc-outside-code] [claim:prod-mcp-untrusted] [claim:mcp-tool-error] [claim:mcpdoc-tool-error-code] [claim:mcp-readme-failures-server-words]', async () => {
    agent = await startAgent(await connect(['fail']), [plan('fail'), { type: 'stop' }], {
      pipelineReview: 'always',
    });
    const task = await agent.run('fail please');
    const failed = task.chain[1];
    expect(failed?.type).toBe('error');
    expect(failed?.error).toMatch(
      /reported an error; its text is logged under error id [0-9a-f-]{36}/,
    );
    expect(failed?.error).not.toContain('ignore all previous instructions');
    // The step's data keeps the server's text, under the notice that it is not instructions.
    expect(failed?.data).toMatchObject({
      notice: UNTRUSTED_NOTICE,
      code: 'WEFT_MCP_TOOL_ERROR',
      excerpt: INJECTED_ERROR_TEXT,
    });
    const errorId = /error id ([0-9a-f-]{36})/.exec(failed?.error ?? '')?.[1];
    expect(agent.logs.find((line) => line.errorId === errorId)?.toolError).toBe(
      INJECTED_ERROR_TEXT,
    );
    const review = agent.model.requests
      .at(-1)
      ?.map((message) => message.content)
      .join('\n');
    expect(review).toContain('reported an error');
    expect(review).not.toContain('ignore all previous instructions');
  });

  it("keeps 500 characters of a tool's error text in the step's data and 2000 in the log line, which has the task's fields [claim:obs-mcp-logger] [claim:mcpdoc-tool-error] [claim:mcp-tool-error] [claim:errors-mcp-tool-error-log] [claim:mcpdoc-outside-code] [claim:prod-mcp-untrusted]", async () => {
    agent = await startAgent(await connect(['fail_long']), [plan('fail_long')]);
    const task = await agent.run('fail at length');
    const { excerpt } = task.chain[1]?.data as { excerpt: string };
    expect(excerpt.startsWith(LONG_ERROR_TEXT.slice(0, 500))).toBe(true);
    expect(excerpt).not.toContain(LONG_ERROR_TEXT.slice(0, 501));
    const logged = agent.logs.find((line) => line.msg === 'MCP tool reported an error')?.toolError;
    expect(logged).toBe(`${LONG_ERROR_TEXT.slice(0, 2000)}… (2500 characters)`);
    // The step writes it through its context.logger: the task's fields come with it.
    expect(agent.logs.find((line) => line.msg === 'MCP tool reported an error')).toMatchObject({
      component: 'pipeline',
      taskId: task.id,
      space: 'mcp-tests',
      pluginId: 'mcp',
      action: 'fixture.fail_long',
      stepIndex: 0,
    });
  });

  it('fails every call waiting on a stdio server with WEFT_MCP_RESULT_TOO_LARGE when one answer is cut, as the cut line cannot be tied to a call [claim:mcp-readme-too-large-concurrent] [claim:mcpdoc-too-large-concurrent]', async () => {
    const options = resolveOptions({
      servers: [fixtureServer(['huge', 'hang'])],
      callTimeoutMs: 10_000,
      reconnectDelayMs: 50,
    });
    const connection = new McpConnection(options.servers[0]!, {
      options,
      logger: () => ({ debug() {}, info() {}, warn() {}, error() {} }),
    });
    await connection.open();
    try {
      const never = new AbortController().signal;
      const waiting = connection.callTool('hang', {}, never).catch((error: unknown) => error);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const huge = await connection.callTool('huge', {}, never).catch((error: unknown) => error);
      expect(WeftError.is(huge, 'WEFT_MCP_RESULT_TOO_LARGE')).toBe(true);
      expect(WeftError.is(await waiting, 'WEFT_MCP_RESULT_TOO_LARGE')).toBe(true);
    } finally {
      await connection.close();
    }
  });

  it('refuses a 10 MiB result with a step error, reads no more than the limit, and reconnects [claim:mcpdoc-too-large] [claim:errors-mcp-too-large-connection] [claim:prod-mcp-stdio-size] [claim:mcp-max-result] [claim:mcp-too-large] [claim:mcp-stdio-message-bound] [claim:wp-plugin-mcp] [claim:mcpdoc-too-large-code]', async () => {
    agent = await startAgent(await connect(['huge', 'echo'], { reconnectDelayMs: 50 }), [
      plan('huge', 'echo'),
      { text: 'after the flood' },
    ]);
    const task = await agent.run('huge, then echo');
    expect(task.chain[1]?.type).toBe('error');
    expect(task.chain[1]?.error).toMatch(/more than 1048576 bytes \(maxResultBytes\)/);
    expect(task.chain[1]?.error).toContain('[WEFT_MCP_RESULT_TOO_LARGE]');
    expect(task.chain[2]).toMatchObject({
      type: 'result',
      data: { content: [{ text: 'after the flood' }] },
    });
    // The answer was cut, not read: the connection was closed and opened again.
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
  });

  it('keeps results under maxResultBytes and refuses those over it, a little over on the same connection [claim:mcp-max-result] [claim:errors-mcp-too-large-connection]', async () => {
    agent = await startAgent(await connect(['echo', 'pid'], { maxResultBytes: 300 }), [
      plan('pid', 'echo'),
      { text: 'short' },
      plan('echo', 'pid'),
      { text: 'y'.repeat(400) },
    ]);
    const short = await agent.run('short');
    expect(short.chain[2]?.type).toBe('result');
    const long = await agent.run('long');
    expect(long.chain[1]?.error).toMatch(/more than 300|bytes, more than 300/);
    expect(long.chain[1]?.error).toContain('[WEFT_MCP_RESULT_TOO_LARGE]');
    // 100 bytes over is read whole: the same server process answers the next call.
    expect(pidOf(long.chain[2]?.data)).toBe(pidOf(short.chain[1]?.data));
    expect(agent.logs.some((line) => line.msg === 'MCP server disconnected; reconnecting')).toBe(
      false,
    );
  });

  it("measures the step's data, the answer as recorded with the call's arguments, against maxResultBytes [claim:mcpdoc-too-large-code] [claim:mcp-max-result]", async () => {
    agent = await startAgent(await connect(['echo'], { maxResultBytes: 1000 }), [
      plan('echo', 'echo'),
      { text: 'a'.repeat(300) },
      { text: 'b'.repeat(500) },
    ]);
    const task = await agent.run('echo twice');
    expect(task.chain[1]).toMatchObject({
      type: 'result',
      data: { arguments: { text: 'a'.repeat(300) } },
    });
    const text = 'b'.repeat(500);
    const data = {
      notice: UNTRUSTED_NOTICE,
      server: 'fixture',
      tool: 'echo',
      arguments: { text },
      content: [{ type: 'text', text }],
    };
    const { arguments: _arguments, ...answer } = data;
    // The answer alone is under the limit; with the arguments that made it, it is over.
    expect(Buffer.byteLength(JSON.stringify(answer))).toBeLessThan(1000);
    const size = Buffer.byteLength(JSON.stringify(data));
    expect(size).toBeGreaterThan(1000);
    expect(task.chain[2]).toMatchObject({ type: 'error', action: 'fixture.echo' });
    expect(task.chain[2]?.error).toContain(
      `the step data of tool "echo" on server "fixture" (its answer as recorded, with the call's arguments) is ${size} bytes of JSON, more than 1000 (maxResultBytes). [WEFT_MCP_RESULT_TOO_LARGE]`,
    );
  });

  it('keeps step data of exactly maxResultBytes and refuses it a byte larger [claim:mcpdoc-too-large-code]', async () => {
    /** The step data of `add(a, b)`, as the plugin records it. */
    const stepData = (a: number, b: number) => ({
      notice: UNTRUSTED_NOTICE,
      server: 'fixture',
      tool: 'add',
      arguments: { a, b },
      content: [{ type: 'text', text: String(a + b) }],
      structuredContent: { sum: a + b },
    });
    const limit = Buffer.byteLength(JSON.stringify(stepData(1, 1)));
    // -1 + 2 writes one more digit in all (a minus sign) than 1 + 1: a byte more, nothing else.
    expect(Buffer.byteLength(JSON.stringify(stepData(-1, 2)))).toBe(limit + 1);
    agent = await startAgent(await connect(['add'], { maxResultBytes: limit }), [
      plan('add', 'add'),
      { a: 1, b: 1 },
      { a: -1, b: 2 },
    ]);
    const task = await agent.run('add twice');
    expect(task.chain[1]).toMatchObject({ type: 'result', action: 'fixture.add' });
    expect(task.chain[1]?.data).toEqual(stepData(1, 1));
    expect(task.chain[2]?.error).toContain(
      `is ${limit + 1} bytes of JSON, more than ${limit} (maxResultBytes). [WEFT_MCP_RESULT_TOO_LARGE]`,
    );
  });

  it('reads an answer up to 64 KiB past maxResultBytes whole, and cuts one further past [claim:mcpdoc-too-large] [claim:errors-mcp-too-large-connection] [claim:mcp-too-large]', async () => {
    agent = await startAgent(
      await connect(['echo', 'pid'], { maxResultBytes: 300, reconnectDelayMs: 50 }),
      [
        plan('pid', 'echo', 'pid'),
        { text: 'y'.repeat(60 * 1024) },
        plan('echo', 'pid'),
        { text: 'y'.repeat(70 * 1024) },
      ],
    );
    const near = await agent.run('60 KiB');
    // Read whole and measured, then refused; the same process answers the next call.
    expect(near.chain[2]?.error).toMatch(
      /is \d+ bytes of JSON, more than 300 \(maxResultBytes\)\. \[WEFT_MCP_RESULT_TOO_LARGE\]/,
    );
    expect(pidOf(near.chain[3]?.data)).toBe(pidOf(near.chain[1]?.data));
    const far = await agent.run('70 KiB');
    // Cut off unread: the connection was closed, and a new process answers.
    expect(far.chain[1]?.error).toMatch(
      /more than 300 bytes \(maxResultBytes\); the answer was dropped unread\. \[WEFT_MCP_RESULT_TOO_LARGE\]/,
    );
    expect(pidOf(far.chain[2]?.data)).not.toBe(pidOf(near.chain[1]?.data));
  });

  it('fails calls while the server is down, logging the lost call with its task, then reconnects to a new process, logging with the plugin id [claim:obs-mcp-logger] [claim:mcpdoc-reconnect-backoff] [claim:mcpdoc-reconnect] [claim:mcp-reconnect-delay] [claim:mcp-no-arguments] [claim:mcp-reconnect] [claim:tsdoc-mcp-connection-reconnected] [claim:errors-mcp-unavailable-during-call] [claim:mcpdoc-unavailable-at-once]', async () => {
    agent = await startAgent(
      await connect(['pid', 'crash'], { reconnectDelayMs: 50, callTimeoutMs: 20_000 }),
      [plan('pid', 'crash'), plan('pid')],
    );
    const started = Date.now();
    const first = await agent.run('pid, then crash');
    const elapsed = Date.now() - started;
    expect(first.chain[1]?.type).toBe('result');
    expect(first.chain[2]).toMatchObject({ type: 'error', action: 'fixture.crash' });
    expect(first.chain[2]?.error).toMatch(/disconnected during the call of tool "crash"/);
    // At once, with the code: the call does not wait out callTimeoutMs (20 s).
    expect(first.chain[2]?.error).toContain('WEFT_MCP_UNAVAILABLE');
    expect(elapsed).toBeLessThan(10_000);
    expect(agent.logs.some((line) => line.code === 'WEFT_MCP_TIMEOUT')).toBe(false);
    // The lost call is the step's: its line has the task's and the step's fields, as the step
    // failed line does, so a grep for the task id finds both.
    expect(agent.logs.find((line) => line.msg === 'MCP call lost its connection')).toMatchObject({
      component: 'pipeline',
      taskId: first.id,
      space: 'mcp-tests',
      pluginId: 'mcp',
      action: 'fixture.crash',
      stepIndex: 1,
      server: 'fixture',
      tool: 'crash',
    });
    const second = await agent.run('pid again');
    expect(second.chain[1]?.type).toBe('result');
    expect(pidOf(second.chain[1]?.data)).not.toBe(pidOf(first.chain[1]?.data));
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
    // The plugin's own lines go through the runtime's logger, with the plugin's id.
    const reconnected = agent.logs.find((line) => line.msg === 'MCP server reconnected');
    expect(reconnected).toMatchObject({ plugin: 'mcp', server: 'fixture' });
    expect(reconnected).not.toHaveProperty('component');
  });

  it('fails a call during an outage within callTimeoutMs rather than waiting for the server [claim:mcpdoc-reconnect] [claim:mcp-unavailable] [claim:mcp-readme-calls-during-outage]', async () => {
    agent = await startAgent(
      await connect(['crash', 'pid'], { reconnectDelayMs: 60_000, callTimeoutMs: 400 }),
      [plan('crash', 'pid')],
    );
    const started = Date.now();
    const task = await agent.run('crash, then pid');
    expect(Date.now() - started).toBeLessThan(4000);
    expect(task.chain[2]?.error).toMatch(/is disconnected and was not back within 400 ms/);
    expect(task.chain[2]?.error).toContain('WEFT_MCP_UNAVAILABLE');
  });

  it('lets a call made during an outage wait for the reconnection and go through [claim:mcpdoc-reconnect] [claim:mcp-readme-calls-during-outage]', async () => {
    agent = await startAgent(
      await connect(['crash', 'pid'], { reconnectDelayMs: 50, callTimeoutMs: SLOW_START_MS }),
      [plan('crash', 'pid')],
    );
    const task = await agent.run('crash, then pid');
    // The crashing call fails at once; the next one, made while the server is down, waits.
    expect(task.chain[1]).toMatchObject({ type: 'error', action: 'fixture.crash' });
    expect(task.chain[1]?.error).toContain('WEFT_MCP_UNAVAILABLE');
    expect(task.chain[2]).toMatchObject({ type: 'result', action: 'fixture.pid' });
    expect(pidOf(task.chain[2]?.data)).toBeGreaterThan(0);
    expect(agent.logs.some((line) => line.msg === 'MCP server reconnected')).toBe(true);
  });

  it("fails a call during an outage with WEFT_MCP_TIMEOUT when the task's deadline comes before callTimeoutMs [claim:mcpdoc-reconnect] [claim:mcp-unavailable] [claim:mcp-readme-calls-during-outage]", async () => {
    agent = await startAgent(
      await connect(['crash', 'pid'], { reconnectDelayMs: 60_000, callTimeoutMs: 120_000 }),
      [plan('crash', 'pid')],
      { taskTimeoutMs: 1500 },
    );
    const started = Date.now();
    const task = await agent.run('crash, then pid');
    expect(Date.now() - started).toBeLessThan(6000);
    expect(task.status).toBe('failed');
    expect(task.chain.at(-1)).toMatchObject({
      type: 'error',
      action: 'timeout',
      error: expect.stringContaining('WEFT_TASK_TIMEOUT'),
    });
    await expect
      .poll(() => agent?.logs.find((line) => line.code === 'WEFT_MCP_TIMEOUT')?.error, {
        timeout: 2000,
      })
      .toMatch(/tool "pid" .* was cancelled with the task/);
    // Only the crashing call itself is unavailable; the waiting one is not.
    expect(agent.logs.filter((line) => line.code === 'WEFT_MCP_UNAVAILABLE')).toHaveLength(1);
  });

  it('close() ends the server process [claim:mcpdoc-stop] [claim:mcp-close] [claim:tsdoc-mcp-connection-close]', async () => {
    agent = await startAgent(await connect(['pid']), [plan('pid')]);
    const pid = pidOf((await agent.run('pid')).chain[1]?.data);
    expect(() => process.kill(pid, 0)).not.toThrow();
    await agent.runtime.stop();
    agent = undefined;
    expect(await goneWithin(pid, 5000)).toBe(true);
  });

  it('fails a call made after close() at once, saying the plugin was closed rather than waiting for a reconnection [claim:errors-mcp-unavailable-during-call]', async () => {
    const connected = await connect(['pid'], { callTimeoutMs: 30_000 });
    await connected.close();
    const executor = connected.executors.find((candidate) => candidate.action === 'fixture.pid');
    const started = Date.now();
    const call = executor?.execute(
      { trigger: {} } as AgentTask,
      { signal: new AbortController().signal, chain: [] } as unknown as ExecutionContext,
    );
    await expect(call).rejects.toMatchObject({
      code: 'WEFT_MCP_UNAVAILABLE',
      message: expect.stringMatching(/server "fixture" was closed .* is not reconnected/),
    });
    expect(Date.now() - started).toBeLessThan(2_000);
  });

  it('leaves the servers to close() when the runtime never started, as stop() only shuts down what started [claim:mcp-close] [claim:mcpdoc-stop]', async () => {
    const connected = await connect(['pid']);
    // The tool takes no arguments: its executor runs without a model, outside any runtime.
    const executor = connected.executors.find((candidate) => candidate.action === 'fixture.pid');
    const result = await executor?.execute(
      { trigger: {} } as AgentTask,
      {
        signal: new AbortController().signal,
        chain: [],
      } as unknown as ExecutionContext,
    );
    const pid = pidOf(result?.data);
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [connected],
    });
    await runtime.stop();
    expect(await goneWithin(pid, 1500)).toBe(false);
    await connected.close();
    expect(await goneWithin(pid, 5000)).toBe(true);
  });
});

describe('McpPlugin.connect', () => {
  it('names the bad option [claim:mcp-invalid-options] [claim:errors-mcp-server-name] [claim:tsdoc-mcp-server-name]', async () => {
    const cases: [unknown, RegExp][] = [
      [{ servers: [] }, /servers must list at least one server/],
      [
        { servers: [{ ...fixtureServer(['echo']), tools: [] }] },
        /servers\[0\]\.tools must name at least one tool/,
      ],
      [{ servers: [{ name: 'x', tools: ['a'] }] }, /servers\[0\] must have either a `command`/],
      [
        { servers: [{ name: 'Bad Name', command: 'node', tools: ['a'] }] },
        /servers\[0\]\.name must be lower-case/,
      ],
      [
        { servers: [{ name: '9files', command: 'node', tools: ['a'] }] },
        /servers\[0\]\.name must be lower-case letters, digits and dashes, starting with a letter/,
      ],
      [
        { servers: [{ name: 'web', url: 'ftp://example.com', tools: ['a'] }] },
        /servers\[0\]\.url must be an http or https URL/,
      ],
      [{ servers: [fixtureServer(['echo'])], callTimeoutMs: 0 }, /callTimeoutMs must be positive/],
      [
        { servers: [fixtureServer(['echo']), fixtureServer(['add'])] },
        /servers\[1\]\.name "fixture" is used by another server/,
      ],
      [
        { servers: [fixtureServer(['echo', 'add', 'echo'])] },
        /servers\[0\]\.tools names "echo" twice/,
      ],
      [
        { servers: [{ ...fixtureServer(['echo']), descriptions: { ech: 'Repeats.' } }] },
        /servers\[0\]\.descriptions has a description for "ech", which is not in servers\[0\]\.tools/,
      ],
    ];
    for (const [options, message] of cases) {
      const error = await McpPlugin.connect(options as McpPluginOptions).catch(
        (caught: unknown) => caught,
      );
      expect(WeftError.is(error, 'WEFT_MCP_INVALID_OPTIONS'), String(message)).toBe(true);
      expect((error as Error).message).toMatch(message);
    }
  });

  it('fails within connectTimeoutMs when the command starts but never speaks MCP [claim:mcp-connect-timeout] [claim:tsdoc-mcp-connection-open-throws]', async () => {
    const started = Date.now();
    const error = await McpPlugin.connect({
      servers: [
        {
          name: 'mute',
          command: process.execPath,
          args: ['-e', 'setInterval(() => {}, 1000)'],
          tools: ['x'],
        },
      ],
      connectTimeoutMs: 500,
    }).catch((caught: unknown) => caught);
    // The command never answers, so only a deadline ends the wait. Without the plugin's, the
    // SDK's own (60 s) would, and the message would read the same: the bound sits well short of
    // that, leaving a loaded machine room to start and end the process.
    expect(Date.now() - started).toBeLessThan(30_000);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
    expect((error as Error).message).toMatch(/server "mute" could not be started.*within 500 ms/);
  }, 90_000);

  it('fails when the command does not exist', async () => {
    const error = await McpPlugin.connect({
      servers: [{ name: 'missing', command: 'weft-no-such-command', tools: ['x'] }],
    }).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_MCP_CONNECT_FAILED')).toBe(true);
  });
});
