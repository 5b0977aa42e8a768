/** The defaults the runtime's options schema applies, where pages state them as figures. */
import { once } from 'node:events';
import { createServer, get, Agent } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { Runtime } from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';
import { optionsSchema } from '../src/runtime/options-schema.js';
import { silentLogger, TestModelProvider } from './fixtures.js';

describe('runtime options', () => {
  it('give each task 120 s (taskTimeoutMs) unless configured [claim:mpo-keep-below-task-timeout] [claim:oai-ollama-timeouts] [claim:index-trigger-store-hangs] [claim:wp-deadline]', () => {
    expect(optionsSchema.parse({}).taskTimeoutMs).toBe(120_000);
    expect(optionsSchema.parse({ taskTimeoutMs: 30_000 }).taskTimeoutMs).toBe(30_000);
  });

  it('let a call wait 30 s for a full bulkhead (bulkhead.maxWaitMs) unless configured [claim:oai-bulkhead-wait-first] [claim:mpo-bulkhead-wait-first] [claim:mpm-hung-store-others] [claim:philo-hung-dependency-slot-wait]', () => {
    expect(optionsSchema.parse({}).bulkhead.maxWaitMs).toBe(30_000);
    expect(optionsSchema.parse({ bulkhead: { maxWaitMs: 500 } }).bulkhead.maxWaitMs).toBe(500);
  });

  it('give start() 60 s (startTimeoutMs) unless configured [claim:task-start-deadline] [claim:prod-start-timeout] [claim:errors-start-failed-deadline] [claim:trig-start-timeout] [claim:mpm-stop-grace]', () => {
    expect(optionsSchema.parse({}).startTimeoutMs).toBe(60_000);
    expect(optionsSchema.parse({ startTimeoutMs: 200 }).startTimeoutMs).toBe(200);
  });

  it('default to the figures the production guide gives [claim:prod-task-timeout] [claim:prod-drain-timeout] [claim:prod-health-on-start] [claim:prod-bulkhead-wait] [claim:prod-body-limit] [claim:prod-headers-timeout-from-first-byte] [claim:prod-slow-clients] [claim:prod-max-connections] [claim:prod-max-connections-per-client]', () => {
    const defaults = optionsSchema.parse({});
    expect(defaults).toMatchObject({
      taskTimeoutMs: 120_000,
      shutdown: 'drain',
      shutdownTimeoutMs: 30_000,
      healthCheckTimeoutMs: 10_000,
      bulkhead: { maxWaitMs: 30_000 },
      server: {
        bodyLimit: '1mb',
        headersTimeout: 10_000,
        requestTimeout: 30_000,
        maxJsonDepth: 64,
        maxConnections: 1_000,
        stopGraceMs: 1_000,
      },
    });
    // Off unless set: behind a reverse proxy every client has the proxy's address.
    expect(defaults.server.maxConnectionsPerClient).toBeUndefined();
  });

  it('default to the figures "How a task runs" gives [claim:task-timeout-default] [claim:task-queue-full-503] [claim:task-planner-memory-limits] [claim:task-cancel-rejects-waiting] [claim:task-cost-retries] [claim:task-max-steps] [claim:task-review-policy-always] [claim:sp-limits] [claim:index-planner-history] [claim:task-stop-bounded] [claim:trig-503] [claim:trig-shutdown] [claim:gs-what-happened-queue]', () => {
    expect(optionsSchema.parse({})).toMatchObject({
      taskTimeoutMs: 120_000,
      relatedMemories: 10,
      relatedMemoryChars: 4_000,
      shutdown: 'drain',
      shutdownTimeoutMs: 30_000,
      getObjectRetries: 2,
      maxSteps: 10,
      pipelineReview: 'always',
      reviewFinalStep: false,
      scheduler: { concurrency: 4, maxQueueSize: 1_000 },
      server: { stopGraceMs: 1_000 },
    });
  });
});

