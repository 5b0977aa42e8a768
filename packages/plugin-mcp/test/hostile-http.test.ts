/**
 * A hostile streamable HTTP server against the plugin, in a real runtime: the background stream
 * the SDK opens after the handshake is one endless event. The plugin cuts it at the event limit,
 * logs the cut, reopens it ever more slowly, and the agent's memory stays flat while its calls
 * keep working.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { heldMemory } from '@weft-internal/test-support/collection';
import { McpPlugin } from '../src/index.js';
import { startFloodingServer, type FloodingServer } from './fixtures/flooding-server.js';
import { startAgent, type TestAgent } from './fixtures/runtime.js';

let agent: TestAgent | undefined;
let server: FloodingServer | undefined;

afterEach(async () => {
  await agent?.runtime.stop();
  await server?.close();
  agent = undefined;
  server = undefined;
});

const MAX_RESULT_BYTES = 100_000;
/** The event limit: maxResultBytes and the room the plugin leaves for the envelope. */
const EVENT_LIMIT = MAX_RESULT_BYTES + 64 * 1024;

/**
 * Runs one more task, whose `echo` call (of the text 'still standing', as the model is scripted to
 * ask) must still be answered.
 */
async function expectEchoStillStanding(running: TestAgent, message: string): Promise<void> {
  const task = await running.run(message);
  expect(task.chain[1]).toMatchObject({
    type: 'result',
    data: { content: [{ text: 'still standing' }] },
  });
}

describe('McpPlugin against a server whose background stream is one endless event', () => {
  it('cuts the stream at the event limit with a log line, opens it again, keeps memory bounded and calls working [claim:mcpdoc-http-flood] [claim:prod-mcp-size-time] [claim:mcp-http-stream-bound] [claim:mcp-http-flood] [claim:mcp-http-agent-up] [claim:tsdoc-mcp-bounded-fetch-get] [claim:obs-mcp-answer-cut]', async () => {
    server = await startFloodingServer();
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'flood', url: server.url, tools: ['echo'] }],
        maxResultBytes: MAX_RESULT_BYTES,
      }),
      [{ steps: [{ pluginId: 'mcp', action: 'flood.echo' }] }, { text: 'still standing' }],
    );
    const cuts = () =>
      agent?.logs.filter(
        (line) => line.msg === 'MCP server answer cut' && line.reason === 'event-size',
      ) ?? [];
    await expect.poll(() => cuts().length, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    expect(cuts()[0]).toMatchObject({ server: 'flood', method: 'GET', limit: EVENT_LIMIT });

    const before = process.memoryUsage().rss;
    let peak = before;
    // The flood goes on for three seconds: the server asks to be reopened at once each time.
    const until = Date.now() + 3_000;
    while (Date.now() < until) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      peak = Math.max(peak, process.memoryUsage().rss);
    }
    // Unbounded, the agent grew by some 200 MB a second; bounded, it holds one event at a time.
    expect(peak - before).toBeLessThan(100 * 1024 * 1024);
    // Each stream was dropped by the client soon after the limit; what the kernel's socket
    // buffers took on top is all the server got to send.
    expect(server.streamBytes.length).toBeGreaterThanOrEqual(1);
    for (const bytes of server.streamBytes)
      expect(bytes).toBeLessThan(EVENT_LIMIT + 16 * 1024 * 1024);
    // Reopened after 1 s, then 2 s: not at once, as the server's `retry: 0` asked, but reopened.
    expect(server.streamsOpened()).toBeGreaterThanOrEqual(2);
    expect(server.streamsOpened()).toBeLessThanOrEqual(4);
    await expect
      .poll(() => server?.floodTimes.length, { timeout: 10_000 })
      .toBeGreaterThanOrEqual(3);
    const [first, second, third] = server.floodTimes;
    // The client's cut comes after a stream opened and before the server sees it close, and a
    // loaded machine delays the second: the waits are bounded below from the opens, above from
    // the closes, so neither bound depends on how late the server hears of the cut.
    const sinceOpened = [
      (second?.opened ?? 0) - (first?.opened ?? Infinity),
      (third?.opened ?? 0) - (second?.opened ?? Infinity),
    ];
    expect(sinceOpened[0]).toBeGreaterThanOrEqual(950);
    expect(sinceOpened[1]).toBeGreaterThanOrEqual(1_950);
    expect((second?.opened ?? Infinity) - (first?.closed ?? 0)).toBeLessThan(1_800);

    await expectEchoStillStanding(agent, 'echo through the flood');
  }, 30_000);
});

describe('McpPlugin against a server whose background stream carries an answer to a call, then floods', () => {
  it('cuts the stream at the event limit, and the SDK opens no new one, since an answer came on it; calls keep working [claim:mcp-readme-stream-not-reopened-after-answer]', async () => {
    server = await startFloodingServer({ stream: 'answer-then-floods' });
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'flood', url: server.url, tools: ['echo'] }],
        maxResultBytes: MAX_RESULT_BYTES,
      }),
      [{ steps: [{ pluginId: 'mcp', action: 'flood.echo' }] }, { text: 'still standing' }],
    );
    // The stream was cut at the event limit, as the endless event alone is.
    await expect.poll(() => server?.streamBytes.length ?? 0, { timeout: 10_000 }).toBe(1);
    // Past the 1 s and 2 s after which a stream without an answer on it is opened again.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(server.streamsOpened()).toBe(1);
    await expectEchoStillStanding(agent, 'echo without a background stream');
  }, 30_000);
});

