/**
 * The memory contract's input checks (memory-input.ts): what each accepts and returns, and the
 * code and message of each refusal, without a store.
 */
import { describe, expect, it } from 'vitest';
import {
  checkClearSpace,
  checkMemoryId,
  checkMemoryPatch,
  checkMemoryQuery,
  checkNewMemory,
  DEFAULT_MEMORY_QUERY_LIMIT,
  matchesSpacePattern,
  MAX_MEMORY_JSON_DEPTH,
  MAX_MEMORY_JSON_LENGTH,
  MAX_MEMORY_KEY_LENGTH,
  MAX_QUERY_SPACE_PATTERNS,
  memoryNotFound,
  WeftError,
} from '../src/index.js';
import { unstorableText } from '../src/internal.js';

const OWNER = 'TestStore "t"';

function refusal(action: () => unknown): WeftError<string> {
  try {
    action();
  } catch (error) {
    if (WeftError.is<string>(error)) return error;
    throw error;
  }
  throw new Error('expected the check to refuse');
}

describe('checkNewMemory', () => {
  it('returns the fields with content and metadata as JSON text, null taskId and metadata as absent [claim:mpo-check-new-memory] [claim:tsdoc-core-check-new-memory] [claim:errors-memory-null-none]', () => {
    expect(
      checkNewMemory(
        { space: 'room', kind: 'note', content: { when: new Date(0), gone: undefined } },
        OWNER,
      ),
    ).toEqual({
      space: 'room',
      kind: 'note',
      taskId: undefined,
      content: '{"when":"1970-01-01T00:00:00.000Z"}',
      metadata: '{}',
    });
    expect(
      checkNewMemory(
        { space: 'room', kind: 'note', content: null, taskId: null, metadata: null },
        OWNER,
      ),
    ).toMatchObject({ taskId: undefined, content: 'null', metadata: '{}' });
    expect(
      checkNewMemory(
        { space: 'r', kind: 'k', content: 1, taskId: 't-1', metadata: { a: [1] } },
        OWNER,
      ),
    ).toMatchObject({ taskId: 't-1', metadata: '{"a":[1]}' });
  });

  it('refuses with WEFT_MEMORY_INVALID naming the field that breaks a rule [claim:mpo-check-new-memory] [claim:mpo-unstorable] [claim:pg-memory-invalid] [claim:sqlite-memory-invalid] [claim:tsdoc-core-check-new-memory]', () => {
    const valid = { space: 'room', kind: 'note', content: 1, metadata: {} };
    const cases: [unknown, string][] = [
      [null, 'store() needs a memory object, got null'],
      [{ ...valid, space: '' }, `a memory's "space" must be a non-empty string, got ""`],
      [{ ...valid, kind: 5 }, `a memory's "kind" must be a non-empty string (space "room"), got 5`],
      [{ ...valid, taskId: 5 }, `a memory's "taskId" must be a string when given`],
      [
        { ...valid, content: undefined },
        `the "content" of a memory of kind "note" in space "room" has no JSON form: it is undefined`,
      ],
      [
        { ...valid, content: { n: 1n } },
        `the "content" of a memory of kind "note" in space "room" has no JSON form`,
      ],
      [
        { ...valid, metadata: [] },
        `the "metadata" of a memory of kind "note" in space "room" must be a plain object, got an array`,
      ],
      [{ ...valid, space: 'a\0' }, `a memory's "space" contains a NUL character`],
      [
        { ...valid, content: { text: 'a\uD800' } },
        'the string at key "text" contains a lone UTF-16 surrogate',
      ],
      [{ ...valid, content: { ['k\0']: 1 } }, 'a key contains a NUL character'],
    ];
    for (const [memory, message] of cases) {
      const error = refusal(() => checkNewMemory(memory, OWNER));
      expect(error.code, message).toBe('WEFT_MEMORY_INVALID');
      expect(error.message.startsWith(`${OWNER}: `), error.message).toBe(true);
      expect(error.message).toContain(message);
    }
  });

  it('calls a valid Date given as metadata a Date, and only an invalid one an invalid Date', () => {
    const refusal = (metadata: unknown) => () =>
      checkNewMemory({ space: 's', kind: 'k', content: 1, metadata }, 'Store');
    expect(refusal(new Date(0))).toThrow(
      '"metadata" of a memory of kind "k" in space "s" must be a plain object, got a Date',
    );
    expect(refusal(new Date(NaN))).toThrow('must be a plain object, got an invalid Date');
  });

  it('names the path to a circular reference or a BigInt in a one-line message, in content and metadata, in store and update [claim:mpo-no-json-form-path]', () => {
    const cycle: Record<string, unknown> = { list: [1, { x: {} }] };
    ((cycle.list as unknown[])[1] as { x: Record<string, unknown> }).x.back = cycle;
    const cases: [() => unknown, string][] = [
      [
        () => checkNewMemory({ space: 's', kind: 'k', content: cycle }, OWNER),
        'the "content" of a memory of kind "k" in space "s" has no JSON form: it holds a circular reference: content.list[1].x.back refers back to an object that contains it',
      ],
      [
        () => checkNewMemory({ space: 's', kind: 'k', content: 1, metadata: { at: cycle } }, OWNER),
        'the "metadata" of a memory of kind "k" in space "s" has no JSON form: it holds a circular reference: metadata.at.list[1].x.back refers back to an object that contains it',
      ],
      [
        () => checkMemoryPatch('m-1', { content: { ['a b']: [cycle] } }, OWNER),
        'the new "content" of memory "m-1" has no JSON form: it holds a circular reference: content["a b"][0].list[1].x.back refers back to an object that contains it',
      ],
      [
        () => checkMemoryPatch('m-1', { metadata: { n: [1, 2n] } }, OWNER),
        'the new "metadata" of memory "m-1" has no JSON form: it holds a BigInt at metadata.n[1], which JSON cannot write',
      ],
      [
        () => checkNewMemory({ space: 's', kind: 'k', content: 5n }, OWNER),
        'the "content" of a memory of kind "k" in space "s" has no JSON form: it is a BigInt, which JSON cannot write',
      ],
    ];
    for (const [action, message] of cases) {
      const error = refusal(action);
      expect(error.code).toBe('WEFT_MEMORY_INVALID');
      expect(error.message).toBe(`${OWNER}: ${message} [WEFT_MEMORY_INVALID]`);
      expect(error.message).not.toContain('\n');
      expect(error.cause).toBeInstanceOf(TypeError);
    }
    // An object met twice, not in a cycle, is written twice and stored.
    const shared = { n: 1 };
    expect(
      checkNewMemory({ space: 's', kind: 'k', content: { one: shared, two: [shared] } }, OWNER)
        .content,
    ).toBe('{"one":{"n":1},"two":[{"n":1}]}');
  });

  it('keeps the error of JSON.stringify as the cause of a refusal', () => {
    const circular: Record<string, unknown> = {};
    circular.self = circular;
    const error = refusal(() =>
      checkNewMemory({ space: 'r', kind: 'k', content: circular, metadata: {} }, OWNER),
    );
    expect(error.cause).toBeInstanceOf(TypeError);
  });
});