// Node's URL gives chrome-extension: and capacitor: no origin of their own ('null'), so such an
// entry failed Runtime.init though browsers send it in Origin as scheme://host.
describe('server.allowedOrigins', () => {
  it("takes a browser extension's or an app's origin, and still refuses file:, data: and null [claim:cfg-allowed-origins-schemes]", () => {
    const origins = ['chrome-extension://abcdefghijklmnop', 'capacitor://localhost'];
    expect(
      optionsSchema.parse({ server: { allowedOrigins: origins } }).server.allowedOrigins,
    ).toEqual(origins);
    // A file URL with a host (`file://server/`) is no origin either: its page sends `Origin: null`.
    for (const origin of ['file:///index.html', 'file://server', 'data:text/html,hi', 'null']) {
      const parsed = optionsSchema.safeParse({ server: { allowedOrigins: [origin] } });
      expect(parsed.error?.issues[0]?.message, origin).toMatch(/^must be an origin of the form/);
    }
  });
});

// A value of none of an option's forms was reported as "Invalid input", which named the option but
// not what it takes: allowedOrigins: 'all' (allowedHosts' word) looked right and was not.
describe('options with several forms', () => {
  it.each([
    ['analytics', { analytics: 'yes' }, 'must be true, false or { trackers: [...] }'],
    [
      'server.allowedHosts',
      { server: { allowedHosts: 'any' } },
      "must be true, 'all' or a list of host names",
    ],
    [
      'server.allowedOrigins',
      { server: { allowedOrigins: 'all' } },
      'must be true (to turn the check off) or a list of origins',
    ],
    [
      'server.bodyLimit',
      { server: { bodyLimit: 1.5 } },
      "must be a whole number of bytes of at least 1, or a size such as '100kb'",
    ],
  ] as const)(
    'name the forms options.%s takes when a value has none of them [claim:cfg-init-checks-all]',
    async (name, options, expected) => {
      const failure = await Runtime.init({
        models: [new TestModelProvider('model')],
        memory: new DiscardingMemoryProvider(),
        plugins: [],
        options: { logger: silentLogger, ...(options as object) },
      }).catch((error: unknown) => error as Error & { code?: string });
      expect(failure).toMatchObject({ code: 'WEFT_INVALID_CONFIG' });
      expect((failure as Error).message).toContain(`- options.${name}: ${expected}`);
    },
  );
});

// Node.js runs a setTimeout longer than 2147483647 ms after 1 ms: such a taskTimeoutMs would fail
// every task at once, a shutdownTimeoutMs cancel every drain, a maxWaitMs fail every wait.
describe('runtime options that become timers', () => {
  const over = 2_147_483_648;
  const cases = [
    ['taskTimeoutMs', { taskTimeoutMs: over }],
    ['shutdownTimeoutMs', { shutdownTimeoutMs: over }],
    ['startTimeoutMs', { startTimeoutMs: over }],
    ['healthCheckTimeoutMs', { healthCheckTimeoutMs: over }],
    ['coordinatorTimeoutMs', { coordinatorTimeoutMs: over }],
    ['coordinatorAcquireTimeoutMs', { coordinatorAcquireTimeoutMs: over }],
    ['bulkhead.maxWaitMs', { bulkhead: { maxWaitMs: over } }],
    ['server.stopGraceMs', { server: { stopGraceMs: over } }],
  ] as const;

  it.each(cases)(
    'refuse options.%s over 2147483647 ms, the longest delay a Node.js timer keeps, naming it [claim:cfg-timer-max]',
    async (name, options) => {
      const init = Runtime.init({
        models: [new TestModelProvider('model')],
        memory: new DiscardingMemoryProvider(),
        plugins: [],
        options: { ...options, logger: silentLogger },
      });
      await expect(init).rejects.toMatchObject({ code: 'WEFT_INVALID_CONFIG' });
      await expect(init).rejects.toThrow(
        `options.${name}: must be at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648`,
      );
    },
  );

  it.each(cases)('take options.%s of exactly 2147483647 ms', (_name, options) => {
    const limit = JSON.parse(JSON.stringify(options).replace(String(over), '2147483647')) as object;
    expect(optionsSchema.safeParse(limit).success).toBe(true);
  });

  it.each([0, -1, 1.5])(
    'refuse options.startTimeoutMs of %s, naming it [claim:cfg-init-checks-all]',
    async (value) => {
      const init = Runtime.init({
        models: [new TestModelProvider('model')],
        memory: new DiscardingMemoryProvider(),
        plugins: [],
        options: { startTimeoutMs: value, logger: silentLogger },
      });
      await expect(init).rejects.toMatchObject({ code: 'WEFT_INVALID_CONFIG' });
      await expect(init).rejects.toThrow(/options\.startTimeoutMs: /);
    },
  );

  it('refuse a ServerManager stopGraceMs over it, naming it', () => {
    expect(() => new ServerManager({ stopGraceMs: over })).toThrow(
      'ServerManager: option "stopGraceMs" must be at most 2147483647 ms (about 24.8 days), the longest delay a Node.js timer keeps, got 2147483648.',
    );
  });
});

