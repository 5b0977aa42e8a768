/**
 * A project that still has zod 3 installed passes zod 3 schemas. These tests use a real zod 3
 * (the `zod3` dev dependency, an npm alias of zod@3) to check that getObject and
 * formatZodSchema (and defineCapability) refuse them with a WeftError that says zod 4 is required, not zod's bare
 * TypeError.
 */
import {
  CapabilityRegistry,
  defineCapability,
  formatZodSchema,
  ModelManager,
  PromptRegistry,
  Runtime,
  type CapabilityDescriptor,
} from '@weft/core';
import { DiscardingMemoryProvider } from '@weft-internal/test-support/discarding-memory';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { z as z3 } from 'zod3';
import { errorOf, silentLogger, TestModelProvider } from './fixtures.js';

const zod3Object = z3.object({ city: z3.string() });

describe('zod 3 schemas', () => {
  it('makes formatZodSchema throw WEFT_UNSUPPORTED_SCHEMA saying zod 4 is required', async () => {
    const error = await errorOf(() => formatZodSchema(zod3Object as unknown as z.ZodType));
    expect(error).toMatchObject({
      name: 'WeftError',
      code: 'WEFT_UNSUPPORTED_SCHEMA',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_unsupported_schema',
    });
    expect(error.message).toMatch(
      /^formatZodSchema: the schema must be a zod 4 schema, got a zod 3 schema \(ZodObject\)\. Weft requires zod 4: install zod@\^4/,
    );
  });

  it('makes getObject throw WEFT_UNSUPPORTED_SCHEMA before calling any model [claim:install-zod3-refused] [claim:go-unsupported-schema]', async () => {
    const calls: unknown[] = [];
    const models = new ModelManager({
      registry: new CapabilityRegistry(),
      prompts: new PromptRegistry(),
      providers: [
        new TestModelProvider('alpha', {
          capabilities: [
            {
              id: 'text-generation',
              run: (input) => {
                calls.push(input);
                return Promise.resolve({ text: '{"city":"Lyon"}' });
              },
            },
          ],
        }),
      ],
    });
    const error = await errorOf(
      models.getObject({
        schema: z3.array(z3.string()) as unknown as z.ZodType,
        prompt: 'Name a city.',
      }),
    );
    expect(error).toMatchObject({ code: 'WEFT_UNSUPPORTED_SCHEMA' });
    expect(error.message).toContain(
      'ModelManager.getObject: the schema must be a zod 4 schema, got a zod 3 schema (ZodArray).',
    );
    expect(calls).toEqual([]);
  });

  it('makes defineCapability name the part of the capability that is a zod 3 schema [claim:install-zod3-refused] [claim:cap-define-zod4]', async () => {
    const error = await errorOf(() =>
      defineCapability({
        id: 'summarise',
        description: 'Summarises a text.',
        input: z.object({ text: z.string() }),
        output: z3.object({ summary: z3.string() }) as unknown as z.ZodType,
      }),
    );
    expect(error).toMatchObject({ code: 'WEFT_UNSUPPORTED_SCHEMA' });
    expect(error.message).toContain(
      'defineCapability: the output of capability "summarise": the schema must be a zod 4 schema, got a zod 3 schema (ZodObject).',
    );
  });

  it('makes Runtime.init refuse a provider whose descriptor, written without defineCapability, holds zod 3 schemas [claim:install-zod3-refused]', async () => {
    // A descriptor from JavaScript, as a plain object: nothing else checks its schemas.
    const handWritten = {
      id: 'summarise',
      description: 'Summarises a text.',
      input: z3.object({ text: z3.string() }),
      output: z3.object({ summary: z3.string() }),
    } as unknown as CapabilityDescriptor;
    const error = await errorOf(
      Runtime.init({
        models: [
          new TestModelProvider('alpha', {
            capabilities: [
              { id: 'text-generation', run: () => Promise.resolve({ text: '{"steps":[]}' }) },
              { id: 'summarise', run: () => Promise.resolve({ summary: 'short' }) },
            ],
            descriptors: [handWritten],
          }),
        ],
        memory: new DiscardingMemoryProvider(),
        plugins: [],
        options: { logger: silentLogger },
      }),
    );
    expect(error).toMatchObject({ code: 'WEFT_INVALID_CONFIG' });
    expect(error.message).toContain(
      '- model "alpha": CapabilityRegistry.register: the input of capability "summarise": the schema must be a zod 4 schema, got a zod 3 schema (ZodObject).',
    );
    // A registry used on its own refuses it the same way.
    const direct = await errorOf(() => new CapabilityRegistry().register(handWritten));
    expect(direct).toMatchObject({ code: 'WEFT_UNSUPPORTED_SCHEMA' });
  });

  it.each([
    [null, 'null'],
    // A schema left out (from JavaScript) reads "got undefined", not "got a undefined".
    [undefined, 'undefined'],
    ['{ "type": "object" }', 'a string'],
    [{ type: 'object' }, 'an object that is not a zod schema'],
    [new Date(0), 'an instance of Date, which is not a zod schema'],
  ])('names a value that is no schema at all: %j', async (value, described) => {
    const error = await errorOf(() => formatZodSchema(value as unknown as z.ZodType));
    expect(error).toMatchObject({ code: 'WEFT_UNSUPPORTED_SCHEMA' });
    expect(error.message).toContain(`got ${described}.`);
  });

  it('still formats zod 4 schemas', () => {
    expect(JSON.parse(formatZodSchema(z.object({ city: z.string() })))).toMatchObject({
      type: 'object',
      required: ['city'],
    });
  });
});