describe('metadata with no JSON form', () => {
  it('is refused with WEFT_MEMORY_INVALID naming the metadata, in a new memory and in a patch [claim:errors-memory-invalid-contract]', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    for (const metadata of [{ amount: 10n }, cycle]) {
      const stored = refusal(() =>
        checkNewMemory({ space: 's', kind: 'k', content: 1, metadata }, OWNER),
      );
      expect(stored.code).toBe('WEFT_MEMORY_INVALID');
      expect(stored.message).toContain(
        'the "metadata" of a memory of kind "k" in space "s" has no JSON form',
      );
      const patched = refusal(() => checkMemoryPatch('m-1', { metadata }, OWNER));
      expect(patched.code).toBe('WEFT_MEMORY_INVALID');
      expect(patched.message).toContain('the new "metadata" of memory "m-1" has no JSON form');
    }
  });
});

describe('MAX_MEMORY_KEY_LENGTH', () => {
  it('bounds the space, kind and taskId of a memory to 500 UTF-16 code units [claim:mpo-max-key-length] [claim:pg-memory-invalid] [claim:sqlite-memory-invalid] [claim:tsdoc-core-check-new-memory]', () => {
    expect(MAX_MEMORY_KEY_LENGTH).toBe(500);
    const longest = 'x'.repeat(500);
    expect(
      checkNewMemory({ space: longest, kind: longest, taskId: longest, content: 1 }, OWNER),
    ).toMatchObject({ space: longest, kind: longest, taskId: longest });
    for (const field of ['space', 'kind', 'taskId']) {
      const memory = { space: 's', kind: 'k', content: 1, [field]: 'x'.repeat(501) };
      const error = refusal(() => checkNewMemory(memory, OWNER));
      expect(error.code).toBe('WEFT_MEMORY_INVALID');
      expect(error.message).toMatch(
        new RegExp(`a memory's "${field}".* may be at most 500 characters long, got 501`),
      );
    }
  });
});

