/**
 * A tool's JSON Schema becomes the executor's zod input (src/tool-executor.ts): a schema zod
 * cannot convert is refused at connect time with WEFT_MCP_UNSUPPORTED_SCHEMA, naming the tool
 * and the server, instead of failing later inside a task.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { McpPluginError } from '../src/errors.js';
import { inputSchemaOf } from '../src/tool-executor.js';

const tool = (inputSchema: Record<string, unknown>): Tool =>
  ({ name: 'lookup', inputSchema: { type: 'object', ...inputSchema } }) as Tool;

describe('inputSchemaOf', () => {
  it.each([
    ['an external $ref', { properties: { order: { $ref: 'https://example.com/order.json' } } }],
    ['a $ref to nothing', { properties: { order: { $ref: '#/$defs/missing' } } }],
    ['an unknown type', { properties: { order: { type: 'frobnicate' } } }],
  ])('refuses %s with WEFT_MCP_UNSUPPORTED_SCHEMA naming the tool and server', (_what, schema) => {
    let thrown: unknown;
    try {
      inputSchemaOf('shop', tool(schema));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(McpPluginError);
    expect((thrown as McpPluginError).code).toBe('WEFT_MCP_UNSUPPORTED_SCHEMA');
    expect((thrown as Error).message).toContain('tool "lookup" on server "shop"');
  });

  it('checks arguments against a schema it converts, naming the bad field', () => {
    const schema = inputSchemaOf(
      'shop',
      tool({
        properties: {
          lines: {
            type: 'array',
            items: {
              type: 'object',
              properties: { quantity: { type: 'integer', minimum: 1 } },
              required: ['quantity'],
            },
          },
        },
        required: ['lines'],
      }),
    );
    expect(schema.safeParse({ lines: [{ quantity: 2 }] }).success).toBe(true);
    const bad = schema.safeParse({ lines: [{ quantity: 0 }] });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.path).toEqual(['lines', 0, 'quantity']);
  });
});
