/**
 * Claims the TSDoc comments of the core's public API make, which the API reference shows, and
 * which no other test checked: mostly which code each `@throws` names. Each describe names the
 * symbol whose comment it guards, so a change to that comment leads here.
 */
import {
  CapabilityRegistry,
  defineCapability,
  ModelManager,
  PromptRegistry,
  Scheduler,
  WeftError,
  type ModelCapability,
} from '@weft/core';
import { ServerManager } from '@weft/core/node';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorOf, TestModelProvider } from './fixtures.js';

const hello = { messages: [{ role: 'user' as const, content: 'hello' }] };

function textModel(id: string, run: ModelCapability['run']): TestModelProvider {
  return new TestModelProvider(id, { capabilities: [{ id: 'text-generation', run }] });
}

function managerOf(...providers: TestModelProvider[]): ModelManager {
  const prompts = new PromptRegistry();
  prompts.register('core', 'get-object', '{{ system }} {{ schemaName }} {{ schema }}');
  prompts.register('core', 'get-object-retry', '{{ schemaName }} {{ error }}');
  return new ModelManager({ registry: new CapabilityRegistry(), providers, prompts });
}

/** A manager whose one text model always answers `text`, and how many times it was called. */
function countingModels(text: string): { models: ModelManager; calls: () => number } {
  let calls = 0;
  const models = managerOf(
    textModel('counting', async () => {
      calls += 1;
      return { text };
    }),
  );
  return { models, calls: () => calls };
}

describe('TSDoc of Scheduler', () => {
  it('constructor: a bad concurrency or maxQueueSize is WEFT_INVALID_ARGUMENT naming it [claim:tsdoc-scheduler-constructor]', () => {
    for (const options of [{ concurrency: 0 }, { maxQueueSize: 1.5 }]) {
      const name = Object.keys(options)[0] as string;
      let caught: unknown;
      try {
        new Scheduler(options);
      } catch (error) {
        caught = error;
      }
      expect(WeftError.is(caught, 'WEFT_INVALID_ARGUMENT')).toBe(true);
      expect((caught as Error).message).toContain(`"${name}"`);
    }
  });

  it('schedule: with a coordinator, a task without a ticket is WEFT_INVALID_ARGUMENT [claim:tsdoc-scheduler-ticket]', async () => {
    const scheduler = new Scheduler({
      coordinator: {
        acquire: () => new Promise(() => undefined),
        release: async () => undefined,
      },
    });
    const error = await errorOf(scheduler.schedule('room', async () => 'ran'));
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(error.message).toContain('ticket');
  });

  it('schedule: after stop, WEFT_SHUTTING_DOWN with status 503 [claim:httpchat-row-503] [claim:tsdoc-scheduler-shutting-down]', async () => {
    const scheduler = new Scheduler();
    scheduler.start();
    await scheduler.stop();
    const error = await errorOf(scheduler.schedule('room', async () => 'ran'));
    expect([error.code, error.status]).toEqual(['WEFT_SHUTTING_DOWN', 503]);
  });

  it('schedule: a cancel stop rejects a task that had not run with WEFT_TASK_CANCELLED [claim:tsdoc-scheduler-cancelled]', async () => {
    const scheduler = new Scheduler();
    const waiting = scheduler.schedule('room', async () => 'ran');
    await scheduler.stop('cancel');
    const error = await errorOf(waiting);
    expect([error.code, error.status]).toEqual(['WEFT_TASK_CANCELLED', 503]);
  });
});

