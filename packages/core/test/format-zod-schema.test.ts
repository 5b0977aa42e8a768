import { formatZodSchema, PipelineSchema } from '@weft/core';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { inputJsonSchema } from '../src/models/format-zod-schema.js';
import { jsonModeSchema } from '../src/models/model-manager.js';

describe('formatZodSchema', () => {
  it('renders indented JSON Schema with descriptions and without $schema [claim:go-format-zod] [claim:tsdoc-format-zod-schema-no-header]', () => {
    const text = formatZodSchema(
      z.object({
        city: z.string().describe('City name'),
        days: z.number().int().min(1).optional(),
        unit: z.enum(['C', 'F']),
      }),
    );
    expect(text).not.toContain('$schema');
    expect(text).toContain('\n  "type": "object"');
    const schema = JSON.parse(text) as {
      type: string;
      properties: Record<
        string,
        { type?: string; description?: string; enum?: string[]; minimum?: number }
      >;
      required: string[];
    };
    expect(schema.type).toBe('object');
    expect(schema.properties.city).toEqual({ type: 'string', description: 'City name' });
    expect(schema.properties.days).toMatchObject({ type: 'integer', minimum: 1 });
    expect(schema.properties.unit?.enum).toEqual(['C', 'F']);
    expect(schema.required).toEqual(['city', 'unit']);
  });

  it('renders types JSON Schema cannot express as unconstrained values [claim:go-format-zod]', () => {
    const schema = JSON.parse(formatZodSchema(z.object({ when: z.date(), label: z.string() }))) as {
      properties: Record<string, unknown>;
    };
    expect(schema.properties.when).toEqual({});
    expect(schema.properties.label).toEqual({ type: 'string' });
  });

  it("keeps the descriptions of the core's pipeline schema", () => {
    const text = formatZodSchema(PipelineSchema);
    expect(text).toContain('Id of the plugin that owns the executor.');
    expect(text).toContain('Steps to run in order; empty when nothing needs doing.');
  });

  it('returns what its TSDoc example shows, line for line [claim:tsdoc-format-zod-schema-example]', () => {
    const source = readFileSync(
      new URL('../src/models/format-zod-schema.ts', import.meta.url),
      'utf8',
    );
    // The example's comment lines after "// text is:" are the output it promises.
    const shown = /\/\/ text is:\n((?: \* \/\/ .*\n)+)/.exec(source)?.[1];
    expect(shown, 'the @example of formatZodSchema shows its output').toBeDefined();
    const expected = shown!
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => line.replace(/^ \* \/\/ /, ''))
      .join('\n');
    expect(formatZodSchema(z.object({ city: z.string().describe('City name') }))).toBe(expected);
  });

  it("converts a schema once for the prompt and getObject's JSON mode, and changes neither [claim:go-format-zod]", () => {
    const schema = z.object({ steps: z.array(z.string()) });
    const converted = inputJsonSchema(schema);
    expect(converted.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
    expect(jsonModeSchema(schema).schema).toBe(schema);
    expect(JSON.parse(formatZodSchema(schema))).toEqual({
      type: 'object',
      properties: { steps: { type: 'array', items: { type: 'string' } } },
      required: ['steps'],
    });
    // The formatted text leaves out the header; the shared conversion keeps it.
    expect(inputJsonSchema(schema)).toBe(converted);
    expect(converted.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
  });
});
