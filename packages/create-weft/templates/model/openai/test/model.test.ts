import { describe, expect, it } from 'vitest';
import { createModel } from '../src/model.js';

describe('createModel', () => {
  it('names the missing key instead of failing the first task', () => {
    expect(() => createModel({})).toThrow(/^OPENAI_API_KEY is not set/);
  });

  it('offers text generation when a key is set (no request is sent)', () => {
    const model = createModel({ OPENAI_API_KEY: 'sk-test' });
    expect(model.capabilities.map((capability) => capability.id)).toContain('text-generation');
  });
});
