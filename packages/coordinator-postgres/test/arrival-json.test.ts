/**
 * The one-line reason `admit` gives for an arrival with no JSON form: the field, the path to the
 * value at fault and what is wrong with it.
 */
import { describe, expect, it } from 'vitest';
import { describeUnwritable } from '../src/arrival-json.js';

describe('describeUnwritable', () => {
  it('names the path of a cycle, quoting keys that are not plain names', () => {
    const inner: Record<string, unknown> = {};
    const data = { 'a b': { 'line\nbreak': inner } };
    inner.loop = data;
    expect(describeUnwritable({ taskId: 't', data })).toBe(
      '"data" holds a circular reference: data["a b"]["line\\nbreak"].loop refers back to an object that contains it',
    );
  });

  it('does not take an object met twice for a cycle', () => {
    const shared = { ok: true };
    expect(describeUnwritable({ data: { one: shared, two: [shared, { n: 1n }] } })).toBe(
      '"data" holds a BigInt at data.two[1].n, which JSON cannot write',
    );
    const twice = { first: shared, second: { again: shared } } as Record<string, unknown>;
    (twice.second as Record<string, unknown>).back = twice;
    expect(describeUnwritable({ data: twice })).toBe(
      '"data" holds a circular reference: data.second.back refers back to an object that contains it',
    );
  });

  it('says a field is a BigInt, and that a toJSON() threw without quoting it', () => {
    expect(describeUnwritable({ message: 5n })).toBe(
      '"message" is a BigInt, which JSON cannot write',
    );
    const throwing = {
      toJSON(): never {
        throw new Error('first line\nsecond line');
      },
    };
    expect(describeUnwritable({ data: { at: throwing } })).toBe(
      '"data" could not be written as JSON: a toJSON() method or a getter in it threw (the error is the cause)',
    );
  });

  it('cuts a path longer than 200 characters, giving its length', () => {
    const key = 'k'.repeat(300);
    const data: Record<string, unknown> = {};
    data[key] = data;
    const reason = describeUnwritable({ data });
    expect(reason).toContain(`data.${'k'.repeat(195)}… (305 characters) refers back`);
    expect(reason).not.toContain('\n');
  });
});