describe('McpPlugin against a server whose background stream ends at once with retry: 0', () => {
  it('reopens the stream no more than once a second, then ever more slowly, and calls keep working [claim:mcp-stream-ends-at-once] [claim:tsdoc-mcp-bounded-fetch-reopen]', async () => {
    server = await startFloodingServer({ stream: 'ends-at-once' });
    agent = await startAgent(
      await McpPlugin.connect({ servers: [{ name: 'flood', url: server.url, tools: ['echo'] }] }),
      [{ steps: [{ pluginId: 'mcp', action: 'flood.echo' }] }, { text: 'still standing' }],
    );
    await expect.poll(() => server?.streamsOpened() ?? 0, { timeout: 5_000 }).toBeGreaterThan(0);
    await new Promise((resolve) => setTimeout(resolve, 2_500));
    // Doing as the server asks, the client opened thousands of streams in that time.
    expect(server.streamsOpened()).toBeLessThanOrEqual(4);
    await expectEchoStillStanding(agent, 'echo through the reopening');
  }, 30_000);
});

describe('McpPlugin against a server whose answer to a call starts and never ends', () => {
  it('fails the call at callTimeoutMs and cuts the answer 5 s after the longer of callTimeoutMs and connectTimeoutMs, naming the cut request in the log [claim:prod-mcp-size-time] [claim:mcp-http-answer-bound] [claim:obs-mcp-answer-cut]', async () => {
    // connectTimeoutMs is far above callTimeoutMs, so that a call ended by anything but its own
    // deadline takes seconds longer than one that is, however loaded the machine.
    server = await startFloodingServer({ stream: 'none', call: 'stalls' });
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'stall', url: server.url, tools: ['echo'] }],
        callTimeoutMs: 300,
        connectTimeoutMs: 6_000,
      }),
      [{ steps: [{ pluginId: 'mcp', action: 'stall.echo' }] }, { text: 'hello' }],
    );
    const started = Date.now();
    const task = await agent.run('a call whose answer stalls');
    const failedAfter = Date.now() - started;
    expect(task.status).toBe('failed');
    expect(JSON.stringify(task.chain)).toContain('WEFT_MCP_TIMEOUT');
    // Short of connectTimeoutMs, so the call's own deadline ended it.
    expect(failedAfter).toBeLessThan(5_000);
    // The call has failed; the answer is still read until its own deadline, then cut.
    await expect.poll(() => server?.stalledAnswersClosedAt.length, { timeout: 20_000 }).toBe(1);
    const cutAfter = (server.stalledAnswersClosedAt[0] as number) - started;
    expect(cutAfter).toBeGreaterThanOrEqual(6_000 + 5_000 - 500);
    expect(cutAfter).toBeLessThan(6_000 + 5_000 + 2_500);
    // The POST carried the tool call: its JSON-RPC id names the answer the cut dropped.
    expect(
      agent.logs.find((line) => line.msg === 'MCP server answer cut' && line.reason === 'deadline'),
    ).toMatchObject({ server: 'stall', method: 'POST', requestIds: [expect.any(Number)] });
  }, 40_000);
});

describe('McpPlugin against a server that sends ping requests without end and never takes the answers', () => {
  it('keeps at most 16 answers on their way, drops answers once 1 MiB waits with a log line, keeps memory bounded and calls working [claim:mcp-readme-server-requests] [claim:tsdoc-mcp-pending-answers] [claim:tsdoc-mcp-waiting-answers]', async () => {
    const warnings: string[] = [];
    const onWarning = (warning: Error) => warnings.push(warning.name);
    process.on('warning', onWarning);
    server = await startFloodingServer({ stream: 'pings' });
    // The pings start with the handshake, before the runtime starts the plugin: its own logger.
    const { logger, lines } = capturingLogger('debug');
    agent = await startAgent(
      await McpPlugin.connect({
        servers: [{ name: 'pings', url: server.url, tools: ['echo'] }],
        logger,
      }),
      [{ steps: [{ pluginId: 'mcp', action: 'pings.echo' }] }, { text: 'still standing' }],
    );
    // The drop comes seconds later, written by the runtime's logger once the plugin has started.
    const dropped = () =>
      [...lines, ...(agent?.logs ?? [])].filter(
        (line) =>
          line.msg ===
          'MCP server sends requests faster than it takes the answers; answers dropped',
      );
    // A megabyte of answers waits before the first drop: some 26,000 pings read off the stream,
    // seconds of work, and more than 30 s on a loaded CI machine. Code that never drops never
    // writes the line, so a long wait lets nothing broken through.
    await expect.poll(() => dropped().length, { timeout: 60_000 }).toBe(1);
    expect(dropped()[0]).toMatchObject({
      server: 'pings',
      pending: 16,
      waitingBytes: 1024 * 1024,
    });

    // What stays held after a full collection: holding an answer for each ping, the agent
    // grew by some 100 MB a second. (Its peak size is no measure: the flood's garbage waits for
    // the collector, longer on a busy machine.)
    const before = heldMemory();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    expect(heldMemory() - before).toBeLessThan(50 * 1024 * 1024);
    expect(server.heldAnswers()).toBeLessThanOrEqual(16);
    // The drop is logged once, not once per ping.
    expect(dropped()).toHaveLength(1);
    // Sixteen answers in flight hold sixteen listeners on the transport's signal: no false alarm.
    process.off('warning', onWarning);
    expect(warnings).not.toContain('MaxListenersExceededWarning');

    await expectEchoStillStanding(agent, 'echo through the pings');
  }, 120_000);
});
