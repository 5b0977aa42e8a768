import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
import { OpenAIModelProvider } from '@weft/model-openai';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { echoPlugin, errorOf, silentLogger, stopAfterTest, waitFor } from './fixtures.js';

// Guards options.checkHealthOnStart (docs/reference/configuration.md and "Provider health at
// start" in docs/guides/production.md): with it, start() fails when a provider is down.

/** A chat-completions server on 127.0.0.1 that answers the model list, as Ollama does. */
let upServer: Server;
let upUrl: string;
/** A base URL where nothing listens: the port of a server that was closed again. */
let downUrl: string;

beforeAll(async () => {
  upServer = createServer((request, response) => {
    response.writeHead(request.url === '/v1/models' ? 200 : 404, {
      'Content-Type': 'application/json',
    });
    response.end('{"data": []}');
  });
  await new Promise<void>((resolve) => upServer.listen(0, '127.0.0.1', resolve));
  upUrl = `http://127.0.0.1:${(upServer.address() as AddressInfo).port}/v1`;
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  downUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}/v1`;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
});

afterAll(() => new Promise<void>((resolve) => upServer.close(() => resolve())));

function ollamaAt(baseUrl: string): OpenAIModelProvider {
  return new OpenAIModelProvider({ id: 'ollama', baseUrl, model: 'llama3.1:8b', maxRetries: 0 });
}

async function runtimeWith(
  model: ModelProvider,
  options: { checkHealthOnStart?: boolean; healthCheckTimeoutMs?: number },
  memory: MemoryProvider = new InMemoryMemoryProvider(),
): Promise<Runtime> {
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: [echoPlugin()],
    options: { logger: silentLogger, ...options },
  });
  return stopAfterTest(runtime);
}

describe('options.checkHealthOnStart', () => {
  it('is off by default: a runtime whose model server is down still starts [claim:gs-health] [claim:prod-health-never] [claim:wp-health-on-start]', async () => {
    const runtime = await runtimeWith(ollamaAt(downUrl), {});
    await runtime.start();
    expect(runtime.status).toBe('running');
  });

  it('never calls checkHealth() without it, through a start, a task and a stop [claim:gs-health]', async () => {
    const calls: string[] = [];
    class CountingMemory extends InMemoryMemoryProvider {
      override async checkHealth(): Promise<boolean> {
        calls.push('memory');
        return false;
      }
    }
    class CountingModel extends OpenAIModelProvider {
      override async checkHealth(): Promise<boolean> {
        calls.push('model');
        return false;
      }
    }
    const model = new CountingModel({ id: 'ollama', baseUrl: upUrl, model: 'm', maxRetries: 0 });
    const runtime = await runtimeWith(model, {}, new CountingMemory());
    await runtime.start();
    // The plan's call reaches the stand-in, which answers 404: the task fails, unchecked before.
    const task = await runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space: 's' });
    expect(task.status).toBe('failed');
    await runtime.stop();
    expect(calls).toEqual([]);
  });

  it("fails the start, naming the memory provider, when the memory's checkHealth() answers false [claim:gs-health]", async () => {
    class SickMemory extends InMemoryMemoryProvider {
      override async checkHealth(): Promise<boolean> {
        return false;
      }
    }
    const runtime = await runtimeWith(
      ollamaAt(upUrl),
      { checkHealthOnStart: true },
      new SickMemory({ id: 'sick' }),
    );
    const error = await errorOf(runtime.start());
    expect(error.message).toMatch(
      /^Runtime\.start: memory provider "sick" is not healthy: checkHealth\(\) answered false\./,
    );
  });

  it('fails the start, naming the provider, when its server is down, and rolls back [claim:gs-health] [claim:prod-health-on-start] [claim:errors-start-failed-sources] [claim:wp-health-on-start]', async () => {
    const runtime = await runtimeWith(ollamaAt(downUrl), { checkHealthOnStart: true });
    const error = await errorOf(runtime.start());
    expect(error.message).toBe(
      'Runtime.start: model provider "ollama" is not healthy: checkHealth() answered false. Start it or fix its settings, or set options.checkHealthOnStart to false to start without checking. [WEFT_START_FAILED]',
    );
    expect(runtime.status).toBe('stopped');
  });

  it('starts when the server answers its model list', async () => {
    const runtime = await runtimeWith(ollamaAt(upUrl), { checkHealthOnStart: true });
    await runtime.start();
    expect(runtime.status).toBe('running');
  });

  it('gives up on a checkHealth that never answers after healthCheckTimeoutMs [claim:gs-health] [claim:prod-health-on-start] [claim:errors-start-failed-sources]', async () => {
    class HangingMemory extends InMemoryMemoryProvider {
      override checkHealth(): Promise<boolean> {
        return new Promise(() => undefined);
      }
    }
    const runtime = await runtimeWith(
      ollamaAt(upUrl),
      { checkHealthOnStart: true, healthCheckTimeoutMs: 200 },
      new HangingMemory({ id: 'hanging' }),
    );
    const started = Date.now();
    const error = await errorOf(runtime.start());
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(error.message).toMatch(
      /^Runtime\.start: memory provider "hanging" is not healthy: checkHealth\(\) did not answer within 200 ms\./,
    );
    expect((error as { code?: string }).code).toBe('WEFT_START_FAILED');
  });

  it('lets a stop() go on 2 s after a checkHealth that holds the start, stopping what has started, and logs the late failure of the check as such [claim:obs-start-held-at-stop] [claim:obs-rollback-on-stop] [claim:obs-rollback-held-failure]', async () => {
    let asked!: () => void;
    const checking = new Promise<void>((resolve) => (asked = resolve));
    let shutDown = false;
    class HangingMemory extends InMemoryMemoryProvider {
      override checkHealth(): Promise<boolean> {
        asked();
        return new Promise(() => undefined);
      }
      override async shutdown(): Promise<void> {
        shutDown = true;
        await super.shutdown();
      }
    }
    const { logger, lines } = capturingLogger();
    const runtime = stopAfterTest(
      await Runtime.init({
        models: [ollamaAt(upUrl)],
        memory: new HangingMemory({ id: 'hanging' }),
        plugins: [echoPlugin()],
        options: { logger, checkHealthOnStart: true, healthCheckTimeoutMs: 6_000 },
      }),
    );
    const started = errorOf(runtime.start());
    await checking;
    const before = performance.now();
    await runtime.stop();
    const tookMs = performance.now() - before;
    // The 2 s grace, well before the check's own 6 s deadline.
    expect(tookMs).toBeGreaterThanOrEqual(1_900);
    expect(tookMs).toBeLessThan(5_000);
    expect(shutDown).toBe(true);
    expect(lines).toContainEqual(
      expect.objectContaining({
        level: 50,
        msg: 'start did not end after stop; stopping what has started',
      }),
    );
    // start() rejects as the stop ends, without waiting for the check's own 6 s deadline.
    const error = await started;
    expect(performance.now() - before).toBeLessThan(tookMs + 500);
    expect(error.code).toBe('WEFT_RUNTIME_STOPPED');
    // The check's deadline fails the held start later, after the stop resolved: that is logged
    // as what it is, the held part failing, and not as a rollback of the start.
    const late = (line: Record<string, unknown>) =>
      line.msg === 'a part failed after stop() gave up on the start; ignored';
    await waitFor(() => lines.some(late), 10_000);
    expect(lines.filter(late)).toEqual([
      expect.objectContaining({
        level: 40,
        component: 'memory provider "hanging": checkHealth()',
        code: 'WEFT_START_FAILED',
      }),
    ]);
    expect(lines.find(late)?.error).toMatch(/did not answer within 6000 ms/);
    expect(lines.map((line) => line.msg)).not.toContain('runtime failed to start; rolling back');
  }, 15_000);

  it('names what a throwing checkHealth said, and keeps its error as the cause [claim:gs-health] [claim:prod-health-on-start] [claim:errors-start-failed-sources]', async () => {
    const gone = new Error('disk gone');
    class ThrowingMemory extends InMemoryMemoryProvider {
      override checkHealth(): Promise<boolean> {
        return Promise.reject(gone);
      }
    }
    const runtime = await runtimeWith(
      ollamaAt(upUrl),
      { checkHealthOnStart: true },
      new ThrowingMemory({ id: 'throwing' }),
    );
    const error = await errorOf(runtime.start());
    expect(error.message).toMatch(
      /^Runtime\.start: memory provider "throwing" is not healthy: checkHealth\(\) threw: disk gone\./,
    );
    expect(error.cause).toBe(gone);
  });

  it('rejects a healthCheckTimeoutMs that is not a positive integer, with the other problems', async () => {
    const error = await errorOf(
      Runtime.init({
        models: [ollamaAt(upUrl)],
        memory: new InMemoryMemoryProvider(),
        plugins: [echoPlugin()],
        options: { logger: silentLogger, healthCheckTimeoutMs: 0 },
      }),
    );
    expect(error.message).toMatch(/options\.healthCheckTimeoutMs/);
    expect((error as { code?: string }).code).toBe('WEFT_INVALID_CONFIG');
  });
});
