import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { makeRuntime, planner } from './fixtures.js';

async function models(responses: unknown[]) {
  const { runtime, model } = await makeRuntime({ responses: { responses: responses as never[] } });
  return { models: runtime.models, model };
}

describe('getObject in JSON mode', () => {
  it('asks for an object schema as it is, in JSON mode [claim:go-envelope] [claim:go-union-of-objects]', async () => {
    const { models: manager, model } = await models(['{"city":"Lyon"}']);
    const schema = z.object({ city: z.string() });
    expect(await manager.getObject({ schema, prompt: 'Where?' })).toEqual({ city: 'Lyon' });
    expect(model.requestOptions[0]).toEqual({ json: true });
    const system = model.requests[0]?.[0]?.content ?? '';
    expect(system).toContain('"city"');
    expect(system).not.toContain('"value"');
  });

  it('wraps an array schema in a { "value": ... } envelope and unwraps the answer [claim:go-envelope] [claim:wp-getobject-schema]', async () => {
    const { models: manager, model } = await models(['{"value":["tea","milk"]}']);
    const schema = z.array(z.string());
    expect(await manager.getObject({ schema, schemaName: 'Items', prompt: 'List.' })).toEqual([
      'tea',
      'milk',
    ]);
    expect(model.requestOptions[0]).toEqual({ json: true });
    const system = model.requests[0]?.[0]?.content ?? '';
    const shown = JSON.parse(system.slice(system.indexOf('{'))) as Record<string, unknown>;
    expect(shown).toMatchObject({
      type: 'object',
      properties: { value: { type: 'array', items: { type: 'string' } } },
      required: ['value'],
    });
  });

  it('wraps strings, numbers and mixed unions too, and retries an answer without the envelope [claim:go-envelope]', async () => {
    const { models: manager, model } = await models([
      '{"value":"yes"}',
      '{"value":42}',
      '["not","wrapped"]',
      '{"value":7}',
      '{"value":{"city":"Lyon"}}',
    ]);
    expect(await manager.getObject({ schema: z.string(), prompt: 'Say yes.' })).toBe('yes');
    expect(await manager.getObject({ schema: z.number(), prompt: 'A number.' })).toBe(42);
    const mixed = z.union([z.string(), z.number()]);
    expect(await manager.getObject({ schema: mixed, prompt: 'Pick.' })).toBe(7);
    // One member that is not an object is enough for the envelope, an object member beside it.
    const partlyObject = z.union([z.object({ city: z.string() }), z.string()]);
    expect(await manager.getObject({ schema: partlyObject, prompt: 'Where?' })).toEqual({
      city: 'Lyon',
    });
    expect(model.requests[4]?.[0]?.content).toContain('"value"');
    expect(model.requests).toHaveLength(5);
  });

  it('takes a scripted object response for an array schema only as the envelope: a bare array is refused and asked again [claim:tst-get-object-envelope] [claim:go-scripted-envelope]', async () => {
    const { models: manager, model } = await models([['tea'], { value: ['tea', 'milk'] }]);
    const schema = z.array(z.string());
    expect(await manager.getObject({ schema, prompt: 'List.' })).toEqual(['tea', 'milk']);
    // The bare array was sent as its JSON text, refused, and the retry took the envelope.
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.at(-2)).toEqual({ role: 'assistant', content: '["tea"]' });
  });

  it('asks for a union of objects as it is, since JSON mode can answer it [claim:go-union-of-objects]', async () => {
    const { models: manager, model } = await models(['{"kind":"b"}']);
    const union = z.union([z.object({ kind: z.literal('a') }), z.object({ kind: z.literal('b') })]);
    expect(await manager.getObject({ schema: union, prompt: 'Pick.' })).toEqual({ kind: 'b' });
    expect(model.requests[0]?.[0]?.content).not.toContain('"value"');
  });
});

describe('system messages', () => {
  it('getObject, planning and review prompts do not begin with blank lines', async () => {
    const { runtime, model } = await makeRuntime({
      responses: planner(['echo', 'reply'], ['echo', 'reply']),
      options: { pipelineReview: 'always' },
    });
    await runtime.start();
    try {
      await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
      const systems = model.requests.map((messages) => messages[0]?.content ?? '');
      const users = model.requests.map((messages) => messages[1]?.content ?? '');
      expect(users.some((user) => user.startsWith('You plan'))).toBe(true);
      expect(users.some((user) => user.startsWith('You supervise'))).toBe(true);
      for (const system of systems)
        expect(system.startsWith('Answer with one JSON value')).toBe(true);
    } finally {
      await runtime.stop();
    }
  });

  it('puts given system text first, followed by one blank line', async () => {
    const { models: manager, model } = await models(['{"ok":true}']);
    await manager.getObject({
      schema: z.object({ ok: z.boolean() }),
      prompt: 'Ok?',
      system: '  Be strict.\n',
    });
    expect(
      model.requests[0]?.[0]?.content.startsWith('Be strict.\n\nAnswer with one JSON value'),
    ).toBe(true);
  });
});
