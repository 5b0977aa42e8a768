import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { CalendarPlugin, type Booking } from './calendar-plugin.js';

/** Runs one message through a runtime whose model answers from a script. */
async function run(
  bookings: Booking[],
  script: ConstructorParameters<typeof ScriptedModelProvider>[0],
) {
  const model = new ScriptedModelProvider(script);
  const runtime = await Runtime.init({
    models: [model],
    memory: new InMemoryMemoryProvider(),
    plugins: [new CalendarPlugin(bookings)],
    options: { logger: pino({ level: 'silent' }), pipelineReview: 'never' },
  });
  await runtime.start();
  try {
    const task = await runtime.dispatch({
      pluginId: 'calendar',
      triggerId: 'test',
      space: 'calendar-ada',
      message: 'Book 60 minutes with Grace on 2025-03-04 to plan the release',
    });
    return { task, model };
  } finally {
    await runtime.stop();
  }
}

const plan = {
  steps: [
    { pluginId: 'calendar', action: 'find-slot' },
    { pluginId: 'calendar', action: 'book' },
  ],
};
const request = { date: '2025-03-04', minutes: 60, title: 'Release planning' };

describe('CalendarPlugin executors', () => {
  it('books the first free slot after existing meetings [claim:exec-review-never-script]', async () => {
    const bookings: Booking[] = [
      { date: '2025-03-04', start: '09:00', minutes: 90, title: 'Stand-up' },
    ];
    const { task, model } = await run(bookings, {
      responses: [plan, request],
    });

    expect(task.status).toBe('completed');
    expect(task.chain.map((item) => `${item.type}:${item.action}`)).toEqual([
      'trigger:test',
      'result:find-slot',
      'result:book',
    ]);
    expect(bookings.at(-1)).toEqual({ ...request, start: '10:30' });
    // The plan and find-slot's getObject: with pipelineReview 'never', no review.
    expect(model.requests).toHaveLength(2);
  });

  it('records a full day as an error item, and the next step sees it [claim:exec-result-or-error]', async () => {
    const fullDay: Booking[] = [
      { date: '2025-03-04', start: '09:00', minutes: 480, title: 'Offsite' },
    ];
    const { task } = await run(fullDay, { responses: [plan, request] });

    expect(task.status).toBe('failed');
    expect(task.chain[1]).toMatchObject({
      type: 'error',
      action: 'find-slot',
      error: 'no free 60-minute slot on 2025-03-04',
    });
    expect(task.chain[2]).toMatchObject({
      type: 'error',
      error: 'no slot to book: run "find-slot" first',
    });
    expect(fullDay).toHaveLength(1);
  });

  it('asks the model again when its answer does not fit the schema [claim:exec-getobject-retry]', async () => {
    const { task, model } = await run([], {
      responses: [plan, { date: 'next Tuesday', minutes: 60 }, request],
    });

    expect(task.status).toBe('completed');
    const retry = model.requests[2]?.at(-1)?.content ?? '';
    expect(retry).toContain(
      'Your previous answer was not valid for the schema SlotRequest',
    );
    // The validation error names both problems: the missing title and the date's pattern.
    const error = retry.split('\n\n')[0] ?? '';
    expect(error).toContain('title');
    expect(error).toContain('date');
    // The second answer is accepted: no request follows it, and the slot is booked.
    expect(model.requests).toHaveLength(3);
    expect(task.chain.at(-1)?.data).toEqual({ ...request, start: '09:00' });
  });
});
