import { spaceId, WeftError } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { startedRuntime } from './fixtures.js';

const SPACE_RULE = /^[A-Za-z0-9][\w.:-]{0,199}$/;

/** Ids that try to pass for another room or user, or to smuggle a separator or a wildcard. */
const ADVERSARIAL = [
  '42',
  '4',
  'r42',
  'r42-user-alice',
  'r42-user',
  'user',
  '-',
  '_',
  '_2d',
  'a_b',
  'a-b',
  '*',
  'r4*',
  'café',
  '🙂',
  'a b',
  'a/b',
  ':',
  '.',
];

describe('spaceId', () => {
  it('keeps ASCII letters, digits, "." and ":" and joins the parts with "-" [claim:sp-encoding] [claim:sp-encoding-bytes]', () => {
    expect(spaceId('chat', 'room', '42', 'user', 'ada')).toBe('chat-room-42-user-ada');
    // A letter outside ASCII is escaped like any other character.
    expect(spaceId('chat', 'É7')).toBe('chat-_c3_897');
    expect(spaceId('repo', 'weft.v2:main')).toBe('repo-weft.v2:main');
  });

  it('escapes every other character as "_" and the hex of its UTF-8 bytes [claim:sp-encoding] [claim:sp-encoding-bytes]', () => {
    expect(spaceId('chat', 'r42-user-alice')).toBe('chat-r42_2duser_2dalice');
    expect(spaceId('x', 'a_b', 'café', 'a/b*')).toBe('x-a_5fb-caf_c3_a9-a_2fb_2a');
    // Two digits even for a byte under 0x10: with one, "\nb" would read as the byte 0xab.
    expect(spaceId('x', '\nb')).toBe('x-_0ab');
    expect(spaceId('x', '\t')).toBe('x-_09');
  });

  it('is injective: no two lists of adversarial parts give the same id [claim:trig-spaceid-escapes] [claim:sp-encoding] [claim:tut-space-per-conversation]', () => {
    const seen = new Map<string, string>();
    for (const room of ADVERSARIAL) {
      for (const user of ADVERSARIAL) {
        const id = spaceId('chat', 'room', room, 'user', user);
        expect(id).toMatch(SPACE_RULE);
        const pair = JSON.stringify([room, user]);
        expect(seen.get(id) ?? pair).toBe(pair);
        seen.set(id, pair);
      }
    }
    expect(seen.size).toBe(ADVERSARIAL.length ** 2);
  });

  it("builds patterns that match a room's spaces and no other room's [claim:sp-patterns]", async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.init();
    for (const room of ADVERSARIAL) {
      for (const user of ['alice', 'bob', 'user-x']) {
        await memory.store({
          space: spaceId('chat', 'room', room, 'user', user),
          kind: 'trigger',
          content: { room, user },
          metadata: {},
        });
      }
    }
    for (const room of ADVERSARIAL) {
      const found = await memory.query({
        spacePatterns: [
          spaceId('chat', 'room', room),
          `${spaceId('chat', 'room', room, 'user')}-*`,
        ],
      });
      expect(found).toHaveLength(3);
      expect(new Set(found.map((entry) => (entry.content as { room: string }).room))).toEqual(
        new Set([room]),
      );
    }
  });

  it('matches a subtree with "<id>-*" but not the id itself, and a pattern without the separator matches a sibling too [claim:sp-pattern-subtree] [claim:sp-pattern-separator]', async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.init();
    const spaces = [
      'support-billing-kb',
      'support-billing-kb-faq',
      'support-billing-kbx',
      'support-billing-ticket-1042',
    ];
    for (const space of spaces) {
      await memory.store({ space, kind: 'note', content: space, metadata: {} });
    }
    const matched = async (patterns: string[]) =>
      (await memory.query({ spacePatterns: patterns })).map((found) => found.space).sort();
    expect(await matched(['support-billing-kb-*'])).toEqual(['support-billing-kb-faq']);
    expect(await matched(['support-billing-kb', 'support-billing-kb-*'])).toEqual([
      'support-billing-kb',
      'support-billing-kb-faq',
    ]);
    expect(await matched(['support-billing-kb*'])).toEqual([
      'support-billing-kb',
      'support-billing-kb-faq',
      'support-billing-kbx',
    ]);
  });

  it('reads the relatedSpaces examples of the Space TSDoc: "<room>-*" is the room\'s subtree, the room id the room, and "<room>*" a sibling room too [claim:tsdoc-core-related-spaces-separator]', async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.init();
    for (const space of ['chat-room-42', 'chat-room-42-user-7', 'chat-room-420']) {
      await memory.store({ space, kind: 'note', content: space, metadata: {} });
    }
    const matched = async (patterns: string[]) =>
      (await memory.query({ spacePatterns: patterns })).map((found) => found.space).sort();
    expect(await matched(['chat-room-42-*'])).toEqual(['chat-room-42-user-7']);
    expect(await matched(['chat-room-42'])).toEqual(['chat-room-42']);
    expect(await matched(['chat-room-42*'])).toEqual([
      'chat-room-42',
      'chat-room-42-user-7',
      'chat-room-420',
    ]);
  });

  it.each([
    [[], /give at least one part/],
    [['chat', ''], /part 2 must be a non-empty string, got an empty string/],
    [['chat', 7 as unknown as string], /part 2 must be a non-empty string, got number/],
    [['_private'], /must start with an ASCII letter or digit/],
    [['été', 'x'], /must start with an ASCII letter or digit, but its first part "été" does not/],
    [['chat', 'x'.repeat(200)], /encoded id is 205 characters, over the limit of 200/],
    [['chat', '-'.repeat(66)], /encoded id is 203 characters, over the limit of 200/],
  ])('rejects %j with WEFT_INVALID_SPACE and status 400', (parts, problem) => {
    let caught: unknown;
    try {
      spaceId(...parts);
    } catch (error) {
      caught = error;
    }
    expect(WeftError.is(caught, 'WEFT_INVALID_SPACE')).toBe(true);
    expect((caught as WeftError).status).toBe(400);
    expect((caught as Error).message).toMatch(problem);
  });

  it('refuses a part holding a lone surrogate, which would share the id of a part holding U+FFFD [claim:sp-encoding] [claim:sp-throws] [claim:tsdoc-space-id-lone-surrogate]', () => {
    // JSON from a client may carry "\ud800"; its UTF-8 form would be the bytes of U+FFFD.
    for (const broken of ['\uD800', 'a\uDC00b', 'x\uDBFF']) {
      let caught: unknown;
      try {
        spaceId('chat', 'room', broken);
      } catch (error) {
        caught = error;
      }
      expect(caught).toMatchObject({ code: 'WEFT_INVALID_SPACE', status: 400 });
      expect((caught as Error).message).toContain(
        'part 3 holds a UTF-16 surrogate without its pair',
      );
    }
    expect(spaceId('chat', 'room', '\uFFFD')).toBe('chat-room-_ef_bf_bd');
    // A well-formed pair is one character, encoded by its four UTF-8 bytes.
    expect(spaceId('chat', 'room', '\uD83D\uDE42')).toBe('chat-room-_f0_9f_99_82');
  });

  it('throws WEFT_INVALID_SPACE with status 400 for no part, an empty part, a part that is not a string, a lone surrogate, a bad start or a long id [claim:sp-throws]', () => {
    const attempts: (() => string)[] = [
      () => spaceId(),
      () => spaceId('support', ''),
      () => spaceId('support', 1042 as unknown as string),
      () => spaceId('support', '\uD800'),
      () => spaceId('-team'),
      // A letter or digit outside ASCII is escaped, so the id would start with "_".
      () => spaceId('été'),
      () => spaceId('\u0663'),
      () => spaceId('support', 'x'.repeat(200)),
    ];
    for (const attempt of attempts) {
      let thrown: unknown;
      try {
        attempt();
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(WeftError);
      expect(thrown).toMatchObject({ code: 'WEFT_INVALID_SPACE', status: 400 });
    }
    expect(spaceId('support', 'x'.repeat(190))).toHaveLength(198);
  });
});

describe('the space ids dispatch takes', () => {
  it('are 1 to 200 letters, digits, "-", "_", "." and ":", starting with a letter or digit; others get 400 WEFT_INVALID_SPACE [claim:sp-id-rule] [claim:trig-space-rule] [claim:errors-invalid-space-first-character]', async () => {
    const { runtime } = await startedRuntime({ responses: { fallback: { steps: [] } } });
    const dispatch = (space: string) =>
      runtime.dispatch({ pluginId: 'echo', triggerId: 'manual', space });
    for (const space of ['a', '7', 'Ab-c_d.e:f', `a${'b'.repeat(199)}`]) {
      expect((await dispatch(space)).space.id).toBe(space);
    }
    for (const space of [
      '',
      '-a',
      '_a',
      '.a',
      ':a',
      'a b',
      'a/b',
      'a*',
      'café',
      `a${'b'.repeat(200)}`,
    ]) {
      await expect(dispatch(space)).rejects.toMatchObject({
        status: 400,
        code: 'WEFT_INVALID_SPACE',
      });
    }
  });
});