describe('metadata with a toJSON method', () => {
  it('refuses metadata whose toJSON() gives something other than an object, in store and update [claim:mpo-check-new-memory] [claim:mpo-check-patch] [claim:pg-memory-invalid] [claim:sqlite-memory-invalid]', () => {
    for (const made of ['x', [1, 2], null, 5]) {
      const metadata = { toJSON: () => made } as unknown as Record<string, unknown>;
      const stored = refusal(() =>
        checkNewMemory({ space: 's', kind: 'k', content: 1, metadata }, OWNER),
      );
      expect(stored.code).toBe('WEFT_MEMORY_INVALID');
      expect(stored.message).toMatch(
        /the "metadata" of .* must have a JSON object as its JSON form/,
      );
      const patched = refusal(() => checkMemoryPatch('m-1', { metadata }, OWNER));
      expect(patched.message).toMatch(/the new "metadata" of memory "m-1" must have a JSON object/);
    }
    // One that gives an object is kept as that object.
    const dated = { toJSON: () => ({ at: 1 }) } as unknown as Record<string, unknown>;
    expect(
      checkNewMemory({ space: 's', kind: 'k', content: 1, metadata: dated }, OWNER).metadata,
    ).toBe('{"at":1}');
  });
});

describe('spacePatterns with holes', () => {
  it('refuses a hole in spacePatterns as it refuses undefined, naming its index [claim:mpo-check-query]', () => {
    // eslint-disable-next-line no-sparse-arrays
    const sparse = ['a*', , 'b*'] as string[];
    const error = refusal(() => checkMemoryQuery({ spacePatterns: sparse }, OWNER));
    expect(error.code).toBe('WEFT_MEMORY_INVALID_QUERY');
    expect(error.message).toContain(
      'query option "spacePatterns[1]" must be a string, got undefined',
    );
    expect(() => checkMemoryQuery({ spacePatterns: new Array<string>(2) }, OWNER)).toThrow(
      /"spacePatterns\[0\]" must be a string/,
    );
  });
});

describe('MAX_MEMORY_JSON_LENGTH', () => {
  it('bounds the JSON text of content and of metadata to 16 Mi UTF-16 code units, in store and update [claim:mpo-max-json-length] [claim:tsdoc-core-check-new-memory] [claim:pg-memory-invalid] [claim:sqlite-memory-invalid]', () => {
    expect(MAX_MEMORY_JSON_LENGTH).toBe(16 * 1024 * 1024);
    // A string's JSON text is the string and two quotes.
    const longest = 'x'.repeat(MAX_MEMORY_JSON_LENGTH - 2);
    expect(checkNewMemory({ space: 's', kind: 'k', content: longest }, OWNER).content).toHaveLength(
      MAX_MEMORY_JSON_LENGTH,
    );
    const over = `${longest}x`;
    const stored = refusal(() => checkNewMemory({ space: 's', kind: 'k', content: over }, OWNER));
    expect(stored.code).toBe('WEFT_MEMORY_INVALID');
    expect(stored.message).toContain(
      `the "content" of a memory of kind "k" in space "s" is ${MAX_MEMORY_JSON_LENGTH + 1} characters long as JSON, over the limit of ${MAX_MEMORY_JSON_LENGTH}`,
    );
    const metadata = refusal(() =>
      checkNewMemory({ space: 's', kind: 'k', content: 1, metadata: { text: over } }, OWNER),
    );
    expect(metadata.message).toMatch(/the "metadata" of .* over the limit/);
    const patched = refusal(() => checkMemoryPatch('m-1', { content: over }, OWNER));
    expect(patched.code).toBe('WEFT_MEMORY_INVALID');
    expect(patched.message).toMatch(/the new "content" of memory "m-1" is \d+ characters long/);
  });
});

