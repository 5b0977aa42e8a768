/**
 * The related memories in a real planning prompt; how they are rendered is tested with the core,
 * in packages/core/test/related-memories.test.ts.
 */
import type { Runtime } from '@weft/core';
import { InMemoryMemoryProvider } from '@weft/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { makeRuntime, plan, planner } from './fixtures.js';

const runtimes: Runtime[] = [];
afterEach(async () => {
  await Promise.all(runtimes.splice(0).map((runtime) => runtime.stop()));
});

async function started(config: Parameters<typeof makeRuntime>[0]): ReturnType<typeof makeRuntime> {
  const built = await makeRuntime(config);
  runtimes.push(built.runtime);
  await built.runtime.start();
  return built;
}

describe('the planning prompt', () => {
  it('shows an earlier task once, with what was asked, done and answered [claim:task-planner-sees-earlier-tasks] [claim:sp-entry-format] [claim:wp-related-entries] [claim:liq-planning-prompt] [claim:index-planner-history]', async () => {
    const { runtime, model } = await started({
      responses: { responses: [plan(['echo', 'reply']), plan()] },
      options: { pipelineReview: 'never' },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's', message: 'hi' });
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: 's',
      message: 'again',
    });
    const prompt = model.requests[1]?.[1]?.content ?? '';
    const related = prompt.slice(prompt.indexOf('## Earlier tasks and related memories'));
    expect(related).toMatch(
      /^## Earlier tasks and related memories, newest first\n- \d{4}-\d\d-\d\d \d\d:\d\d UTC, space s, trigger echo\/message: hi\n {2}Steps: echo\/reply\n {2}Outcome: completed; echo\/reply returned \{"action":"reply"\}\n\n/,
    );
    expect(related.match(/trigger echo\/message/g)).toHaveLength(1);
  });

  it("shows the space, the trigger, every executor, the earlier tasks and a plugin's own memory as entries, then asks for at most maxSteps steps [claim:liq-planning-prompt] [claim:liq-related-text]", async () => {
    const memory = new InMemoryMemoryProvider();
    const { runtime, model } = await started({
      memory,
      responses: { responses: [plan(['echo', 'reply']), plan()] },
      options: { pipelineReview: 'never', maxSteps: 4 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's', message: 'hi' });
    // A plugin's own memory of the space, stored between the two tasks, as the notes plugin does.
    await runtime.memory.store({ space: 's', kind: 'note', content: 'likes tea', metadata: {} });
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: { id: 's', description: 'a test room' },
      message: 'again',
    });
    const prompt = model.requests[1]?.[1]?.content ?? '';
    expect(prompt).toContain('Space: s (a test room)\nTrigger: echo/message\nMessage: again\n');
    expect(prompt).toContain('- pluginId "echo", action "reply": Runs the reply action.\n');
    const related = prompt.slice(prompt.indexOf('## Earlier tasks and related memories'));
    // Newest first: the note, then the earlier task, each an entry of its own.
    expect(related).toMatch(
      /^## Earlier tasks and related memories, newest first\n- [^\n]* UTC, space s, note: "likes tea"\n- [^\n]* UTC, space s, trigger echo\/message: hi\n {2}Steps: echo\/reply\n {2}Outcome: completed/,
    );
    expect(prompt).toContain('Answer with at most 4 steps, using only the executors listed.');
  });

  it('shows none of the history with options.relatedMemories 0, and the newest entries up to it otherwise [claim:cfg-related-history]', async () => {
    const shown = async (relatedMemories: number): Promise<string[]> => {
      const memory = new InMemoryMemoryProvider();
      for (const n of [1, 2, 3]) {
        await memory.store({ space: 's', kind: 'note', content: `fact ${n}`, metadata: {} });
      }
      const { runtime, model } = await started({
        memory,
        responses: planner(),
        options: { relatedMemories },
      });
      await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
      return (model.requests[0]?.[1]?.content ?? '').match(/fact \d/g) ?? [];
    };
    expect(await shown(0)).toEqual([]);
    expect(await shown(2)).toEqual(['fact 3', 'fact 2']);
  });

  it('counts an earlier task, its trigger and its chain, as one entry of relatedMemories, and takes entries from the related spaces too [claim:cfg-related-history]', async () => {
    const memory = new InMemoryMemoryProvider();
    await memory.store({ space: 'elsewhere', kind: 'note', content: 'fact 0', metadata: {} });
    await memory.store({ space: 'other', kind: 'note', content: 'fact 1', metadata: {} });
    const { runtime, model } = await started({
      memory,
      responses: { responses: [plan(['echo', 'reply']), plan()] },
      options: { pipelineReview: 'never', relatedMemories: 2 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's', message: 'hi' });
    await runtime.dispatch({
      pluginId: 'echo',
      triggerId: 'message',
      space: { id: 's', relatedSpaces: ['other'] },
      message: 'again',
    });
    const prompt = model.requests[1]?.[1]?.content ?? '';
    const related = prompt.slice(prompt.indexOf('## Earlier tasks and related memories'));
    // Two entries: the earlier task (its trigger and chain, two memories) and the related
    // space's note; the space that is not related shows nothing.
    expect(related.match(/^- /gm)).toHaveLength(2);
    expect(related).toContain('space s, trigger echo/message: hi');
    expect(related).toContain('space other, note: "fact 1"');
    expect(related).not.toContain('fact 0');
  });

  it('limits the rendering to options.relatedMemoryChars [claim:task-planner-memory-limits] [claim:liq-related-text] [claim:sp-limits] [claim:wp-planning-prompt]', async () => {
    const memory = new InMemoryMemoryProvider();
    for (const n of [1, 2, 3]) {
      await memory.store({ space: 's', kind: 'note', content: `fact ${n}`, metadata: {} });
    }
    const { runtime, model } = await started({
      memory,
      responses: planner(),
      options: { relatedMemoryChars: 100 },
    });
    await runtime.dispatch({ pluginId: 'echo', triggerId: 'message', space: 's' });
    const prompt = model.requests[0]?.[1]?.content ?? '';
    expect(prompt).toContain('note: "fact 3"');
    expect(prompt).not.toContain('fact 1');
  });
});
