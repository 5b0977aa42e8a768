/**
 * The TSDoc of text.ts (hover text for the provider's code): what `toJsonb` returns and throws
 * for each kind of value, checked without a server.
 */
import { describe, expect, it } from 'vitest';
import { toJsonb, unstorableText } from '../src/text.js';

describe('TSDoc of toJsonb', () => {
  it('returns undefined for a value with no JSON form: undefined, a function, a symbol', () => {
    for (const value of [undefined, () => 1, Symbol('s')]) expect(toJsonb(value)).toBeUndefined();
    expect(toJsonb({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
  });

  it("throws JSON.stringify's TypeError for a BigInt or a circular structure", () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    expect(() => toJsonb({ n: 1n })).toThrow(TypeError);
    expect(() => toJsonb(circular)).toThrow(TypeError);
  });

  it('throws an Error naming the key when a string or key holds text PostgreSQL cannot store', () => {
    expect(() => toJsonb({ text: 'a\0b' })).toThrow('the string at key "text" contains a NUL');
    expect(() => toJsonb({ ['k\uD800']: 1 })).toThrow('a key contains a lone UTF-16 surrogate');
    expect(() => toJsonb('\uDC00')).toThrow(/^the string contains a lone UTF-16 surrogate/);
  });
});

describe('TSDoc of unstorableText', () => {
  it('is undefined for text PostgreSQL stores unchanged, a surrogate pair included', () => {
    expect(unstorableText('room 😀 ok')).toBeUndefined();
    expect(unstorableText('a\0')).toMatch(/NUL/);
  });
});
