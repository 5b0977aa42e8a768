import { Plugin, Runtime, Scheduler, type Executor } from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { onTicketMessage, teamHistory, teamTickets } from './support-spaces.js';

class SupportPlugin extends Plugin {
  readonly id = 'support';
  readonly description = 'Answers support tickets.';
  override readonly executors: Executor[] = [
    {
      action: 'answer',
      description: 'Answers the customer.',
      execute: async () => ({ success: true }),
    },
  ];
}

describe('spaces', () => {
  it('show related memories to the planner and scope memory queries [claim:sp-example] [claim:sp-own-space]', async () => {
    const model = new ScriptedModelProvider({ fallback: { steps: [] } });
    const memory = new InMemoryMemoryProvider();
    const runtime = await Runtime.init({
      models: [model],
      memory,
      plugins: [new SupportPlugin()],
      options: { logger: pino({ level: 'silent' }) },
    });
    await runtime.start();
    try {
      await runtime.memory.store({
        space: 'support-billing-kb',
        kind: 'fact',
        content: 'Refunds take 5 working days.',
        metadata: {},
      });
      await runtime.memory.store({
        space: 'support-sales-kb',
        kind: 'fact',
        content: 'Sales secret',
        metadata: {},
      });
      // A team whose name holds the separator stays a team of its own.
      await runtime.memory.store({
        space: 'support-billing_2dkb-kb',
        kind: 'fact',
        content: 'Another team posing as the billing kb',
        metadata: {},
      });

      await onTicketMessage(runtime, 'billing', 1042, 'Where is my refund?');
      const planningPrompt = model.requests[0]!.at(-1)!.content;
      expect(planningPrompt).toContain(
        'Space: support-billing-ticket-1042 (Support ticket 1042 of the billing team)',
      );
      expect(planningPrompt).toContain(
        'space support-billing-kb, fact: "Refunds take 5 working days."',
      );
      expect(planningPrompt).not.toContain('Sales secret');
      expect(planningPrompt).not.toContain('posing');

      await onTicketMessage(runtime, 'billing', 1043, 'Invoice is wrong');
      // Another ticket of the same team sees the kb, not ticket 1042.
      const otherTicketPrompt = model.requests[1]!.at(-1)!.content;
      expect(otherTicketPrompt).toContain('Refunds take 5 working days.');
      expect(otherTicketPrompt).not.toContain('Where is my refund?');
      expect(otherTicketPrompt).not.toContain('support-billing-ticket-1042');
      expect(
        (await teamTickets(runtime.memory, 'billing')).map((m) => m.space),
      ).toEqual(['support-billing-ticket-1043', 'support-billing-ticket-1042']);
      const history = await teamHistory(runtime.memory, 'billing');
      expect(new Set(history.map((m) => m.space))).toEqual(
        new Set([
          'support-billing-kb',
          'support-billing-ticket-1042',
          'support-billing-ticket-1043',
        ]),
      );

      // A ticket's next message sees its own earlier one.
      await onTicketMessage(runtime, 'billing', 1042, 'Any news?');
      expect(model.requests[2]!.at(-1)!.content).toContain(
        'space support-billing-ticket-1042, trigger support/ticket-message: Where is my refund?',
      );
    } finally {
      await runtime.stop();
    }
  });

  it('run the tasks of one space one at a time and other spaces in parallel [claim:task-lanes-per-space] [claim:sp-scheduler]', async () => {
    const scheduler = new Scheduler({ concurrency: 4 });
    scheduler.start();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`start ${name}`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`end ${name}`);
    };
    await Promise.all([
      scheduler.schedule('ticket-1', task('1a', 30)),
      scheduler.schedule('ticket-1', task('1b', 10)),
      scheduler.schedule('ticket-2', task('2a', 10)),
    ]);
    await scheduler.stop();
    expect(log).toEqual([
      'start 1a',
      'start 2a',
      'end 2a',
      'end 1a',
      'start 1b',
      'end 1b',
    ]);
  });

  it('reject an invalid id with status 400 [claim:trig-space-rule] [claim:sp-dispatch-400]', async () => {
    const runtime = await Runtime.init({
      models: [new ScriptedModelProvider()],
      memory: new InMemoryMemoryProvider(),
      plugins: [new SupportPlugin()],
      options: { logger: pino({ level: 'silent' }) },
    });
    await expect(
      runtime.dispatch({
        pluginId: 'support',
        triggerId: 't',
        space: 'support billing',
      }),
    ).rejects.toMatchObject({ status: 400, code: 'WEFT_INVALID_SPACE' });
  });
});