describe('MAX_MEMORY_JSON_DEPTH', () => {
  /** A value nested `depth` levels deep: an object or array at each level, around a number. */
  const nested = (depth: number, array = false): unknown => {
    let value: unknown = 1;
    for (let level = 0; level < depth; level += 1) value = array ? [value] : { a: value };
    return value;
  };
  const store = (content: unknown, metadata?: unknown) => () =>
    checkNewMemory({ space: 's', kind: 'k', content, metadata }, OWNER);
  const tooDeep = (what: string, path: string) =>
    `${OWNER}: ${what} nests objects and arrays deeper than the limit of 100 levels (MAX_MEMORY_JSON_DEPTH): ${path} is at level 101; store flatter data`;

  it('stores content and metadata nested exactly 100 levels deep and refuses one level more, naming the limit and where [claim:mpo-max-json-depth] [claim:mpo-check-new-memory] [claim:tsdoc-core-check-new-memory] [claim:pg-memory-invalid] [claim:sqlite-memory-invalid]', () => {
    expect(MAX_MEMORY_JSON_DEPTH).toBe(100);
    expect(store(nested(100))().content).toBe(JSON.stringify(nested(100)));
    expect(store(nested(100, true))().content).toBe(JSON.stringify(nested(100, true)));
    // The metadata's own object is level 1.
    expect(store(1, { a: nested(99) })().metadata).toBe(JSON.stringify({ a: nested(99) }));
    const content = refusal(store(nested(101)));
    expect(content.code).toBe('WEFT_MEMORY_INVALID');
    expect(content.message).toContain(
      tooDeep(
        'the "content" of a memory of kind "k" in space "s"',
        `content${'.a'.repeat(96)}.… (207 characters)`,
      ),
    );
    expect(refusal(store(nested(101, true))).message).toContain(
      `content${'[0]'.repeat(64)}[… (307 characters) is at level 101`,
    );
    expect(refusal(store(1, { a: nested(100) })).message).toContain(
      tooDeep(
        'the "metadata" of a memory of kind "k" in space "s"',
        `metadata${'.a'.repeat(96)}… (208 characters)`,
      ),
    );
    const patched = refusal(() =>
      checkMemoryPatch('m-1', { content: [{ list: nested(99) }] }, OWNER),
    );
    expect(patched.code).toBe('WEFT_MEMORY_INVALID');
    expect(patched.message).toContain(
      tooDeep(
        'the new "content" of memory "m-1"',
        `content[0].list${'.a'.repeat(92)}.… (211 characters)`,
      ),
    );
    // Short paths are shown whole.
    const wide = { ['a b']: nested(100) };
    expect(refusal(store(wide)).message).toContain('content["a b"].a.a');
  });

  it('counts the levels of what toJSON() gives, as JSON.stringify writes it [claim:mpo-max-json-depth]', () => {
    const deepInside = { toJSON: () => nested(101) };
    expect(refusal(store(deepInside)).message).toContain('is at level 101');
    const flatInside = { toJSON: () => 'flat', deeper: nested(200) };
    expect(store(flatInside)().content).toBe('"flat"');
  });

  it('gives the same answer however deep the caller is in the stack, and refuses far deeper content with the same message [claim:mpo-max-json-depth]', () => {
    const accepts = (depth: number): boolean => {
      try {
        store(nested(depth))();
        return true;
      } catch (error) {
        if (WeftError.is(error, 'WEFT_MEMORY_INVALID')) return false;
        throw error;
      }
    };
    const deepest = (): number => {
      let low = 1;
      let high = 100_000;
      while (low < high) {
        const middle = Math.ceil((low + high) / 2);
        if (accepts(middle)) low = middle;
        else high = middle - 1;
      }
      return low;
    };
    const fromDeeper = (frames: number): number =>
      frames === 0 ? deepest() : fromDeeper(frames - 1) + 0;
    expect(deepest()).toBe(100);
    expect(fromDeeper(300)).toBe(100);
    expect(fromDeeper(3000)).toBe(100);
    // Far past what JSON.stringify could follow: refused for its depth, not for the stack.
    const far = refusal(store(nested(100_000)));
    expect(far.message).toContain('deeper than the limit of 100 levels (MAX_MEMORY_JSON_DEPTH)');
    expect(far.cause).toBeUndefined();
  });

  it('refuses content within the limit as having no JSON form when the caller has left too little stack to write it [claim:mpo-max-json-depth-stack]', () => {
    const deep = nested(100);
    const attempt = (content: unknown): 'stored' | 'no stack' | 'other' => {
      try {
        store(content)();
        return 'stored';
      } catch (error) {
        return WeftError.is(error, 'WEFT_MEMORY_INVALID') &&
          error.message.includes('has no JSON form: Maximum call stack size exceeded')
          ? 'no stack'
          : 'other';
      }
    };
    // Calls `then` from `frames` small frames deeper than here; 'overflow' when they use up the stack.
    const down = (frames: number, then: () => string): string =>
      frames === 0 ? then() : down(frames - 1, then);
    const from = (frames: number, content: unknown): string => {
      try {
        return down(frames, () => attempt(content));
      } catch {
        return 'overflow';
      }
    };
    // Measured twice: the first pass warms `down` up, and optimised frames are smaller.
    let deepest = 0;
    for (let pass = 0; pass < 2; pass += 1) {
      deepest = 0;
      while (from(deepest + 100, [1]) === 'stored') deepest += 100;
    }
    // From the deepest frame that still stores a flat value, come back up until the deep one is stored.
    const frames: { flat: string; deep: string }[] = [];
    for (let depth = deepest + 500; depth >= 0; depth -= 5) {
      const tried = { flat: from(depth, [1]), deep: from(depth, deep) };
      frames.push(tried);
      if (tried.deep === 'stored') break;
    }
    expect(frames.at(-1)?.deep).toBe('stored');
    expect(frames.some((frame) => frame.flat === 'stored' && frame.deep === 'no stack')).toBe(true);
  });
});

