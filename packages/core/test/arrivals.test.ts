/**
 * The task the runtime builds for a dispatched event, before the scheduler has it: "How a task
 * runs" says it is `queued`, and that its chain starts with the trigger item.
 */
import { describe, expect, it } from 'vitest';
import { newTask } from '../src/runtime/arrivals.js';

describe('a new task', () => {
  it('is queued, has stored nothing yet, and its chain starts with the trigger item [claim:task-built-with-trigger-item]', () => {
    const task = newTask(
      't-1',
      { id: 'room-1' },
      {
        pluginId: 'chat',
        triggerId: 'message',
        message: 'hello',
        data: { user: 7 },
      },
    );
    expect(task.status).toBe('queued');
    expect(task.recorded).toEqual({ trigger: false, chain: false });
    expect(task.steps).toEqual([]);
    expect(task.chain).toEqual([task.trigger]);
    expect(task.trigger).toMatchObject({
      type: 'trigger',
      pluginId: 'chat',
      action: 'message',
      message: 'hello',
      data: { user: 7 },
    });
  });
});
