import {
  defineCapability,
  Runtime,
  type GetObjectConfig,
  type ModelCapability,
  type ModelRequestConfig,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import {
  errorOf,
  makeRuntime,
  plan,
  recordingExecutor,
  silentLogger,
  startedRuntime,
  TestModelProvider,
  TestPlugin,
} from './fixtures.js';

const City = z.object({ city: z.string().describe('The city name'), population: z.number().int() });

async function models(responses: unknown[], options: { getObjectRetries?: number } = {}) {
  const { runtime, model } = await makeRuntime({
    responses: { responses: responses as never[] },
    options,
  });
  return { models: runtime.models, model };
}

describe('ModelManager.getObject', () => {
  it('returns a valid JSON answer on the first try', async () => {
    const { models: manager, model } = await models(['{"city":"Lyon","population":522000}']);
    const value = await manager.getObject({ schema: City, schemaName: 'City', prompt: 'Where?' });
    expect(value).toEqual({ city: 'Lyon', population: 522000 });
    expect(model.requests).toHaveLength(1);
    const [system, user] = model.requests[0] ?? [];
    expect(system?.role).toBe('system');
    expect(system?.content).toContain('It must match this JSON Schema (City)');
    expect(system?.content).toContain('"description": "The city name"');
    expect(user).toEqual({ role: 'user', content: 'Where?' });
  });

  it('makes each attempt a text-generation call of its own, reported to analytics [claim:go-attempt-analytics]', async () => {
    const { runtime, model } = await makeRuntime({
      responses: { responses: ['Lyon, I think', '{"city":"Lyon","population":522000}'] },
      options: { analytics: true },
    });
    await runtime.models.getObject({ schema: City, prompt: 'Where?' });
    expect(model.requests).toHaveLength(2);
    const calls = runtime.analytics.snapshot().modelCalls;
    expect(calls.total).toBe(2);
    expect(calls.byCapability['text-generation']?.calls).toBe(2);
  });

  it("returns the schema's parsed value, with its defaults and transforms applied [claim:go-safe-parse-output]", async () => {
    const Shout = z.object({
      city: z.string().transform((name) => name.toUpperCase()),
      country: z.string().default('France'),
    });
    const { models: manager } = await models(['{"city":"Lyon"}']);
    const value = await manager.getObject({ schema: Shout, prompt: 'Where?' });
    expect(value).toEqual({ city: 'LYON', country: 'France' });
  });

  it('runs async refinements and transforms, and asks again when an async check rejects the answer [claim:go-safe-parse-output]', async () => {
    const known = new Set(['Lyon']);
    const Checked = z.object({
      city: z.string().refine(async (name) => known.has(name), 'not a city we serve'),
      slug: z.string().transform(async (text) => text.toLowerCase()),
    });
    const { models: manager, model } = await models([
      '{"city":"Atlantis","slug":"A"}',
      '{"city":"Lyon","slug":"LYO"}',
    ]);
    const value = await manager.getObject({ schema: Checked, prompt: 'Where?', maxRetries: 1 });
    expect(value).toEqual({ city: 'Lyon', slug: 'lyo' });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[1]?.at(-1)?.content).toContain('not a city we serve');
  });

  it('never accepts an answer for a z.date() field, as JSON has no dates; z.coerce.date() reads the string [claim:go-json-dates]', async () => {
    const { models: manager } = await models(['{"due":"2025-03-14"}', '{"due":"2025-03-14"}']);
    const error = await errorOf(
      manager.getObject({ schema: z.object({ due: z.date() }), prompt: 'When?', maxRetries: 0 }),
    );
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toMatch(/expected date, received string/);
    const coerced = await manager.getObject({
      schema: z.object({ due: z.coerce.date() }),
      prompt: 'When?',
      maxRetries: 0,
    });
    expect(coerced.due).toEqual(new Date('2025-03-14'));
  });

  it('puts the system instructions first and names the schema "object" by default [claim:go-schema-name-default] [claim:go-system-message] [claim:wp-getobject-schema]', async () => {
    const { models: manager, model } = await models(['{"city":"Lyon","population":1}']);
    await manager.getObject({ schema: City, prompt: 'Where?', system: 'You are a geographer.' });
    const system = model.requests[0]?.[0]?.content ?? '';
    expect(system.startsWith('You are a geographer.')).toBe(true);
    expect(system).toContain('JSON Schema (object)');
    // The default names the schema in the retry message and the final error too.
    const { models: failing, model: refusing } = await models(['nope', 'nope']);
    const error = await errorOf(failing.getObject({ schema: City, prompt: 'x', maxRetries: 1 }));
    expect(refusing.requests[1]?.at(-1)?.content).toContain('not valid for the schema object:');
    expect(error.message).toContain('did not match schema "object" after 2 attempt(s)');
  });

  it('asks the provider for JSON output [claim:go-json-mode] [claim:wp-getobject-schema]', async () => {
    const seen: unknown[] = [];
    const capture: ModelCapability = {
      id: 'text-generation',
      run: async (_input, request) => {
        seen.push(request.options);
        return { text: '{"city":"Nice","population":3}' };
      },
    };
    const runtime = await Runtime.init({
      models: [new TestModelProvider('capture', { capabilities: [capture] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    await runtime.models.getObject({
      schema: City,
      prompt: 'Where?',
      request: { options: { temperature: 0.2 } },
    });
    expect(seen).toEqual([{ temperature: 0.2, json: true }]);
  });

  it('accepts an answer in a ```json fence, or with prose around it [claim:go-reading] [claim:wp-getobject-schema]', async () => {
    const { models: manager } = await models([
      'Sure!\n```json\n{"city":"Oslo","population":700000}\n```',
      'Here it is: {"city":"Bergen","population":285000} -- hope that helps',
    ]);
    expect(await manager.getObject({ schema: City, prompt: 'a' })).toEqual({
      city: 'Oslo',
      population: 700000,
    });
    expect(await manager.getObject({ schema: City, prompt: 'b' })).toEqual({
      city: 'Bergen',
      population: 285000,
    });
  });

  it('reads a fenced block before the brace span, and a fence whose prose holds braces [claim:go-reading]', async () => {
    const { models: manager, model } = await models([
      // The whole answer does not parse; the span from the first [ to the last ] does ([1]), but
      // the fence comes first in the order, so its object is the answer and no retry is needed.
      '[1]\n```json\n{"city":"Oslo","population":700000}\n```',
      // The span from the first { to the last } does not parse: only the fence can be read.
      'Use {braces} like this:\n```\n{"city":"Bergen","population":285000}\n```',
    ]);
    expect(await manager.getObject({ schema: City, prompt: 'a', maxRetries: 0 })).toEqual({
      city: 'Oslo',
      population: 700000,
    });
    expect(await manager.getObject({ schema: City, prompt: 'b', maxRetries: 0 })).toEqual({
      city: 'Bergen',
      population: 285000,
    });
    expect(model.requests).toHaveLength(2);
  });

  it('reads only the first fenced block, so JSON in a later one is not found [claim:go-reading]', async () => {
    const { models: manager } = await models([
      // The first block holds braces that are not JSON, so the brace span does not parse either.
      'Placeholders look like {name}:\n```\n{name}\n```\nThe answer:\n```json\n{"city":"Oslo","population":1}\n```',
    ]);
    const error = await errorOf(manager.getObject({ schema: City, prompt: 'x', maxRetries: 0 }));
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toContain('the answer is not JSON');
  });

  it('reads the span from the first [ to the last ] when a [ comes first, not the object inside it [claim:go-reading]', async () => {
    const { models: manager } = await models(['Found: [{"city":"Oslo","population":1}] done']);
    const error = await errorOf(manager.getObject({ schema: City, prompt: 'x', maxRetries: 0 }));
    // The list parses, so the answer is JSON; it is then refused for not being an object.
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).not.toContain('the answer is not JSON');
    expect(error.message).toContain('expected object, received array');
  });

  it('reads the span from the first { to the last }, so two objects in prose are not read [claim:go-reading]', async () => {
    const { models: manager } = await models([
      'Either {"city":"Lyon","population":1} or {"city":"Nice","population":2}.',
    ]);
    const error = await errorOf(manager.getObject({ schema: City, prompt: 'x', maxRetries: 0 }));
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toContain('the answer is not JSON');
  });

  it('asks again with a retry prompt that contains the validation error [claim:wp-getobject-retry] [claim:go-retry-conversation] [claim:trouble-getobject-retries] [claim:wp-getobject]', async () => {
    const { models: manager, model } = await models([
      'I think it is Lyon',
      '{"city":"Lyon","population":"many"}',
      '{"city":"Lyon","population":522000}',
    ]);
    const value = await manager.getObject({
      schema: City,
      schemaName: 'City',
      prompt: 'Where?',
      maxRetries: 2,
    });
    expect(value.population).toBe(522000);
    expect(model.requests).toHaveLength(3);
    const second = model.requests[1] ?? [];
    expect(second.at(-2)).toEqual({ role: 'assistant', content: 'I think it is Lyon' });
    expect(second.at(-1)?.role).toBe('user');
    expect(second.at(-1)?.content).toContain('not valid for the schema City');
    expect(second.at(-1)?.content).toContain('the answer is not JSON');
    const third = model.requests[2]?.at(-1)?.content ?? '';
    expect(third).toContain('population');
    expect(third).toMatch(/expected number/i);
  });

  it('throws after maxRetries + 1 attempts, naming the schema and the last error [claim:wp-getobject-retry] [claim:go-final-error] [claim:trouble-max-retries] [claim:wp-getobject] [claim:wp-getobject-fails]', async () => {
    const { models: manager, model } = await models([
      'nope',
      'still nope',
      '{"city": 3, "population": 1}',
    ]);
    const error = await errorOf(
      manager.getObject({ schema: City, schemaName: 'City', prompt: 'Where?', maxRetries: 2 }),
    );
    expect(error.code).toBe('WEFT_GET_OBJECT_FAILED');
    expect(error.message).toContain('schema "City" after 3 attempt(s)');
    expect(error.message).toMatch(/last error: .*city/s);
    expect(model.requests).toHaveLength(3);
  });

  it('puts a validation error of several lines below the first line, which ends with the code [claim:go-final-error-lines]', async () => {
    const { models: manager } = await models(['{"city": 3, "population": "many"}', '[1]']);
    const error = await errorOf(
      manager.getObject({ schema: City, schemaName: 'City', prompt: 'Where?', maxRetries: 0 }),
    );
    const [first, ...rest] = error.message.split('\n');
    expect(first).toBe(
      `getObject: the model's answer did not match schema "City" after 1 attempt(s); last error: [WEFT_GET_OBJECT_FAILED]`,
    );
    expect(rest.join('\n')).toContain('→ at city');
    expect(rest.join('\n')).toContain('→ at population');
    expect(error.message.match(/WEFT_GET_OBJECT_FAILED/g)).toHaveLength(1);
    // An issue without a path is one line: it stays on the first line, before the code.
    const root = await errorOf(
      manager.getObject({ schema: City, schemaName: 'City', prompt: 'Where?', maxRetries: 0 }),
    );
    expect(root.message).not.toContain('\n');
    expect(root.message).toMatch(/; last error: ✖ .+ \[WEFT_GET_OBJECT_FAILED\]$/);
  });

  it('keeps the problem of an answer that is not JSON on the first line, though the answer has line breaks [claim:go-not-json-one-line]', async () => {
    const { models: manager } = await models(['Sure!\nHere it is.']);
    const error = await errorOf(
      manager.getObject({ schema: City, schemaName: 'City', prompt: 'Where?', maxRetries: 0 }),
    );
    // The parser's own message quotes the answer too; its line break is escaped as well.
    expect(error.message).not.toContain('\n');
    expect(error.message).toMatch(
      /; last error: the answer is not JSON \(.+\); it began with "Sure!\\nHere it is\." \[WEFT_GET_OBJECT_FAILED\]$/,
    );
  });

  it('logs every rejected answer at debug level, the last one too, when no retry is left [claim:go-rejected-log]', async () => {
    const { logger, lines } = capturingLogger('debug');
    const { runtime } = await makeRuntime({
      responses: { responses: ['nope', '{"city": 3, "population": 1}'] },
      options: { logger },
    });
    await errorOf(
      runtime.models.getObject({ schema: City, schemaName: 'City', prompt: 'x', maxRetries: 1 }),
    );
    const rejected = lines.filter((line) => line.msg === 'getObject answer rejected');
    expect(rejected.map((line) => [line.level, line.schemaName, line.attempt])).toEqual([
      [20, 'City', 0],
      [20, 'City', 1],
    ]);
    expect(String(rejected[1]?.error)).toContain('→ at city');
  });

  it('cuts the logged error to 2,000 characters, while the retry message quotes it up to 4,000 [claim:go-rejected-log] [claim:go-quoted-problems]', async () => {
    const { logger, lines } = capturingLogger('debug');
    // Twenty wrong values under keys of 300 characters: each problem's "→ at" line quotes its key.
    const key = (index: number) => `${'k'.repeat(300)}${index}`;
    const wrong = Object.fromEntries(Array.from({ length: 20 }, (_, index) => [key(index), 'x']));
    const { runtime, model } = await makeRuntime({
      responses: { responses: [wrong, { [key(0)]: 1 }] },
      options: { logger },
    });
    await runtime.models.getObject({
      schema: z.record(z.string(), z.number()),
      prompt: 'x',
      maxRetries: 1,
    });
    const rejected = lines.filter((line) => line.msg === 'getObject answer rejected');
    expect(rejected).toHaveLength(1);
    const logged = String(rejected[0]?.error);
    expect(logged).toHaveLength(2_000);
    expect(logged.endsWith('...')).toBe(true);
    const quoted = model.requests[1]?.at(-1)?.content ?? '';
    expect(quoted).toContain(logged.slice(0, -3));
    expect(quoted).toContain(`→ at ${key(9)}\n`);
    const problems = quoted.slice(quoted.indexOf('✖'), quoted.lastIndexOf('...') + 3);
    expect(problems).toHaveLength(4_000);
    expect(quoted).not.toContain(key(12));
  });

  it('quotes the first 20 problems of an answer and counts the others, in the retry message and in the final error [claim:go-quoted-problems]', async () => {
    const wrong = { value: Array.from({ length: 200 }, (_, index) => `item ${index}`) };
    const { runtime, model } = await makeRuntime({
      responses: { responses: [wrong, { value: ['a', 1] }] },
    });
    const failure = await errorOf(
      runtime.models.getObject({ schema: z.array(z.number()), prompt: 'x', maxRetries: 1 }),
    );
    const retry = model.requests[1]?.at(-1)?.content ?? '';
    expect(retry).toContain('→ at value[19]');
    expect(retry).not.toContain('→ at value[20]');
    expect(retry).toContain('✖ and 180 more problems, left out');
    expect(retry.match(/✖/g)).toHaveLength(21);
    // The last answer has one wrong item: nothing is left out, and no count is added.
    expect(failure.message).toContain('→ at value[0]');
    expect(failure.message).not.toContain('left out');
    const manyWrong = await makeRuntime({
      responses: { responses: [wrong] },
    });
    const last = await errorOf(
      manyWrong.runtime.models.getObject({
        schema: z.array(z.number()),
        prompt: 'x',
        maxRetries: 0,
      }),
    );
    expect(last.message).toContain('✖ and 180 more problems, left out');
    expect(last.message.length).toBeLessThan(2_000);
    const one = await makeRuntime({
      responses: { responses: [{ value: Array.from({ length: 21 }, () => 'x') }] },
    });
    const oneLeft = await errorOf(
      one.runtime.models.getObject({ schema: z.array(z.number()), prompt: 'x', maxRetries: 0 }),
    );
    expect(oneLeft.message).toContain('✖ and 1 more problem, left out');
  });

  it('makes a single attempt with maxRetries 0 [claim:go-max-retries-default]', async () => {
    const { models: manager, model } = await models(['nope', '{"city":"Lyon","population":1}']);
    const error = await errorOf(manager.getObject({ schema: City, prompt: 'x', maxRetries: 0 }));
    expect(error.message).toContain('after 1 attempt(s)');
    expect(model.requests).toHaveLength(1);
  });

  it("defaults to the runtime's getObjectRetries [claim:task-cost-retries] [claim:go-max-retries-default] [claim:trouble-getobject-retries]", async () => {
    const { models: manager, model } = await models(['a', 'b', 'c', 'd'], { getObjectRetries: 1 });
    const error = await errorOf(manager.getObject({ schema: City, prompt: 'x' }));
    expect(error.message).toContain('after 2 attempt(s)');
    expect(model.requests).toHaveLength(2);
    // Without the option, the runtime's getObjectRetries is 2: three attempts.
    const unset = await models(['a', 'b', 'c', 'd']);
    const unsetError = await errorOf(unset.models.getObject({ schema: City, prompt: 'x' }));
    expect(unsetError.message).toContain('after 3 attempt(s)');
    expect(unset.model.requests).toHaveLength(3);
  });

  it.each([-1, 1.5, Number.NaN, null])(
    'rejects maxRetries %s, naming the option and value, before any model call [claim:go-invalid-max-retries]',
    async (maxRetries) => {
      const { models: manager, model } = await models([]);
      // `null` is what JavaScript, or a cast, can pass: it is refused, not taken as the default.
      const config = { schema: City, prompt: 'x', maxRetries: maxRetries as number };
      const error = await errorOf(manager.getObject(config));
      expect(error.message).toBe(
        `ModelManager.getObject: maxRetries must be a non-negative integer, got ${maxRetries}. [WEFT_INVALID_ARGUMENT]`,
      );
      expect(model.requests).toHaveLength(0);
    },
  );

  it('shows a maxRetries of the wrong type as JSON, so a string reads as one [claim:go-invalid-max-retries]', async () => {
    const { models: manager, model } = await models([]);
    const config = { schema: City, prompt: 'x', maxRetries: '1' as unknown as number };
    const error = await errorOf(manager.getObject(config));
    expect(error.message).toBe(
      'ModelManager.getObject: maxRetries must be a non-negative integer, got "1". [WEFT_INVALID_ARGUMENT]',
    );
    expect(model.requests).toHaveLength(0);
  });

  it('refuses request options text generation does not accept, and an unknown provider, before any model call and without retrying [claim:go-invalid-request]', async () => {
    const { models: manager, model } = await models([]);
    const refused = async (request: GetObjectConfig['request']) =>
      errorOf(manager.getObject({ schema: City, prompt: 'x', request }));
    const hot = await refused({ options: { temperature: 2.5 } });
    expect(hot.code).toBe('WEFT_VALIDATION_FAILED');
    expect(hot.message).toContain('options for capability "text-generation" are invalid');
    expect(hot.message).toContain('temperature');
    const none = await refused({ options: { maxTokens: 0 } });
    expect(none.code).toBe('WEFT_VALIDATION_FAILED');
    expect(none.message).toContain('maxTokens');
    const elsewhere = await refused({ provider: 'nowhere' });
    expect(elsewhere.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    expect(elsewhere.message).toContain('provider "nowhere" does not offer it');
    expect(model.requests).toHaveLength(0);
  });

  it('refuses a configured provider that does not offer text-generation, before any model call [claim:go-invalid-request]', async () => {
    const model = new ScriptedModelProvider({ responses: [] });
    const runtime = await Runtime.init({
      models: [model, new TestModelProvider('mute', { capabilities: [] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    const error = await errorOf(
      runtime.models.getObject({ schema: City, prompt: 'x', request: { provider: 'mute' } }),
    );
    expect(error.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    expect(error.message).toContain('provider "mute" does not offer it');
    expect(model.requests).toHaveLength(0);
  });

  it('takes a provider that serves text-generation through an alias, and refuses one that offers only an unrelated capability [claim:go-invalid-request]', async () => {
    // "chat" joins text-generation's alias group; the transform maps messages to one prompt.
    const chat = defineCapability({
      id: 'chat',
      description: 'Answers one prompt.',
      input: z.object({ prompt: z.string() }),
      output: z.object({ reply: z.string() }),
    });
    const sentiment = defineCapability({
      id: 'sentiment',
      description: 'Rates a text.',
      input: z.object({ text: z.string() }),
      output: z.object({ score: z.number() }),
    });
    const prompts: string[] = [];
    const chatter = new TestModelProvider('chatter', {
      descriptors: [chat],
      capabilities: [
        {
          id: 'chat',
          run: async (input: { prompt: string }) => {
            prompts.push(input.prompt);
            return { reply: '{"city":"Lyon","population":500000}' };
          },
        } as ModelCapability,
      ],
      transforms: [
        {
          from: 'text-generation',
          to: 'chat',
          input: (input) => ({
            prompt: (input as { messages: { content: string }[] }).messages
              .map((message) => message.content)
              .join('\n'),
          }),
          output: (output) => ({ text: (output as { reply: string }).reply }),
        },
      ],
    });
    const rater = new TestModelProvider('rater', {
      descriptors: [sentiment],
      capabilities: [{ id: 'sentiment', run: async () => ({ score: 1 }) } as ModelCapability],
    });
    const model = new ScriptedModelProvider({ responses: [] });
    const runtime = await Runtime.init({
      models: [model, chatter, rater],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      capabilityAliases: [['text-generation', 'chat']],
      options: { logger: silentLogger },
    });
    const served = await runtime.models.getObject({
      schema: City,
      prompt: 'Where?',
      request: { provider: 'chatter' },
    });
    expect(served).toEqual({ city: 'Lyon', population: 500000 });
    expect(prompts).toHaveLength(1);
    const refused = await errorOf(
      runtime.models.getObject({ schema: City, prompt: 'x', request: { provider: 'rater' } }),
    );
    expect(refused.code).toBe('WEFT_CAPABILITY_UNAVAILABLE');
    expect(refused.message).toContain('provider "rater" does not offer it or an alias of it');
    expect(model.requests).toHaveLength(0);
  });

  it('propagates a provider failure without retrying [claim:go-provider-errors] [claim:wp-getobject-no-retry]', async () => {
    const model = new ScriptedModelProvider({ id: 'empty' });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    const error = await errorOf(runtime.models.getObject({ schema: City, prompt: 'x' }));
    expect(error.code).toBe('WEFT_TESTING_SCRIPT_EXHAUSTED');
    expect(error.message).toContain('ScriptedModelProvider "empty": no scripted response left');
    expect(model.requests).toHaveLength(1);
  });

  it('lets an error the schema throws propagate after the answer that caused it, without retrying; a refinement that returns false is retried [claim:go-schema-throws]', async () => {
    const Link = z.object({ url: z.string().transform((text) => new URL(text)) });
    const thrown = await models([{ url: 'not a url' }, { url: 'https://example.test/' }]);
    const error = await errorOf(thrown.models.getObject({ schema: Link, prompt: 'x' }));
    expect(error).toBeInstanceOf(TypeError);
    expect(error.code).toBe('ERR_INVALID_URL');
    expect(thrown.model.requests).toHaveLength(1);

    const Checked = z.object({
      url: z
        .string()
        .refine((text) => URL.canParse(text), 'not a URL')
        .transform((text) => new URL(text)),
    });
    const refused = await models([{ url: 'not a url' }, { url: 'https://example.test/' }]);
    const value = await refused.models.getObject({ schema: Checked, prompt: 'x' });
    expect(value.url.href).toBe('https://example.test/');
    expect(refused.model.requests).toHaveLength(2);
    expect(refused.model.requests[1]!.at(-1)!.content).toContain('not a URL');
  });

  it("marks a getObject call's purpose with its schema name unless the caller gives one [claim:testing-purpose] [claim:mpo-scripted-function] [claim:tst-purpose] [claim:cap-request-purpose] [claim:go-request-purpose]", async () => {
    const purposes: (string | undefined)[] = [];
    const { runtime } = await startedRuntime({
      responses: {
        fallback: (_messages, request: ModelRequestConfig) => {
          purposes.push(request.purpose);
          return { city: 'Lisbon' };
        },
      },
    });
    const schema = z.object({ city: z.string() });
    await runtime.models.getObject({ schema, schemaName: 'City', prompt: 'Where?' });
    await runtime.models.getObject({
      schema,
      schemaName: 'City',
      prompt: 'Where?',
      request: { purpose: 'destination' },
    });
    // Without a schemaName the schema is named `object`, in the purpose as in prompts and errors.
    await runtime.models.getObject({ schema, prompt: 'Where?' });
    expect(purposes).toEqual(['get-object:City', 'destination', 'get-object:object']);
  });

  it("makes an executor's failed getObject an error item of its step, thrown or returned as a message [claim:go-executor-error-item]", async () => {
    const ask = { schema: City, schemaName: 'City', prompt: 'Where?', maxRetries: 0 };
    const lets = recordingExecutor('lets-it-throw', async (_task, context) => {
      await context.getObject(ask);
      return { success: true };
    });
    const catches = recordingExecutor('catches-it', async (_task, context) => {
      try {
        await context.getObject(ask);
        return { success: true };
      } catch (error) {
        return { success: false, error: error instanceof Error ? error.message : String(error) };
      }
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [lets, catches] })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) =>
          request.purpose === 'plan'
            ? plan(['work', 'lets-it-throw'], ['work', 'catches-it'])
            : 'I am not sure.',
      },
      options: { pipelineReview: 'never' },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'fails' });
    expect(task.status).toBe('failed');
    const items = task.chain.slice(1);
    expect(items.map((item) => `${item.type}:${item.pluginId}/${item.action}`)).toEqual([
      'error:work/lets-it-throw',
      'error:work/catches-it',
    ]);
    for (const item of items) {
      expect(item.error).toMatch(/^getObject: the model's answer did not match schema "City"/);
      expect(item.error).toContain('[WEFT_GET_OBJECT_FAILED]');
    }
  });

  it("marks an executor's getObject call with its schema name, and leaves its other calls without a purpose unless it gives one [claim:testing-purpose] [claim:testing-executor-purpose]", async () => {
    const purposes: (string | undefined)[] = [];
    const asks = recordingExecutor('ask', async (_task, context) => {
      await context.getObject({
        schema: z.object({ city: z.string() }),
        schemaName: 'City',
        prompt: 'Where?',
      });
      await context.models.generateText('Say where.');
      // The executor's own purpose reaches the provider as it gave it.
      await context.models.generateText('Sum it up.', { purpose: 'summary' });
      return { success: true };
    });
    const { runtime } = await startedRuntime({
      plugins: [new TestPlugin('work', { executors: [asks] })],
      responses: {
        fallback: (_messages, request: ModelRequestConfig) => {
          purposes.push(request.purpose);
          if (request.purpose === 'plan') return plan(['work', 'ask']);
          return request.purpose === 'get-object:City' ? { city: 'Lisbon' } : 'Lisbon';
        },
      },
    });
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'purposes' });
    expect(task.status).toBe('completed');
    expect(purposes).toEqual(['plan', 'get-object:City', undefined, 'summary']);
  });
});
