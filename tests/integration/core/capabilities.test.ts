import {
  CapabilityRegistry,
  defineCapability,
  Runtime,
  TEXT_GENERATION_CAPABILITY,
  WeftError,
  type CapabilityAliasGroup,
  type CapabilityMap,
  type ModelCapability,
  type ModelManager,
} from '@weft/core';
import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import {
  errorOf,
  makeRuntime,
  sentimentCapability,
  silentLogger,
  TestModelProvider,
} from './fixtures.js';

// The fixtures register sentimentCapability in ICapabilities by module augmentation, so it is
// callable by id with typed input and output.

const schemas = { input: z.object({ text: z.string() }), output: z.object({ ok: z.boolean() }) };

/** A capability whose schemas fill in defaults and transform, so parsing changes the values. */
const wordCountCapability = defineCapability({
  id: 'word-count',
  description: 'Counts the words of a text.',
  input: z.object({
    text: z.string().transform((text) => text.split(/\s+/).filter(Boolean)),
    limit: z.number().int().default(100),
  }),
  output: z.object({ count: z.number(), unit: z.string().default('words') }),
  config: z.object({ strict: z.boolean().default(false) }),
});

declare module '@weft/core' {
  interface ICapabilities {
    'word-count': typeof wordCountCapability;
  }
}

