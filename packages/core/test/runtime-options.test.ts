/** The defaults the runtime's options schema applies, where pages state them as figures. */
import { describe, expect, it } from 'vitest';
import { optionsSchema } from '../src/runtime/options-schema.js';

describe('runtime options', () => {
  it('give each task 120 s (taskTimeoutMs) unless configured [claim:mpo-keep-below-task-timeout] [claim:oai-ollama-timeouts]', () => {
    expect(optionsSchema.parse({}).taskTimeoutMs).toBe(120_000);
    expect(optionsSchema.parse({ taskTimeoutMs: 30_000 }).taskTimeoutMs).toBe(30_000);
  });

  it('default to the figures "How a task runs" gives [claim:task-timeout-default] [claim:task-planner-memory-limits] [claim:task-cancel-rejects-waiting] [claim:task-cost-retries] [claim:task-max-steps] [claim:task-review-policy-always] [claim:sp-limits]', () => {
    expect(optionsSchema.parse({})).toMatchObject({
      taskTimeoutMs: 120_000,
      relatedMemories: 10,
      relatedMemoryChars: 4_000,
      shutdown: 'drain',
      shutdownTimeoutMs: 30_000,
      getObjectRetries: 2,
      maxSteps: 10,
      pipelineReview: 'always',
      reviewFinalStep: false,
      scheduler: { concurrency: 4, maxQueueSize: 1_000 },
    });
  });
});