describe('the length of a memory key', () => {
  it('counts UTF-16 code units, an emoji two [claim:errors-memory-key-length]', () => {
    const emoji = '🧵';
    expect(emoji.length).toBe(2);
    expect(checkNewMemory({ space: emoji.repeat(250), kind: 'k', content: 1 }, OWNER).space).toBe(
      emoji.repeat(250),
    );
    const error = refusal(() =>
      checkNewMemory({ space: `${emoji.repeat(250)}x`, kind: 'k', content: 1 }, OWNER),
    );
    expect(error.code).toBe('WEFT_MEMORY_INVALID');
    expect(error.message).toContain('may be at most 500 characters long, got 501');
  });
});

describe('checkMemoryPatch', () => {
  it('leaves out the fields a patch leaves out or gives as undefined [claim:mpo-check-patch] [claim:mpo-in-memory-refusals] [claim:tsdoc-core-check-patch]', () => {
    expect(checkMemoryPatch('m-1', {}, OWNER)).toEqual({ id: 'm-1' });
    expect(checkMemoryPatch('m-1', { content: undefined, metadata: { a: 1 } }, OWNER)).toEqual({
      id: 'm-1',
      metadata: '{"a":1}',
    });
    expect(checkMemoryPatch('m-1', { content: 'x' }, OWNER)).toEqual({
      id: 'm-1',
      content: '"x"',
    });
  });

  it('refuses undefined content in a new memory, while a patch whose content is undefined keeps the content [claim:errors-memory-patch-undefined]', () => {
    const stored = refusal(() =>
      checkNewMemory({ space: 's', kind: 'note', content: undefined }, OWNER),
    );
    expect(stored.code).toBe('WEFT_MEMORY_INVALID');
    expect(stored.message).toContain('has no JSON form');
    expect(checkMemoryPatch('m-1', { content: undefined }, OWNER)).toEqual({ id: 'm-1' });
    const patched = refusal(() => checkMemoryPatch('m-1', { content: () => 1 }, OWNER));
    expect(patched.code).toBe('WEFT_MEMORY_INVALID');
    expect(patched.message).toContain('the new "content" of memory "m-1" has no JSON form');
  });

  it('refuses an id that is not a string with WEFT_INVALID_ARGUMENT, and a bad patch, null metadata included, with WEFT_MEMORY_INVALID [claim:mpo-check-patch] [claim:tsdoc-core-check-patch-throws] [claim:errors-memory-null-none]', () => {
    expect(refusal(() => checkMemoryPatch(5, {}, OWNER)).code).toBe('WEFT_INVALID_ARGUMENT');
    const patch = refusal(() => checkMemoryPatch('m-1', null, OWNER));
    expect(patch.code).toBe('WEFT_MEMORY_INVALID');
    expect(patch.message).toContain('update() of memory "m-1" needs a patch object, got null');
    const metadata = refusal(() => checkMemoryPatch('m-1', { metadata: null }, OWNER));
    expect(metadata.message).toContain('the new "metadata" of memory "m-1" must be a plain object');
  });
});