describe('defineCapability', () => {
  it('returns a frozen copy of the descriptor with the same fields [claim:cap-define-frozen]', () => {
    const given = { id: 'image/caption', description: 'Captions an image.', ...schemas };
    const descriptor = defineCapability(given);
    expect(descriptor).not.toBe(given);
    expect(Object.isFrozen(given)).toBe(false);
    expect(descriptor).toMatchObject({ id: 'image/caption', description: 'Captions an image.' });
    expect(descriptor.input).toBe(schemas.input);
    expect(Object.isFrozen(descriptor)).toBe(true);
    // The literal id is kept in the type, so the descriptor can key ICapabilities.
    const literal = defineCapability({ id: 'image/caption', description: 'Captions.', ...schemas });
    expectTypeOf(literal.id).toEqualTypeOf<'image/caption'>();
    expectTypeOf(literal.input).toEqualTypeOf(schemas.input);
  });

  it.each(['a', '3d-render', 'vision.caption:en/short_form-2'])(
    'accepts the id %j: a letter or digit first, then letters, digits and -_.:/ [claim:cap-define-id-rule]',
    (id) => {
      expect(defineCapability({ id, description: 'x', ...schemas }).id).toBe(id);
    },
  );

  it.each([
    '',
    'has space',
    '-leading-dash',
    '_leading-underscore',
    '.hidden',
    'tab\there',
    'emoji🙂',
    'café',
    'Ωmega',
    'with,comma',
    'newline-at-end\n',
  ])(
    'rejects the id %j with WEFT_INVALID_ARGUMENT, naming it [claim:cap-define-id-rule]',
    async (id) => {
      const error = await errorOf(() => defineCapability({ id, description: 'x', ...schemas }));
      expect(error.code).toBe('WEFT_INVALID_ARGUMENT');
      // The code goes at the end of the message's first line, so compare up to any line break.
      expect(error.message).toContain(
        `defineCapability: invalid capability id "${id.split('\n')[0]}`,
      );
    },
  );

  it('rejects an id that is not a string [claim:cap-define-frozen]', () => {
    expect(() =>
      defineCapability({ id: undefined as unknown as string, description: 'x', ...schemas }),
    ).toThrow('defineCapability: invalid capability id');
  });

  it('rejects a missing or blank description with WEFT_INVALID_ARGUMENT, naming the capability [claim:cap-define-frozen] [claim:cap-define-id-rule]', async () => {
    const blank = await errorOf(() =>
      defineCapability({ id: 'blank', description: '   ', ...schemas }),
    );
    expect(blank.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(blank.message).toContain('defineCapability: capability "blank" needs a description.');
    expect(() =>
      defineCapability({ id: 'missing', description: undefined as unknown as string, ...schemas }),
    ).toThrow('defineCapability: capability "missing" needs a description.');
  });
});

describe('CapabilityRegistry', () => {
  const chat = defineCapability({ id: 'chat', description: 'Chat.', ...schemas });

  it('starts with the built-in text-generation capability [claim:cap-builtin]', () => {
    const registry = new CapabilityRegistry();
    expect(registry.has(TEXT_GENERATION_CAPABILITY)).toBe(true);
    expect(registry.list().map((descriptor) => descriptor.id)).toEqual(['text-generation']);
  });

  it('registers, gets and lists descriptors; the same descriptor twice is harmless', () => {
    const registry = new CapabilityRegistry();
    registry.register(chat);
    registry.register(chat);
    expect(registry.get('chat')).toBe(chat);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.list().map((descriptor) => descriptor.id)).toEqual(['text-generation', 'chat']);
  });

  it('rejects a different descriptor under a taken id, naming it', () => {
    const registry = new CapabilityRegistry();
    registry.register(chat);
    expect(() =>
      registry.register(defineCapability({ id: 'chat', description: 'Other chat.', ...schemas })),
    ).toThrow('capability "chat" is already registered with a different descriptor');
  });

  it('takes one descriptor listed by two providers, and refuses two made by separate defineCapability calls with the same fields [claim:errors-duplicate-descriptor-object]', async () => {
    const fields = { id: 'caption', description: 'Captions an image.', ...schemas };
    const shared = defineCapability(fields);
    const provider = (id: string, descriptor: typeof shared) =>
      new TestModelProvider(id, {
        capabilities: [
          { id: 'text-generation', run: async () => ({ text: '{"steps":[]}' }) },
          { id: 'caption', run: async () => ({ ok: true }) },
        ],
        descriptors: [descriptor],
      });
    const config = (descriptors: [typeof shared, typeof shared]) => ({
      models: [provider('a', descriptors[0]), provider('b', descriptors[1])],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    expect((await Runtime.init(config([shared, shared]))).status).toBe('ready');
    const error = await errorOf(Runtime.init(config([shared, defineCapability(fields)])));
    expect(error.code).toBe('WEFT_INVALID_CONFIG');
    expect(error.message).toContain(
      'model "b": CapabilityRegistry: capability "caption" is already registered with a different descriptor; give the new one another id. [WEFT_DUPLICATE]',
    );
  });

  it('resolves alias groups in the order they were added [claim:tr-alias-order]', () => {
    const registry = new CapabilityRegistry();
    registry.addAliasGroup(['text-generation', 'chat', 'completion']);
    registry.addAliasGroup(['chat', 'dialogue']);
    expect(registry.aliasesOf('chat')).toEqual(['text-generation', 'completion', 'dialogue']);
    expect(registry.aliasesOf('dialogue')).toEqual(['chat']);
    expect(registry.aliasesOf('loner')).toEqual([]);
  });

  it.each([[['solo']], [['chat', 'chat']]])('rejects the alias group %j, listing it', (group) => {
    const registry = new CapabilityRegistry();
    expect(() => registry.addAliasGroup(group)).toThrow(
      `alias group [${group.join(', ')}] must list at least two distinct`,
    );
  });

  it('registers transforms only between members of one alias group, once per pair [claim:tr-one-group] [claim:tr-errors-groups]', () => {
    const registry = new CapabilityRegistry();
    const transform = {
      from: 'chat',
      to: 'text-generation',
      input: (value: unknown) => value,
      output: (value: unknown) => value,
    };
    expect(() => registry.addTransform(transform)).toThrow(
      'transform "chat" -> "text-generation" needs both ids in one alias group',
    );
    registry.addAliasGroup(['chat', 'text-generation']);
    registry.addTransform(transform);
    expect(registry.getTransform('chat', 'text-generation')).toBe(transform);
    expect(registry.getTransform('text-generation', 'chat')).toBeUndefined();
    expect(() => registry.addTransform({ ...transform })).toThrow(
      'a transform "chat" -> "text-generation" is already registered',
    );
    // The other direction is a pair of its own.
    const back = { ...transform, from: 'text-generation', to: 'chat' };
    registry.addTransform(back);
    expect(registry.getTransform('text-generation', 'chat')).toBe(back);
  });

  it('rejects an alias group with fewer than two distinct ids [claim:tr-errors-groups]', () => {
    const registry = new CapabilityRegistry();
    for (const group of [['text-generation'], ['text-generation', 'text-generation']]) {
      expect(() => registry.addAliasGroup(group)).toThrow(/at least two distinct capability ids/);
    }
  });

  it('rejects an alias group that is not an array of ids, such as one id of a flat list given for capabilityAliases [claim:tr-errors-groups]', async () => {
    const registry = new CapabilityRegistry();
    // "ab" would otherwise be read as the group ['a', 'b'].
    for (const group of ['ab', 'summarise', ['summarise', 7], ['summarise', '']]) {
      expect(() => registry.addAliasGroup(group as CapabilityAliasGroup)).toThrow(
        /must be an array of capability ids/,
      );
    }
    expect(registry.aliasesOf('a')).toEqual([]);
    const flat = ['summarise', 'text-generation'] as unknown as CapabilityAliasGroup[];
    const error = await errorOf(() =>
      Runtime.init({
        models: [new ScriptedModelProvider()],
        memory: new InMemoryMemoryProvider(),
        plugins: [],
        capabilityAliases: flat,
        options: { logger: silentLogger },
      }),
    );
    expect(error.message).toContain(
      '- capabilityAliases: CapabilityRegistry: alias group "summarise" must be an array of capability ids',
    );
    expect(error.message).toContain('alias group "text-generation" must be an array');
  });
});

describe('capability types', () => {
  it('type-checks calls to text-generation', async () => {
    const { runtime } = await makeRuntime({ responses: { responses: ['typed answer'] } });
    const models: ModelManager = runtime.models;
    const result = await models.call('text-generation', {
      messages: [{ role: 'user', content: 'hi' }],
    });
    expectTypeOf(result.text).toEqualTypeOf<string>();
    expect(result.text).toBe('typed answer');

    const wrongInput = async () =>
      // @ts-expect-error -- `messages` must be a list of chat messages, not a string.
      models.call('text-generation', { messages: 'hi' });
    const error = await errorOf(wrongInput);
    expect(error.message).toContain('input for capability "text-generation" is invalid');

    const wrongOption = async () =>
      models.call(
        'text-generation',
        { messages: [{ role: 'user', content: 'hi' }] },
        // @ts-expect-error -- `temperature` is a number.
        { options: { temperature: 'hot' } },
      );
    expect((await errorOf(wrongOption)).message).toContain(
      'options for capability "text-generation" are invalid',
    );
  });

  it('types a custom capability declared through module augmentation [claim:cap-typed-ids] [claim:cap-augmentation-types]', async () => {
    expectTypeOf<CapabilityMap['sentiment']['input']>().toEqualTypeOf<{ text: string }>();
    expectTypeOf<CapabilityMap['sentiment']['output']>().toEqualTypeOf<{ score: number }>();
    const provider = new TestModelProvider('moody', {
      descriptors: [sentimentCapability],
      capabilities: [
        {
          id: 'sentiment',
          run: async ({ text }: { text: string }) => ({ score: text.includes('love') ? 1 : -1 }),
        },
      ],
    });
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider(), provider],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    const { score } = await runtime.models.call('sentiment', { text: 'I love looms' });
    expectTypeOf(score).toEqualTypeOf<number>();
    expect(score).toBe(1);

    // @ts-expect-error -- the sentiment input has `text`, not `body`.
    const wrong = () => runtime.models.call('sentiment', { body: 'x' });
    expect((await errorOf(wrong)).message).toContain('input for capability "sentiment" is invalid');
  });

  it('types run with the values it sees: input and options as the schemas return them, the result as the output schema accepts it [claim:cap-run-types] [claim:cap-run-validated]', async () => {
    const seen: unknown[] = [];
    const wordCount: ModelCapability<'word-count'> = {
      id: 'word-count',
      run: async (input, request) => {
        // The input schema split the text and filled in the limit; the config filled in strict.
        expectTypeOf(input).toEqualTypeOf<{ text: string[]; limit: number }>();
        expectTypeOf(request.options).toEqualTypeOf<{ strict: boolean } | undefined>();
        seen.push(input, request.options);
        // `unit` has a default in the output schema, so the provider may leave it out.
        return { count: Math.min(input.text.length, input.limit) };
      },
    };
    expectTypeOf(wordCount.run).returns.resolves.toEqualTypeOf<{
      count: number;
      unit?: string | undefined;
    }>();
    const runtime = await Runtime.init({
      models: [
        new ScriptedModelProvider(),
        new TestModelProvider('counter', {
          descriptors: [wordCountCapability],
          capabilities: [wordCount],
        }),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [],
      options: { logger: silentLogger },
    });
    const result = await runtime.models.call('word-count', { text: ' warp and  weft ' });
    expect(seen).toEqual([{ text: ['warp', 'and', 'weft'], limit: 100 }, { strict: false }]);
    expect(result).toEqual({ count: 3, unit: 'words' });
    expectTypeOf(result).toEqualTypeOf<{ count: number; unit: string }>();
  });

  it('makes a misspelt capability id a type error; callDynamic takes any id, untyped [claim:cap-typed-ids] [claim:wp-typed-ids]', async () => {
    const { runtime } = await makeRuntime();
    const misspelt = () =>
      // @ts-expect-error -- "fx-convrt" is not declared in ICapabilities.
      runtime.models.call('fx-convrt', { amount: 1 });
    const dynamicId: string = 'fx-convrt';
    const untyped = () =>
      // @ts-expect-error -- a string that is not a declared id needs callDynamic.
      runtime.models.call(dynamicId, { amount: 1 });
    // An id no descriptor defines is unknown (errors reference, WEFT_CAPABILITY_UNKNOWN), not
    // merely unavailable.
    for (const call of [misspelt, untyped]) {
      expect(WeftError.is(await errorOf(call), 'WEFT_CAPABILITY_UNKNOWN')).toBe(true);
    }

    const dynamic = () => runtime.models.callDynamic(dynamicId, { amount: 1 });
    expectTypeOf(dynamic).returns.resolves.toEqualTypeOf<unknown>();
    expect(WeftError.is(await errorOf(dynamic), 'WEFT_CAPABILITY_UNKNOWN')).toBe(true);
    const text = await runtime.models.callDynamic('text-generation', {
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(text).toEqual({ text: expect.any(String) });
  });
});
