import { CapabilityRegistry, defineCapability } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errorOf } from './fixtures.js';

describe('defineCapability', () => {
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
    // Each of the three schemas is checked: input, output, and config when one is given.
    for (const part of ['input', 'output', 'config'] as const) {
      const error = await errorOf(() =>
        defineCapability({ ...descriptor, [part]: {} as unknown as z.ZodString }),
      );
      expect(error.code, part).toBe('WEFT_UNSUPPORTED_SCHEMA');
      expect(error.message, part).toContain(`the ${part} of capability "echo"`);
    }
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

describe('CapabilityRegistry', () => {
  it('refuses a taken id or transform with WEFT_DUPLICATE, and a bad alias group or transform with WEFT_INVALID_ARGUMENT [claim:tsdoc-capabilities-register] [claim:tsdoc-capabilities-alias] [claim:tsdoc-capabilities-transform]', async () => {
    const registry = new CapabilityRegistry();
    const other = defineCapability({
      id: 'text-generation',
      description: 'Another one.',
      input: z.string(),
      output: z.string(),
    });
    expect((await errorOf(() => registry.register(other))).code).toBe('WEFT_DUPLICATE');
    // The very same descriptor a second time is harmless.
    const echo = defineCapability({
      id: 'echo',
      description: 'Echoes.',
      input: z.string(),
      output: z.string(),
    });
    registry.register(echo);
    expect(() => registry.register(echo)).not.toThrow();
    expect(registry.get('echo')).toBe(echo);
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