describe('checkMemoryQuery', () => {
  it('refuses with WEFT_MEMORY_INVALID_QUERY, naming the option, options that are not an object and every option of the wrong type or value [claim:errors-memory-invalid-query]', () => {
    for (const options of [null, [], 'space']) {
      const error = refusal(() => checkMemoryQuery(options, OWNER));
      expect(error.code).toBe('WEFT_MEMORY_INVALID_QUERY');
      expect(error.message).toContain('query() needs an options object');
    }
    const wrong: [string, unknown][] = [
      ['space', 5],
      ['spacePrefix', null],
      ['kind', {}],
      ['taskId', 7],
      ['spacePatterns', 'room-*'],
      ['spacePatterns', [5]],
      ['spacePatterns', Array.from({ length: 101 }, (_, index) => `p-${index}-*`)],
      ['since', '2026-01-01'],
      ['until', new Date(Number.NaN)],
      ['limit', 0],
      ['limit', 2.5],
      ['order', 'up'],
      ['space', 'a\0b'],
      ['kind', 'k\uD800'],
    ];
    for (const [option, value] of wrong) {
      const error = refusal(() => checkMemoryQuery({ [option]: value }, OWNER));
      expect(error.code).toBe('WEFT_MEMORY_INVALID_QUERY');
      expect(error.message).toContain(`query option "${option}`);
    }
  });

  it('fills in the default limit and order, and copies the dates [claim:mpo-check-query] [claim:mpo-default-limit-constant] [claim:mpo-query-order-default]', () => {
    const since = new Date(1000);
    const checked = checkMemoryQuery({ kind: 'note', since }, OWNER);
    expect(checked).toEqual({
      kind: 'note',
      since,
      limit: DEFAULT_MEMORY_QUERY_LIMIT,
      order: 'desc',
    });
    expect(DEFAULT_MEMORY_QUERY_LIMIT).toBe(100);
    expect(checked.since).not.toBe(since);
  });

  it('refuses with WEFT_MEMORY_INVALID_QUERY naming the first option that breaks a rule [claim:mpo-check-query] [claim:tsdoc-core-check-query]', () => {
    const cases: [unknown, string][] = [
      [undefined, 'query() needs an options object, got undefined'],
      [{ limit: 0 }, 'query option "limit" must be a positive integer, got 0'],
      [{ order: 'sideways' }, 'query option "order" must be "asc" or "desc", got "sideways"'],
      [{ since: '2026-01-01' }, 'query option "since" must be a valid Date, got "2026-01-01"'],
      [
        { until: new Date(Number.NaN) },
        'query option "until" must be a valid Date, got an invalid Date',
      ],
      [{ kind: 5 }, 'query option "kind" must be a string, got 5'],
      [{ spacePatterns: 'a*' }, 'query option "spacePatterns" must be an array of strings'],
      [{ spacePatterns: ['a', 7] }, 'query option "spacePatterns[1]" must be a string, got 7'],
      [{ taskId: 'a\0' }, 'query option "taskId" contains a NUL character'],
      [{ space: 5, limit: 0 }, 'query option "space" must be a string, got 5'],
      [{ limit: null }, 'query option "limit" must be a positive integer, got null'],
      [{ order: null }, 'query option "order" must be "asc" or "desc", got null'],
    ];
    for (const [options, message] of cases) {
      const error = refusal(() => checkMemoryQuery(options, OWNER));
      expect(error.code, message).toBe('WEFT_MEMORY_INVALID_QUERY');
      expect(error.message).toContain(`${OWNER}: ${message}`);
    }
  });

  it('refuses an option query() does not have rather than leave a misspelt filter out [claim:mpo-query-unknown-option]', () => {
    for (const options of [
      { spacePattern: ['chat-*'] },
      { space: 'a', Space: 'b' },
      { spacePatterns: ['a'], spacePatern: undefined },
    ]) {
      const error = refusal(() => checkMemoryQuery(options, OWNER));
      expect(error.code).toBe('WEFT_MEMORY_INVALID_QUERY');
      const name = Object.keys(options).find((key) => !['space', 'spacePatterns'].includes(key));
      expect(error.message).toContain(
        `${OWNER}: query option "${name}" is not an option of query(); its options are space, spacePrefix, spacePatterns, kind, taskId, since, until, limit, order`,
      );
    }
    expect(checkMemoryQuery({ space: 'a', kind: undefined }, OWNER).space).toBe('a');
  });

  it('takes any positive integer as the limit, lowering one past Number.MAX_SAFE_INTEGER to it [claim:mpo-check-query]', () => {
    expect(checkMemoryQuery({ limit: 1 }, OWNER).limit).toBe(1);
    expect(checkMemoryQuery({ limit: 2 ** 53 }, OWNER).limit).toBe(Number.MAX_SAFE_INTEGER);
    expect(checkMemoryQuery({ limit: 1e300 }, OWNER).limit).toBe(Number.MAX_SAFE_INTEGER);
    for (const limit of [Number.POSITIVE_INFINITY, 0.5, -3]) {
      expect(refusal(() => checkMemoryQuery({ limit }, OWNER)).code).toBe(
        'WEFT_MEMORY_INVALID_QUERY',
      );
    }
  });

  it('takes at most MAX_QUERY_SPACE_PATTERNS patterns [claim:mpo-max-patterns]', () => {
    const patterns = (count: number) => Array.from({ length: count }, (_, index) => `p${index}*`);
    expect(MAX_QUERY_SPACE_PATTERNS).toBe(100);
    expect(checkMemoryQuery({ spacePatterns: patterns(100) }, OWNER).spacePatterns).toHaveLength(
      100,
    );
    const error = refusal(() => checkMemoryQuery({ spacePatterns: patterns(101) }, OWNER));
    expect(error.message).toContain(
      'query option "spacePatterns" may hold at most 100 patterns, got 101',
    );
  });
});

