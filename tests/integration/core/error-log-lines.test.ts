/**
 * docs/reference/errors.md, "How errors look": the log line about a failed step carries the Weft
 * error's code and docsUrl next to its message, thrown or returned as text; a plain error's line
 * has its message only.
 */
import { Runtime, WeftError } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { describe, expect, it } from 'vitest';
import { capturingLogger } from '@weft-internal/test-support/capturing-logger';
import { planner, recordingExecutor, stopAfterTest, TestPlugin } from './fixtures.js';

/** Runs one task whose plan calls the executors in order, and returns its `step failed` lines. */
async function failedStepLines(
  executors: ReturnType<typeof recordingExecutor>[],
): Promise<Record<string, unknown>[]> {
  const { logger, lines } = capturingLogger('warn');
  const runtime = stopAfterTest(
    await Runtime.init({
      models: [
        new ScriptedModelProvider(
          planner(...executors.map(({ action }): [string, string] => ['work', action])),
        ),
      ],
      memory: new InMemoryMemoryProvider(),
      plugins: [new TestPlugin('work', { executors })],
      options: { logger },
    }),
  );
  await runtime.start();
  await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'log-lines' });
  return lines.filter((line) => line.msg === 'step failed');
}

describe('docs/reference/errors.md#how-errors-look', () => {
  it('logs a failed step with the code and docsUrl of the Weft error it threw [claim:obs-error-code-docsurl] [claim:errors-log-lines-code]', async () => {
    const weft = recordingExecutor('weft', () => {
      throw new WeftError('WEFT_TEMPLATE_NOT_FOUND', 'PromptRegistry: no template "greeting".');
    });
    const plain = recordingExecutor('plain', () => {
      throw new Error('disk full');
    });
    const failed = await failedStepLines([weft, plain]);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({
      code: 'WEFT_TEMPLATE_NOT_FOUND',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_template_not_found',
      error: 'PromptRegistry: no template "greeting". [WEFT_TEMPLATE_NOT_FOUND]',
    });
    expect(failed[1]).toMatchObject({ error: 'disk full' });
    expect(failed[1]).not.toHaveProperty('docsUrl');
  });

  it('logs a failure an executor returned with the code and docsUrl its Weft error text names, and a plain one without [claim:errors-log-returned-failure-code]', async () => {
    // As @weft/plugin-mcp returns a tool's error result: a failure, not a throw.
    const toolError = new WeftError(
      'WEFT_MCP_TOOL_ERROR' as never,
      'McpPlugin: tool "t" reported an error; its text is logged under error id 1.',
    );
    const returned = recordingExecutor('returned', {
      success: false,
      error: toolError.message,
    });
    const plain = recordingExecutor('plain', { success: false, error: 'no such ticket [WEFT_X' });
    const failed = await failedStepLines([returned, plain]);
    expect(failed).toHaveLength(2);
    expect(failed[0]).toMatchObject({
      code: 'WEFT_MCP_TOOL_ERROR',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_mcp_tool_error',
      error: toolError.message,
    });
    expect(failed[1]).toMatchObject({ error: 'no such ticket [WEFT_X' });
    expect(failed[1]).not.toHaveProperty('code');
    expect(failed[1]).not.toHaveProperty('docsUrl');
  });

  it('puts the code in the chain item of a failed plan and the code and docsUrl in its task failed line [claim:errors-log-lines-code]', async () => {
    const { logger, lines } = capturingLogger('warn');
    const runtime = stopAfterTest(
      await Runtime.init({
        // Never JSON, so planning fails once getObject's retries are spent.
        models: [new ScriptedModelProvider({ fallback: 'I would rather chat.' })],
        memory: new InMemoryMemoryProvider(),
        plugins: [new TestPlugin('work', { executors: [recordingExecutor('reply')] })],
        options: { logger, getObjectRetries: 0 },
      }),
    );
    await runtime.start();
    const task = await runtime.dispatch({ pluginId: 'work', triggerId: 'test', space: 'plan' });
    expect(task.status).toBe('failed');
    const item = task.chain.at(-1);
    expect(item).toMatchObject({ type: 'error', pluginId: 'core', action: 'plan' });
    expect(item?.type === 'error' ? item.error : '').toContain('[WEFT_GET_OBJECT_FAILED]');
    expect(lines.find((line) => line.msg === 'task failed')).toMatchObject({
      taskId: task.id,
      code: 'WEFT_GET_OBJECT_FAILED',
      docsUrl: 'https://weft-ai.github.io/docs/reference/errors/#weft_get_object_failed',
      error: expect.stringContaining('[WEFT_GET_OBJECT_FAILED]'),
    });
  });
});