// Node.js times an idle keep-alive socket for keepAliveTimeout plus a second; a socket timer over
// 2147483647 ms is cut to it with a TimeoutOverflowWarning on every answer.
describe('options.server.keepAliveTimeout', () => {
  const limit = 2_147_482_647;

  it('is refused over 2147482647 ms by Runtime.init and ServerManager, naming it [claim:cfg-keep-alive-max]', async () => {
    const init = Runtime.init({
      models: [new TestModelProvider('model')],
      memory: new DiscardingMemoryProvider(),
      plugins: [],
      options: { server: { keepAliveTimeout: limit + 1 }, logger: silentLogger },
    });
    await expect(init).rejects.toMatchObject({ code: 'WEFT_INVALID_CONFIG' });
    await expect(init).rejects.toThrow(
      `options.server.keepAliveTimeout: must be at most ${limit} ms (about 24.8 days): Node.js holds an idle connection a second longer, and cuts a socket timer over 2147483647 ms to that with a warning on every answer, got ${limit + 1}`,
    );
    expect(() => new ServerManager({ keepAliveTimeout: limit + 1 })).toThrow(
      `ServerManager: option "keepAliveTimeout" must be at most ${limit} ms`,
    );
    expect(optionsSchema.safeParse({ server: { keepAliveTimeout: limit } }).success).toBe(true);
    expect(() => new ServerManager({ keepAliveTimeout: limit })).not.toThrow();
  });

  it.each([
    [limit, 0],
    [limit + 1, 2],
  ])(
    'makes Node.js warn on each kept-alive answer only past the limit (%s ms: %s warnings) [claim:cfg-keep-alive-max]',
    async (keepAliveTimeout, expected) => {
      let warnings = 0;
      const onWarning = (warning: Error): void => {
        if (warning.name === 'TimeoutOverflowWarning') warnings += 1;
      };
      process.on('warning', onWarning);
      const server = createServer({ keepAliveTimeout }, (_request, response) => response.end('ok'));
      const agent = new Agent({ keepAlive: true });
      try {
        server.listen(0, '127.0.0.1');
        await once(server, 'listening');
        const { port } = server.address() as AddressInfo;
        for (let answer = 0; answer < 2; answer += 1) {
          await new Promise<void>((resolve, reject) => {
            get({ host: '127.0.0.1', port, agent }, (response) => {
              response.resume();
              response.on('end', resolve);
            }).on('error', reject);
          });
        }
        // Warnings are emitted on the next tick.
        await new Promise((resolve) => setImmediate(resolve));
        expect(warnings).toBe(expected);
      } finally {
        process.off('warning', onWarning);
        agent.destroy();
        server.closeAllConnections();
        server.close();
      }
    },
  );
});