describe('TSDoc of ServerManager', () => {
  it('mount: WEFT_DUPLICATE for a taken route, WEFT_RUNTIME_STOPPED once started [claim:tsdoc-server-mount]', async () => {
    const server = new ServerManager({ port: 0 });
    const route = { method: 'GET' as const, path: '/a', handler: () => undefined };
    server.mount('one', route, undefined);
    expect((await errorOf(() => server.mount('two', route, undefined))).code).toBe(
      'WEFT_DUPLICATE',
    );
    await server.start();
    try {
      const late = { ...route, path: '/b' };
      expect((await errorOf(() => server.mount('one', late, undefined))).code).toBe(
        'WEFT_RUNTIME_STOPPED',
      );
    } finally {
      await server.stop();
    }
  });

  it('start: WEFT_LISTEN_FAILED naming host and port when the port is taken [claim:tsdoc-server-listen]', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const error = await errorOf(new ServerManager({ port }).start());
      expect(error.code).toBe('WEFT_LISTEN_FAILED');
      expect(error.message).toContain(`127.0.0.1:${port}`);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('constructor: WEFT_INVALID_ARGUMENT naming a bad port or timeout [claim:tsdoc-server-constructor]', async () => {
    for (const [config, name] of [
      [{ port: 70_000 }, 'port'],
      [{ stopGraceMs: 0 }, 'stopGraceMs'],
      [{ maxJsonDepth: -1 }, 'maxJsonDepth'],
    ] as const) {
      const error = await errorOf(() => new ServerManager(config));
      expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
      expect(error.message).toContain(`"${name}"`);
    }
  });
});

describe('TSDoc of defineCapability', () => {
  it('returns a frozen copy, and refuses a schema that is not zod 4 with WEFT_UNSUPPORTED_SCHEMA [claim:tsdoc-define-capability] [claim:tsdoc-define-capability-schema]', async () => {
    const descriptor = {
      id: 'echo',
      description: 'Echoes.',
      input: z.string(),
      output: z.string(),
    };
    const defined = defineCapability(descriptor);
    expect(defined).not.toBe(descriptor);
    expect(Object.isFrozen(defined)).toBe(true);
    const error = await errorOf(() =>
      defineCapability({ ...descriptor, output: {} as unknown as z.ZodString }),
    );
    expect(error.code).toBe('WEFT_UNSUPPORTED_SCHEMA');
    expect(error.message).toContain('output');
  });

  it('refuses an id that does not start with a letter or digit with WEFT_INVALID_ARGUMENT [claim:tsdoc-define-capability-id]', async () => {
    const error = await errorOf(() =>
      defineCapability({
        id: '-echo',
        description: 'Echoes.',
        input: z.string(),
        output: z.string(),
      }),
    );
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
  });
});

describe('TSDoc of CapabilityRegistry', () => {
  it('names its codes: WEFT_DUPLICATE, WEFT_INVALID_ARGUMENT [claim:tsdoc-capabilities-register] [claim:tsdoc-capabilities-alias] [claim:tsdoc-capabilities-transform]', async () => {
    const registry = new CapabilityRegistry();
    const other = defineCapability({
      id: 'text-generation',
      description: 'Another one.',
      input: z.string(),
      output: z.string(),
    });
    expect((await errorOf(() => registry.register(other))).code).toBe('WEFT_DUPLICATE');
    expect((await errorOf(() => registry.addAliasGroup(['a', 'a']))).code).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
    const transform = { from: 'a', to: 'b', input: (v: unknown) => v, output: (v: unknown) => v };
    expect((await errorOf(() => registry.addTransform(transform))).code).toBe(
      'WEFT_INVALID_ARGUMENT',
    );
    registry.addAliasGroup(['a', 'b']);
    registry.addTransform(transform);
    expect((await errorOf(() => registry.addTransform(transform))).code).toBe('WEFT_DUPLICATE');
  });
});

describe('TSDoc of ModelManager', () => {
  it("callDynamic: rethrows a provider's own WeftError as it is, and wraps anything else in WEFT_PROVIDER_FAILED [claim:tsdoc-models-provider-error]", async () => {
    const own = new WeftError('WEFT_QUEUE_FULL', 'Provider: its own error.', { status: 503 });
    const passing = managerOf(
      textModel('own', async () => {
        throw own;
      }),
    );
    expect(await errorOf(passing.callDynamic('text-generation', hello))).toBe(own);
    const wrapping = managerOf(
      textModel('plain', async () => {
        throw new TypeError('boom');
      }),
    );
    const wrapped = await errorOf(wrapping.callDynamic('text-generation', hello));
    expect(wrapped.code).toBe('WEFT_PROVIDER_FAILED');
    expect(wrapped.message).toContain('"plain"');
  });

  it('getObject: WEFT_INVALID_ARGUMENT for a negative maxRetries, before any model call [claim:tsdoc-models-get-object-retries]', async () => {
    const { models, calls } = countingModels('{}');
    const error = await errorOf(
      models.getObject({ schema: z.object({ a: z.string() }), prompt: 'x', maxRetries: -1 }),
    );
    expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(calls()).toBe(0);
  });

  it('getObject: WEFT_GET_OBJECT_FAILED naming the schema after 1 + maxRetries attempts [claim:tsdoc-models-get-object-failed]', async () => {
    const { models, calls } = countingModels('{"a": 1}');
    const error = await errorOf(
      models.getObject({
        schema: z.object({ a: z.string() }),
        schemaName: 'Thing',
        prompt: 'x',
        maxRetries: 1,
      }),
    );
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toContain('"Thing"');
    expect(calls()).toBe(2);
  });
});

describe('TSDoc of PromptRegistry', () => {
  it('get: WEFT_TEMPLATE_NOT_FOUND; the render function rejects with WEFT_TEMPLATE_RENDER_FAILED [claim:tsdoc-prompts-register] [claim:tsdoc-prompts-get] [claim:tsdoc-prompts-render]', async () => {
    const prompts = new PromptRegistry();
    prompts.register('core', 'greet', 'Hi {{ name }}');
    expect((await errorOf(() => prompts.get('core/missing'))).code).toBe('WEFT_TEMPLATE_NOT_FOUND');
    expect((await errorOf(prompts.get('core/greet')({}))).code).toBe('WEFT_TEMPLATE_RENDER_FAILED');
    expect((await errorOf(() => prompts.register('core', 'bad name', 'x'))).code).toBe(
      'WEFT_TEMPLATE_INVALID',
    );
  });
});

describe('The errors registry: WEFT_TEMPLATE_INVALID', () => {
  it('refuses a name or namespace that does not start with a letter or digit, though every character is allowed [claim:errors-template-invalid-first-character]', async () => {
    for (const [namespace, name] of [
      ['core', '-greet'],
      ['_mail', 'greet'],
    ] as const) {
      const error = await errorOf(() => new PromptRegistry().register(namespace, name, 'x'));
      expect(error.code).toBe('WEFT_TEMPLATE_INVALID');
      expect(error.message).toContain('start with a letter or digit');
    }
    expect(() => new PromptRegistry().register('a_b', 'c-d.e_f', 'x')).not.toThrow();
  });
});

describe('TSDoc of WeftErrorOptions.expose', () => {
  it('defaults to false when the error has no status [claim:tsdoc-weft-error-expose]', () => {
    expect(new WeftError('WEFT_INTERNAL', 'X: no status.').expose).toBe(false);
    expect(new WeftError('WEFT_BAD_REQUEST', 'X: a 4xx.', { status: 400 }).expose).toBe(true);
  });
});
