import { describe, expect, it } from 'vitest';
import { createModel } from '../src/model.js';

describe('createModel', () => {
  it('offers text generation without a key', () => {
    const model = createModel({});
    expect(model.capabilities.map((capability) => capability.id)).toContain('text-generation');
  });
});
