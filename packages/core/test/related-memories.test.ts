import type { Memory } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { renderRelatedMemories } from '../src/memory/render-related.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 9, minute));

function trigger(taskId: string, minute: number, message: string, data?: unknown): Memory {
  return {
    id: `${taskId}-trigger`,
    space: 'chat-room-1-user-2',
    kind: 'trigger',
    taskId,
    content: { pluginId: 'chat', action: 'message', message, data },
    metadata: {},
    createdAt: at(minute),
  };
}

function chain(taskId: string, minute: number, status: string, last?: object): Memory {
  const first = { type: 'trigger', pluginId: 'chat', action: 'message', message: 'x' };
  return {
    id: `${taskId}-chain`,
    space: 'chat-room-1-user-2',
    kind: 'chain',
    taskId,
    content: {
      status,
      steps: [
        { pluginId: 'weather', action: 'lookup', reason: 'needs the forecast' },
        { pluginId: 'chat', action: 'reply' },
      ],
      chain: last ? [first, last] : [first],
    },
    metadata: {},
    createdAt: at(minute),
  };
}

const wide = { maxEntries: 10, maxChars: 4000 };

describe('renderRelatedMemories', () => {
  it('writes a failed outcome without its error text when failureReasons is false [claim:tsdoc-render-related-failure-reasons]', () => {
    const failed = chain('t1', 2, 'failed', {
      type: 'error',
      pluginId: 'chat',
      action: 'reply',
      error: 'provider failed: key sk-live-123',
    });
    const memories = [failed, trigger('t1', 1, 'Hi')];
    expect(renderRelatedMemories(memories, wide)).toContain(
      'Outcome: failed; chat/reply failed: provider failed: key sk-live-123',
    );
    const hidden = renderRelatedMemories(memories, { ...wide, failureReasons: false });
    expect(hidden).toContain('  Outcome: failed; chat/reply failed');
    expect(hidden).not.toContain('sk-live-123');
  });

  it('shows the result of a step results names when a later item followed it, and not when it was the outcome or failed [claim:tsdoc-render-related-results]', () => {
    const replied = chain('t1', 2, 'completed', {
      type: 'result',
      pluginId: 'after',
      action: 'note',
      data: { noted: true },
    });
    // The reply came before the last item: the outcome alone would hide it.
    (replied.content as { chain: unknown[] }).chain.splice(1, 0, {
      type: 'result',
      pluginId: 'chat',
      action: 'reply',
      data: { text: 'It will rain.' },
    });
    const memories = [replied, trigger('t1', 1, 'Weather?')];
    expect(renderRelatedMemories(memories, wide)).not.toContain('It will rain.');
    const shown = renderRelatedMemories(memories, { ...wide, results: ['chat/reply'] });
    expect(shown).toContain(
      '  Result: chat/reply returned {"text":"It will rain."}\n  Outcome: completed; after/note returned {"noted":true}',
    );
    // A reply that is the outcome is not listed twice, and a failed one is not a result.
    const last = chain('t2', 4, 'completed', {
      type: 'result',
      pluginId: 'chat',
      action: 'reply',
      data: { text: 'Sunny.' },
    });
    const failed = chain('t3', 6, 'failed', { type: 'error', pluginId: 'core', action: 'timeout' });
    (failed.content as { chain: unknown[] }).chain.splice(1, 0, {
      type: 'error',
      pluginId: 'chat',
      action: 'reply',
      error: 'provider down',
    });
    const others = renderRelatedMemories([failed, last], { ...wide, results: ['chat/reply'] });
    expect(others).not.toContain('Result:');
    expect(others.match(/Sunny\./g)).toHaveLength(1);
  });

  it('renders one entry per task, merging trigger and chain, newest first [claim:task-planner-sees-earlier-tasks] [claim:sp-entry-format] [claim:sp-other-memories] [claim:tsdoc-render-related-merge] [claim:wp-planning-prompt] [claim:wp-related-entries]', () => {
    const rainy = chain('t1', 2, 'completed', {
      type: 'result',
      pluginId: 'chat',
      action: 'reply',
      message: 'It will rain.',
      data: { sent: true },
    });
    // What a step before the last returned is not shown: only the outcome is.
    (rainy.content as { chain: unknown[] }).chain.splice(1, 0, {
      type: 'result',
      pluginId: 'weather',
      action: 'lookup',
      data: { forecast: 'rain, 12 degrees' },
    });
    const memories = [
      chain('t2', 6, 'failed', {
        type: 'error',
        pluginId: 'weather',
        action: 'lookup',
        error: 'upstream\ntimed out',
      }),
      trigger('t2', 5, 'And tomorrow?'),
      {
        id: 'n1',
        space: 'chat-room-1',
        kind: 'note',
        content: { likes: 'tea' },
        metadata: {},
        createdAt: at(4),
      },
      rainy,
      trigger('t1', 1, "What's the weather?", { room: '1' }),
    ];
    expect(renderRelatedMemories(memories, wide)).not.toContain('12 degrees');
    expect(renderRelatedMemories(memories, wide)).toBe(
      [
        '- 2026-11-23 09:05 UTC, space chat-room-1-user-2, trigger chat/message: And tomorrow?',
        '  Steps: weather/lookup, chat/reply',
        '  Outcome: failed; weather/lookup failed: upstream timed out',
        '- 2026-11-23 09:04 UTC, space chat-room-1, note: {"likes":"tea"}',
        "- 2026-11-23 09:01 UTC, space chat-room-1-user-2, trigger chat/message: What's the weather?",
        '  Data: {"room":"1"}',
        '  Steps: weather/lookup, chat/reply',
        '  Outcome: completed; chat/reply: It will rain.',
      ].join('\n'),
    );
  });

  it("renders a ticket's earlier task and a knowledge-base note as the spaces page shows them [claim:sp-entry-sample]", () => {
    const ticket = 'support-billing-ticket-1042';
    const asked = {
      type: 'trigger',
      pluginId: 'email',
      action: 'received',
      message: 'Refund still missing',
    };
    const memories: Memory[] = [
      {
        id: 'c',
        space: ticket,
        kind: 'chain',
        taskId: 't',
        content: {
          status: 'completed',
          steps: [
            { pluginId: 'billing', action: 'lookup' },
            { pluginId: 'email', action: 'reply' },
          ],
          chain: [
            asked,
            { type: 'result', pluginId: 'billing', action: 'lookup', data: { refunded: true } },
            {
              type: 'result',
              pluginId: 'email',
              action: 'reply',
              message: 'Refund issued on 21 November.',
            },
          ],
        },
        metadata: {},
        createdAt: at(6),
      },
      {
        id: 'tr',
        space: ticket,
        kind: 'trigger',
        taskId: 't',
        content: { pluginId: 'email', action: 'received', message: 'Refund still missing' },
        metadata: {},
        createdAt: at(5),
      },
      {
        id: 'n',
        space: 'support-billing-kb',
        kind: 'note',
        content: 'Refunds take 3 to 5 working days.',
        metadata: {},
        createdAt: new Date(Date.UTC(2026, 10, 23, 8, 40)),
      },
    ];
    expect(renderRelatedMemories(memories, wide)).toBe(
      [
        '- 2026-11-23 09:05 UTC, space support-billing-ticket-1042, trigger email/received: Refund still missing',
        '  Steps: billing/lookup, email/reply',
        '  Outcome: completed; email/reply: Refund issued on 21 November.',
        '- 2026-11-23 08:40 UTC, space support-billing-kb, note: "Refunds take 3 to 5 working days."',
      ].join('\n'),
    );
  });

  it('says when a task has no recorded outcome, and reads the trigger from a lone chain [claim:sp-entry-unrecorded]', () => {
    const onlyChain = chain('t3', 8, 'completed', {
      type: 'result',
      pluginId: 'chat',
      action: 'reply',
      data: { sent: true },
    });
    expect(renderRelatedMemories([onlyChain, trigger('t4', 7, 'Hello')], wide)).toBe(
      [
        '- 2026-11-23 09:08 UTC, space chat-room-1-user-2, trigger chat/message: x',
        '  Steps: weather/lookup, chat/reply',
        '  Outcome: completed; chat/reply returned {"sent":true}',
        '- 2026-11-23 09:07 UTC, space chat-room-1-user-2, trigger chat/message: Hello',
        '  Outcome: not recorded (the task may still be running).',
      ].join('\n'),
    );
  });

  it("shows a plugin's memory that names a task as an entry of its own, apart from that task's [claim:sp-other-memories] [claim:sp-entry-format] [claim:index-planner-history]", () => {
    const note: Memory = {
      id: 'n2',
      space: 'chat-room-1-user-2',
      kind: 'note',
      taskId: 't5',
      content: { text: 'Refunds take 3 to 5 working days.' },
      metadata: {},
      createdAt: at(10),
    };
    expect(
      renderRelatedMemories(
        [chain('t5', 11, 'completed'), note, trigger('t5', 9, 'Note this')],
        wide,
      ),
    ).toBe(
      [
        '- 2026-11-23 09:09 UTC, space chat-room-1-user-2, trigger chat/message: Note this',
        '  Steps: weather/lookup, chat/reply',
        '  Outcome: completed',
        '- 2026-11-23 09:10 UTC, space chat-room-1-user-2, note: {"text":"Refunds take 3 to 5 working days."}',
      ].join('\n'),
    );
  });

  it('keeps the newest entries within the character budget and counts the rest when the line fits [claim:task-planner-memory-limits] [claim:sp-limits] [claim:tsdoc-render-related-budget] [claim:tsdoc-render-related-note]', () => {
    const memories = [1, 2, 3, 4].flatMap((n) => [
      chain(`t${n}`, n * 2 + 1, 'completed'),
      trigger(`t${n}`, n * 2, `question ${n}`),
    ]);
    memories.reverse(); // newest first, as the manager gives them
    const entries = renderRelatedMemories(memories, wide).split('\n- ');
    expect(entries).toHaveLength(4);
    const twoEntries = entries.slice(0, 2).join('\n- ').length;
    const budget = twoEntries + 40;
    const text = renderRelatedMemories(memories, { maxEntries: 10, maxChars: budget });
    expect(text).toBe(
      `${entries.slice(0, 2).join('\n- ')}\n(2 older entries left out for length.)`,
    );
    expect(text.length).toBeLessThanOrEqual(budget);
    expect(text).toContain('question 4');
    expect(text).not.toContain('question 2');
    // No room for the count: the entries stay, and the line is left out rather than cut.
    const tight = renderRelatedMemories(memories, { maxEntries: 10, maxChars: twoEntries + 5 });
    expect(tight).toBe(entries.slice(0, 2).join('\n- '));
    // At the edge: entries and the line that fill the budget exactly are kept, one more
    // character is one too many.
    const note = '(2 older entries left out for length.)';
    const exact = { maxEntries: 10, maxChars: twoEntries + 1 + note.length };
    expect(renderRelatedMemories(memories, exact)).toBe(
      `${entries.slice(0, 2).join('\n- ')}\n${note}`,
    );
    const short = { maxEntries: 10, maxChars: twoEntries + note.length };
    expect(renderRelatedMemories(memories, short)).toBe(entries.slice(0, 2).join('\n- '));
    const entriesExact = { maxEntries: 10, maxChars: twoEntries };
    expect(renderRelatedMemories(memories, entriesExact)).toBe(entries.slice(0, 2).join('\n- '));
    const entriesShort = { maxEntries: 10, maxChars: twoEntries - 1 };
    expect(renderRelatedMemories(memories, entriesShort)).not.toContain('question 3');
  });

  it('cuts a single entry longer than the budget, and honours the entry limit [claim:task-planner-memory-limits] [claim:sp-limits] [claim:tsdoc-render-related-cut] [claim:tsdoc-render-related-none]', () => {
    const long = trigger('t1', 1, 'word '.repeat(100));
    const text = renderRelatedMemories([long], { maxEntries: 10, maxChars: 50 });
    expect(text).toHaveLength(50);
    expect(text.endsWith('…')).toBe(true);
    const two = [trigger('t2', 2, 'second'), trigger('t1', 1, 'first')];
    expect(renderRelatedMemories(two, { maxEntries: 1, maxChars: 4000 })).not.toContain('first');
    expect(renderRelatedMemories([], wide)).toBe('None.');
    expect(renderRelatedMemories(two, { maxEntries: 0, maxChars: 4000 })).toBe('None.');
  });

  it('cuts long messages, data, outcomes and other memories so one entry cannot take the whole budget [claim:sp-entry-field-cuts]', () => {
    const text = renderRelatedMemories(
      [trigger('t1', 1, 'a'.repeat(1000), 'b'.repeat(1000))],
      wide,
    );
    expect(text).toContain(`: ${'a'.repeat(299)}…\n`);
    expect(text).toContain(`Data: "${'b'.repeat(198)}…\n`);
    const answered = chain('t2', 2, 'completed', {
      type: 'result',
      pluginId: 'chat',
      action: 'reply',
      message: 'c'.repeat(1000),
    });
    const note: Memory = {
      id: 'n1',
      space: 'support-billing-kb',
      kind: 'note',
      content: 'd'.repeat(1000),
      metadata: {},
      createdAt: at(3),
    };
    const lines = renderRelatedMemories([note, answered], wide).split('\n');
    // The outcome, `chat/reply: ccc…`, is cut at 300 characters after "Outcome: completed; ".
    const outcome = lines.find((line) => line.startsWith('  Outcome: completed; ')) ?? '';
    expect(outcome.slice('  Outcome: completed; '.length)).toBe(`chat/reply: ${'c'.repeat(287)}…`);
    // The note's content is shown as JSON, `"ddd…`, cut at 300 characters.
    const noteLine = lines.find((line) => line.includes(', note: ')) ?? '';
    expect(noteLine.slice(noteLine.indexOf(', note: ') + ', note: '.length)).toBe(
      `"${'d'.repeat(298)}…`,
    );
  });

  it('shows a Data line only when the trigger had data: not for none or null [claim:sp-entry-format]', () => {
    for (const data of [undefined, null]) {
      expect(renderRelatedMemories([trigger('t1', 1, 'hello', data)], wide)).not.toContain('Data:');
    }
    expect(renderRelatedMemories([trigger('t1', 1, 'hello', { n: 0 })], wide)).toContain(
      '\n  Data: {"n":0}\n',
    );
  });

  it('never cuts an emoji in half: a cut text has no lone surrogate [claim:sp-entry-field-cuts]', () => {
    const loneSurrogate = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
    // 298 letters and then emoji: the 299th and 300th code units are one emoji.
    const message = `${'a'.repeat(298)}${'😀'.repeat(10)}`;
    const text = renderRelatedMemories([trigger('t1', 1, message, '😀'.repeat(200))], wide);
    expect(text).toContain(`: ${'a'.repeat(298)}…\n`);
    expect(text).not.toMatch(loneSurrogate);
    // The budget cut of a newest entry longer than the whole budget keeps pairs whole too.
    const note: Memory = {
      id: 'n1',
      space: 's',
      kind: 'note',
      content: '😀'.repeat(200),
      metadata: {},
      createdAt: at(2),
    };
    for (const maxChars of [50, 51, 52]) {
      const short = renderRelatedMemories([note], { maxEntries: 10, maxChars });
      expect(short.length).toBeLessThanOrEqual(maxChars);
      expect(short.endsWith('…')).toBe(true);
      expect(short).not.toMatch(loneSurrogate);
    }
  });
});