describe('checkMemoryQuery and long space filters', () => {
  it('writes each run of * as one and leaves out a prefix or pattern no kept space can match [claim:mpo-check-query-space-filters] [claim:tsdoc-core-check-query]', () => {
    const long = 'x'.repeat(MAX_MEMORY_KEY_LENGTH + 1);
    expect(checkMemoryQuery({ spacePatterns: ['a**b', '*'.repeat(60_000)] }, OWNER)).toEqual({
      spacePatterns: ['a*b', '*'],
      limit: 100,
      order: 'desc',
    });
    // 500 literal code units can still match a space of 500; 501 cannot.
    const longest = `${'x'.repeat(MAX_MEMORY_KEY_LENGTH)}*`;
    expect(checkMemoryQuery({ spacePatterns: [longest, `${long}*`] }, OWNER).spacePatterns).toEqual(
      [longest],
    );
    // The filter left out matched nothing, so the query still matches only the other space filters.
    expect(checkMemoryQuery({ space: 'room', spacePrefix: long }, OWNER)).toMatchObject({
      space: 'room',
      spacePatterns: [],
    });
    const onlyFilter = checkMemoryQuery({ spacePrefix: long }, OWNER);
    expect(onlyFilter.spacePrefix).toBeUndefined();
    expect(onlyFilter.spacePatterns).toEqual([]);
    expect(
      checkMemoryQuery({ spacePrefix: 'x'.repeat(MAX_MEMORY_KEY_LENGTH) }, OWNER),
    ).toMatchObject({ spacePrefix: 'x'.repeat(MAX_MEMORY_KEY_LENGTH) });
    expect(checkMemoryQuery({ kind: 'note' }, OWNER).spacePatterns).toBeUndefined();
  });
});

