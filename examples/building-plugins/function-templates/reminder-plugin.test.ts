import { Runtime } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { ReminderPlugin } from './reminder-plugin.js';

const logger = pino({ level: 'silent' });

describe('ReminderPlugin', () => {
  it('renders its function template from an executor [claim:plugin-template-names] [claim:plugin-function-templates] [claim:liq-function-allowed] [claim:liq-define-template]', async () => {
    const model = new ScriptedModelProvider({
      responses: [{ steps: [{ pluginId: 'reminder', action: 'remind' }] }],
    });
    const runtime = await Runtime.init({
      models: [model],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ReminderPlugin()],
      options: { logger },
    });
    await runtime.start();
    try {
      const task = await runtime.dispatch({
        pluginId: 'reminder',
        triggerId: 'message',
        space: 'ada',
        message: 'water the plants',
      });
      expect(task.status).toBe('completed');
      expect(task.chain.at(-1)?.message).toBe(
        'Reminder for ada: water the plants.',
      );
      expect(
        await runtime.prompts.render('reminder/reminder', {
          who: 'Grace',
          what: 'call the lab',
          when: 'at noon',
        }),
      ).toBe('Reminder for Grace: call the lab (at noon).');
    } finally {
      await runtime.stop();
    }
  });

  it('names a required variable the caller left out [claim:liq-function-strict] [claim:tsdoc-define-template-checked]', async () => {
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider({ responses: [] })],
      memory: new InMemoryMemoryProvider(),
      plugins: [new ReminderPlugin()],
      options: { logger },
    });
    await expect(
      runtime.prompts.render('reminder/reminder', { who: 'Ada' }),
    ).rejects.toMatchObject({
      code: 'WEFT_TEMPLATE_RENDER_FAILED',
      message: expect.stringContaining('undefined variable: what'),
    });
  });
});
