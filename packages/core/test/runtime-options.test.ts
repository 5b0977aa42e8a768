/** The defaults the runtime's options schema applies, where pages state them as figures. */
import { describe, expect, it } from 'vitest';
import { optionsSchema } from '../src/runtime/options-schema.js';

describe('runtime options', () => {
  it('give each task 120 s (taskTimeoutMs) unless configured [claim:mpo-keep-below-task-timeout]', () => {
    expect(optionsSchema.parse({}).taskTimeoutMs).toBe(120_000);
    expect(optionsSchema.parse({ taskTimeoutMs: 30_000 }).taskTimeoutMs).toBe(30_000);
  });
});
