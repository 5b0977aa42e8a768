import { describe, expect, it } from 'vitest';
import { createModel } from '../src/model.js';

describe('createModel', () => {
  it('needs no key and offers text generation (no request is sent)', () => {
    const model = createModel({});
    expect(model.capabilities.map((capability) => capability.id)).toContain('text-generation');
  });
});