describe('checkMemoryId, checkClearSpace and memoryNotFound', () => {
  it('accept any string, and refuse anything else with WEFT_INVALID_ARGUMENT [claim:mpo-check-id] [claim:tsdoc-core-check-id]', () => {
    expect(checkMemoryId('', 'remove', OWNER)).toBe('');
    expect(checkClearSpace(undefined, OWNER)).toBeUndefined();
    expect(checkClearSpace('room', OWNER)).toBe('room');
    const id = refusal(() => checkMemoryId({}, 'remove', OWNER));
    expect(id.code).toBe('WEFT_INVALID_ARGUMENT');
    expect(id.message).toContain(`${OWNER}: remove() needs a memory id string, got an object`);
    expect(refusal(() => checkClearSpace(7, OWNER)).code).toBe('WEFT_INVALID_ARGUMENT');
  });

  it('makes WEFT_MEMORY_NOT_FOUND naming the id, linked to its section of the errors reference [claim:mpo-not-found]', () => {
    const error = memoryNotFound('m-9', OWNER);
    expect(WeftError.is(error, 'WEFT_MEMORY_NOT_FOUND')).toBe(true);
    expect(error.message).toBe(
      `${OWNER}: no memory with id "m-9"; use an id that store() or query() returned [WEFT_MEMORY_NOT_FOUND]`,
    );
    expect(error.docsUrl).toBe(
      'https://weft-ai.github.io/docs/reference/errors/#weft_memory_not_found',
    );
  });
});

describe('unstorableText', () => {
  it('is undefined for text every store keeps unchanged, a surrogate pair included [claim:tsdoc-core-unstorable]', () => {
    expect(unstorableText('room 😀 café')).toBeUndefined();
    expect(unstorableText('a\0')).toMatch(/NUL/);
    expect(unstorableText('\uDC00 alone')).toMatch(/lone UTF-16 surrogate/);
  });
});

describe('matchesSpacePattern', () => {
  it('matches * against any run of characters, a line break included, and the rest exactly [claim:mpo-matches-space-pattern]', () => {
    expect(matchesSpacePattern('user-ada', 'user-*')).toBe(true);
    expect(matchesSpacePattern('team-ada', 'user-*')).toBe(false);
    expect(matchesSpacePattern('user-ada', 'user-ada')).toBe(true);
    expect(matchesSpacePattern('user-ada', 'user')).toBe(false);
    expect(matchesSpacePattern('a\nb', 'a*b')).toBe(true);
    expect(matchesSpacePattern('ab', 'a*b*')).toBe(true);
    // The pieces may not overlap: "aba" has one "ab" and one "ba", not both around a star.
    expect(matchesSpacePattern('aba', 'ab*ba')).toBe(false);
    expect(matchesSpacePattern('abba', 'ab*ba')).toBe(true);
  });
});
