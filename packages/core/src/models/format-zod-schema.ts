import * as z from 'zod';
import { assertZod4Schema } from './zod-schema-check.js';

/** Formatted schemas; zod schemas are immutable, so the text never goes stale. */
const formatted = new WeakMap<z.ZodType, string>();

/** JSON Schemas of the inputs schemas accept, shared by the formatting and getObject's JSON mode. */
const inputJsonSchemas = new WeakMap<z.ZodType, Readonly<Record<string, unknown>>>();

/**
 * The JSON Schema (draft 2020-12, with its `$schema` header) of what a zod 4 schema accepts,
 * with types JSON Schema cannot express left unconstrained. Converted once per schema: a first
 * getObject call needs it twice (for its JSON mode and for its prompt), and converting costs
 * milliseconds. Callers must not change the object.
 *
 * @param schema - A zod 4 schema.
 * @returns The JSON Schema.
 * @internal
 */
export function inputJsonSchema(schema: z.ZodType): Readonly<Record<string, unknown>> {
  let jsonSchema = inputJsonSchemas.get(schema);
  if (!jsonSchema) {
    jsonSchema = z.toJSONSchema(schema, { unrepresentable: 'any', io: 'input' });
    inputJsonSchemas.set(schema, jsonSchema);
  }
  return jsonSchema;
}

/**
 * Renders a zod schema as the JSON Schema text that prompts show a model, so the model knows
 * the exact shape to answer with. Descriptions given with `.describe()` are kept; types JSON
 * Schema cannot express (dates, functions) are rendered as unconstrained values.
 *
 * @param schema - Any zod schema.
 * @returns Indented JSON Schema (draft 2020-12) without the `$schema` header.
 * @throws {@link WeftError} `WEFT_UNSUPPORTED_SCHEMA` when `schema` is not a zod 4 schema (a
 * zod 3 schema, say).
 *
 * @example
 * ```ts
 * import { formatZodSchema } from '@weft/core';
 * import { z } from 'zod';
 *
 * const text = formatZodSchema(z.object({ city: z.string().describe('City name') }));
 * // text is:
 * // {
 * //   "type": "object",
 * //   "properties": {
 * //     "city": {
 * //       "type": "string",
 * //       "description": "City name"
 * //     }
 * //   },
 * //   "required": [
 * //     "city"
 * //   ]
 * // }
 * ```
 * @claim tsdoc-format-zod-schema-example
 * @claim tsdoc-format-zod-schema-no-header
 */
export function formatZodSchema(schema: z.ZodType): string {
  // getObject formats the same few schemas on every call (twice per pipeline step): cache them.
  const cached = formatted.get(schema);
  if (cached !== undefined) return cached;
  assertZod4Schema(schema, 'formatZodSchema');
  const { $schema: _header, ...jsonSchema } = inputJsonSchema(schema);
  const text = JSON.stringify(jsonSchema, null, 2);
  formatted.set(schema, text);
  return text;
}
