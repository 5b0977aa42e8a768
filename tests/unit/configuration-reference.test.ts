/**
 * The configuration reference (docs/reference/configuration.md) has a row for every option of
 * Runtime.init, found by walking the options schema, and no row for an option that does not
 * exist. Where the schema has a default, the page's default column must show it.
 */
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { optionsSchema } from '../../packages/core/src/runtime/config';
import { codeRows, readDoc } from './support/doc-tables';

/** Unwraps `.default()`, `.optional()` and similar wrappers to the schema inside. */
function unwrap(schema: z.ZodType): z.ZodType {
  let current = schema;
  for (;;) {
    const inner = (current.def as { innerType?: z.ZodType }).innerType;
    if (!inner) return current;
    current = inner;
  }
}

/** `options.<key>` for every key, and `options.<key>.<sub>` for keys holding an object. */
function optionPaths(): string[] {
  const paths: string[] = [];
  for (const [key, schema] of Object.entries(optionsSchema.shape)) {
    paths.push(`options.${key}`);
    const inner = unwrap(schema as z.ZodType);
    if (inner.def.type === 'object') {
      for (const sub of Object.keys((inner as z.ZodObject).shape)) {
        paths.push(`options.${key}.${sub}`);
      }
    }
  }
  return paths;
}

/** Reads a backticked default such as `10`, `'always'` or `{}` as a value. */
function parseDefault(cell: string): unknown {
  const code = /^`([^`]+)`$/.exec(cell)?.[1];
  if (code === undefined) return undefined;
  return JSON.parse(code.replace(/'/g, '"'));
}

describe('configuration reference page', () => {
  const rows = codeRows(readDoc('reference/configuration.md'));
  const documented = [...rows.keys()].filter((key) => key.startsWith('options.'));
  const paths = optionPaths();

  it('has a row for every option of the schema, including the server and scheduler ones', () => {
    expect(paths).toContain('options.server.port');
    expect(paths).toContain('options.scheduler.concurrency');
    expect(paths.filter((path) => !rows.has(path))).toEqual([]);
  });

  it('has no row for an option the schema does not know', () => {
    expect(documented.filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('shows the schema default of every option that has one', () => {
    const defaults = optionsSchema.parse({}) as Record<string, unknown>;
    for (const [key, value] of Object.entries(defaults)) {
      const cells = rows.get(`options.${key}`);
      // Columns: type, default, effect.
      expect({ key, shown: parseDefault(cells?.[1] ?? '') }).toEqual({ key, shown: value });
    }
  });
});
