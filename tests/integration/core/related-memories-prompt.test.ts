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
  it('shows an earlier task once, with what was asked, done and answered [claim:task-planner-sees-earlier-tasks] [claim:sp-entry-format] [claim:wp-related-entries] [claim:liq-planning-prompt]', async () => {
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

  it('limits the rendering to options.relatedMemoryChars [claim:task-planner-memory-limits]', async () => {
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
