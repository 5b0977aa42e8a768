/**
 * Fixtures of the core's integration tests: runtimes built around the scripted model and the
 * in-memory store of `@weft/testing`. These tests live here, not in packages/core, because
 * `@weft/testing` depends on the core and the core depends on no other package. The helpers that
 * need only the core live with the core's own tests and are re-exported, so a test imports from
 * one place.
 */
import {
  Runtime,
  type ModelCapability,
  type ModelRequestConfig,
  type Plugin,
  type RuntimeOptions,
  type SpaceCoordinator,
  type Trigger,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { onTestFinished } from 'vitest';
import {
  recordingExecutor,
  silentLogger,
  TestPlugin,
} from '../../../packages/core/test/fixtures.js';

export * from '../../../packages/core/test/fixtures.js';

/** A plugin `echo` with one executor `reply` that succeeds. */
export function echoPlugin(parts: ConstructorParameters<typeof TestPlugin>[1] = {}): TestPlugin {
  return new TestPlugin('echo', { executors: [recordingExecutor('reply')], ...parts });
}

/** A route trigger, GET /ping, that answers `pong`: a route to find the server open or closed by. */
export function pingRoute(): Trigger {
  return {
    type: 'route',
    id: 'ping',
    method: 'GET',
    path: '/ping',
    handler: (_request, response) => response.send('pong'),
  };
}

/** A plugin `pinger` with one route trigger, GET /ping, that answers `{ pong: <its request id> }`. */
export function pingerPlugin(): TestPlugin {
  return new TestPlugin('pinger', {
    description: 'Answers pings.',
    triggers: [
      {
        type: 'route',
        id: 'ping',
        method: 'GET',
        path: '/ping',
        handler: (request, response) => response.json({ pong: request.requestId }),
      },
    ],
  });
}

/** A scripted answer planning the given steps. */
export function plan(...steps: [pluginId: string, action: string][]): {
  steps: { pluginId: string; action: string }[];
} {
  return { steps: steps.map(([pluginId, action]) => ({ pluginId, action })) };
}

/**
 * Options for a ScriptedModelProvider that answers every planning request with `steps` and
 * every review with `continue`, however many tasks run.
 */
export function planner(...steps: [pluginId: string, action: string][]): {
  fallback: (messages: readonly unknown[], request: ModelRequestConfig) => Record<string, unknown>;
} {
  return {
    fallback: (_messages, request) =>
      request.purpose === 'review' ? { type: 'continue' } : plan(...steps),
  };
}

/** A text-generation capability answering with fixed text and token usage. */
export function textWithUsage(
  text: string,
  usage = { inputTokens: 7, outputTokens: 3 },
): ModelCapability {
  return { id: 'text-generation', run: async () => ({ text, usage }) };
}

/** A memory provider that logs its lifecycle. */
export class LoggingMemoryProvider extends InMemoryMemoryProvider {
  constructor(
    private readonly events: string[],
    private readonly hooks: {
      init?: () => Promise<void> | void;
      shutdown?: () => Promise<void> | void;
    } = {},
  ) {
    super({ id: 'logging-memory' });
  }

  override async init(): Promise<void> {
    this.events.push('init memory');
    await this.hooks.init?.();
  }

  override async shutdown(): Promise<void> {
    this.events.push('shutdown memory');
    await this.hooks.shutdown?.();
  }
}

/**
 * Stops `runtime` when the current test finishes, whether it passed or failed, so no server,
 * timer or signal handler outlives the test. Call it inside a test.
 */
export function stopAfterTest(runtime: Runtime): Runtime {
  onTestFinished(() => runtime.stop());
  return runtime;
}

/** Builds a runtime around a scripted model and an in-memory store; stops it after the test. */
export async function makeRuntime(
  config: {
    plugins?: Plugin[];
    responses?: ConstructorParameters<typeof ScriptedModelProvider>[0];
    memory?: InMemoryMemoryProvider;
    coordinator?: SpaceCoordinator;
    options?: RuntimeOptions;
  } = {},
): Promise<{ runtime: Runtime; model: ScriptedModelProvider; memory: InMemoryMemoryProvider }> {
  const model = new ScriptedModelProvider(config.responses ?? { fallback: { type: 'continue' } });
  const memory = config.memory ?? new InMemoryMemoryProvider();
  const runtime = await Runtime.init({
    models: [model],
    memory,
    plugins: config.plugins ?? [echoPlugin()],
    ...(config.coordinator ? { coordinator: config.coordinator } : {}),
    options: { logger: silentLogger, ...config.options },
  });
  stopAfterTest(runtime);
  return { runtime, model, memory };
}

/** {@link makeRuntime}, then starts the runtime; it is still stopped after the test. */
export async function startedRuntime(
  config: Parameters<typeof makeRuntime>[0] = {},
): ReturnType<typeof makeRuntime> {
  const built = await makeRuntime(config);
  await built.runtime.start();
  return built;
}
