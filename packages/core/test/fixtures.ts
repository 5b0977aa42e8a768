/**
 * Shared fixtures of the core's unit tests: a silent logger, small plugins and providers, and
 * helpers for promises and errors. They use the core alone; the tests that run a whole runtime
 * with the doubles of `@weft/testing` live in tests/integration/core/, whose fixtures build on
 * these.
 */
import { connect, type Socket } from 'node:net';
import {
  defineCapability,
  ModelProvider,
  Plugin,
  type AgentTask,
  type ExecutionContext,
  type Executor,
  type ModelCapability,
  type PluginResult,
  type PromptTemplate,
  type Runtime,
  type Trigger,
  type TriggerRoute,
} from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { pino, type Logger } from 'pino';
import { onTestFinished } from 'vitest';
import { z } from 'zod';

/** A logger that writes nothing. */
export const silentLogger = pino({ level: 'silent' });

/**
 * A `ServerManager` on a free port with `routes` mounted for the plugin `test-plugin` (their
 * handlers get `runtime`), started, and stopped when the test ends.
 */
export async function startServer(
  routes: readonly TriggerRoute[],
  config: ConstructorParameters<typeof ServerManager>[0] = {},
  { logger = silentLogger, runtime = {} as Runtime }: { logger?: Logger; runtime?: Runtime } = {},
): Promise<ServerManager> {
  const server = new ServerManager({ port: 0, ...config }, logger);
  onTestFinished(() => server.stop());
  for (const route of routes) server.mount('test-plugin', route, runtime);
  await server.start();
  return server;
}

/** A plugin assembled from parts, for tests. */
export class TestPlugin extends Plugin {
  readonly id: string;
  readonly description: string;
  override readonly executors: readonly Executor[];
  override readonly triggers: readonly Trigger[];
  override readonly templates: Readonly<Record<string, string | PromptTemplate>>;
  override readonly requiredCapabilities: readonly string[];
  /** Names of lifecycle events, in order, shared when a log is passed. */
  readonly events: string[];
  private readonly hooks: {
    init?: () => Promise<void> | void;
    shutdown?: () => Promise<void> | void;
  };

  constructor(
    id: string,
    parts: {
      description?: string;
      executors?: readonly Executor[];
      triggers?: readonly Trigger[];
      templates?: Record<string, string | PromptTemplate>;
      requiredCapabilities?: readonly string[];
      events?: string[];
      init?: () => Promise<void> | void;
      shutdown?: () => Promise<void> | void;
    } = {},
  ) {
    super();
    this.id = id;
    this.description = parts.description ?? `Test plugin ${id}.`;
    this.executors = parts.executors ?? [];
    this.triggers = parts.triggers ?? [];
    this.templates = parts.templates ?? {};
    this.requiredCapabilities = parts.requiredCapabilities ?? [];
    this.events = parts.events ?? [];
    this.hooks = { init: parts.init, shutdown: parts.shutdown };
  }

  override async init(): Promise<void> {
    this.events.push(`init plugin ${this.id}`);
    await this.hooks.init?.();
  }

  override async shutdown(): Promise<void> {
    this.events.push(`shutdown plugin ${this.id}`);
    await this.hooks.shutdown?.();
  }
}

/** Records what each call of an executor received. */
export interface ExecutorCall {
  task: AgentTask;
  chain: AgentTask['chain'];
  context: ExecutionContext;
}

/**
 * An executor that records its calls and answers with `result` (or the value `result` returns).
 */
export function recordingExecutor(
  action: string,
  result:
    | PluginResult
    | ((task: AgentTask, context: ExecutionContext) => Promise<PluginResult> | PluginResult) = {
    success: true,
    data: { action },
  },
  description = `Runs the ${action} action.`,
): Executor & { calls: ExecutorCall[] } {
  const calls: ExecutorCall[] = [];
  return {
    action,
    description,
    calls,
    async execute(task, context) {
      calls.push({ task, chain: [...task.chain], context });
      return typeof result === 'function' ? result(task, context) : result;
    },
  };
}

/** A custom capability (beside text-generation) for the providers of these tests to offer. */
export const sentimentCapability = defineCapability({
  id: 'sentiment',
  description: 'Scores the sentiment of a text from -1 to 1.',
  input: z.object({ text: z.string() }),
  output: z.object({ score: z.number().min(-1).max(1) }),
});

// Module augmentation: the custom capability becomes callable by id with typed input and output.
// It sits beside the capability because every test that imports these fixtures sees it.
declare module '@weft/core' {
  interface ICapabilities {
    sentiment: typeof sentimentCapability;
  }
}

/** A provider assembled from capabilities, with lifecycle hooks that log. */
export class TestModelProvider extends ModelProvider {
  readonly id: string;
  override readonly capabilities: readonly ModelCapability[];
  override readonly descriptors: ModelProvider['descriptors'];
  override readonly transforms: ModelProvider['transforms'];
  private readonly events: string[];
  private readonly hooks: {
    init?: () => Promise<void> | void;
    shutdown?: () => Promise<void> | void;
  };

  constructor(
    id: string,
    parts: {
      capabilities?: readonly ModelCapability[];
      descriptors?: ModelProvider['descriptors'];
      transforms?: ModelProvider['transforms'];
      events?: string[];
      init?: () => Promise<void> | void;
      shutdown?: () => Promise<void> | void;
    } = {},
  ) {
    super();
    this.id = id;
    this.capabilities = parts.capabilities ?? [];
    this.descriptors = parts.descriptors ?? [];
    this.transforms = parts.transforms ?? [];
    this.events = parts.events ?? [];
    this.hooks = { init: parts.init, shutdown: parts.shutdown };
  }

  override async init(): Promise<void> {
    this.events.push(`init model ${this.id}`);
    await this.hooks.init?.();
  }

  override async shutdown(): Promise<void> {
    this.events.push(`shutdown model ${this.id}`);
    await this.hooks.shutdown?.();
  }
}

/** A promise with its resolve function, to hold work open until a test releases it. */
export interface Deferred<T = void> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (reason: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** An executor `action` whose every call waits until the test calls `open`, then succeeds. */
export function gatedExecutor(action: string): {
  executor: ReturnType<typeof recordingExecutor>;
  open: () => void;
} {
  const gate = deferred();
  const executor = recordingExecutor(action, async () => {
    await gate.promise;
    return { success: true };
  });
  return { executor, open: () => gate.resolve() };
}

/** Waits until `check` holds, polling every few milliseconds, or fails after `timeoutMs`. */
export async function waitFor(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('waitFor: condition not met in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Catches the rejection of a promise (or the throw of a function) and returns the error. */
export async function errorOf(
  action: Promise<unknown> | (() => unknown),
): Promise<Error & { status?: number; code?: string }> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (error) {
    return error as Error & { status?: number; code?: string };
  }
  throw new Error('expected an error, but none was thrown');
}

/**
 * A raw TCP connection to a server on 127.0.0.1, for requests no client would send: what comes
 * back is kept as text (`latin1` keeps every byte), and `closed` settles when the connection
 * closes.
 */
export function rawConnectionTo(
  port: number,
  encoding: BufferEncoding = 'latin1',
): { socket: Socket; received: () => string; closed: Promise<void> } {
  const socket = connect(port, '127.0.0.1');
  let received = '';
  socket.setEncoding(encoding);
  socket.on('data', (chunk: string) => (received += chunk));
  socket.on('error', () => {});
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  return { socket, received: () => received, closed };
}
