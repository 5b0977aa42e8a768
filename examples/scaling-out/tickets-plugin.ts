import { setTimeout as sleep } from 'node:timers/promises';
import { Plugin, type Executor, type Trigger } from '@weft/core';

/** A ticket number in a path: short, and safe inside a space id. */
const TICKET = /^[A-Za-z0-9-]{1,64}$/;
/** The longest message a webhook may send, in characters. */
const MAX_TEXT = 4_000;

/**
 * Answers support tickets. `POST /tickets/:ticket/messages` answers 202 as soon as PostgreSQL has
 * recorded the task, and `GET /tickets/:ticket/answers` lists the ticket's answers from the
 * shared memory, so any instance shows what every instance did.
 */
export class TicketsPlugin extends Plugin {
  readonly id = 'support';
  readonly description = 'Answers support tickets.';
  override readonly executors: readonly Executor[];
  override readonly triggers: readonly Trigger[];

  /**
   * @param settings.instance - Names this instance in the answers it writes.
   * @param settings.workMs - How long answering takes, standing in for a slow model call.
   */
  constructor(settings: { instance: string; workMs: number }) {
    super();
    this.executors = [
      {
        action: 'answer',
        description: 'Answers the ticket’s latest message.',
        async execute(task, context) {
          context.logger.info(
            { instance: settings.instance },
            'answering the ticket',
          );
          // The task's signal ends the wait when this instance loses the space or stops.
          await sleep(settings.workMs, undefined, { signal: context.signal });
          await context.memory.store({
            space: task.space.id,
            kind: 'answer',
            content: {
              message: task.trigger.message ?? '',
              answeredBy: settings.instance,
            },
            taskId: task.id,
            metadata: {},
          });
          return { success: true, message: 'Answered.' };
        },
      },
    ];
    this.triggers = [
      {
        type: 'route',
        id: 'webhook',
        method: 'POST',
        path: '/tickets/:ticket/messages',
        async handler(request, response, runtime) {
          const ticket = String(request.params.ticket);
          const text = (request.body as { text?: unknown } | undefined)?.text;
          if (
            !TICKET.test(ticket) ||
            typeof text !== 'string' ||
            text === '' ||
            text.length > MAX_TEXT
          ) {
            response.status(400).json({
              error: `send {"text": "..."} (at most ${MAX_TEXT} characters) to /tickets/<letters, digits or ->/messages`,
            });
            return;
          }
          const { taskId } = await runtime.accept({
            pluginId: 'support',
            triggerId: 'webhook',
            space: `ticket-${ticket}`,
            message: text,
          });
          response.status(202).json({ taskId });
        },
      },
      {
        type: 'route',
        id: 'answers',
        method: 'GET',
        path: '/tickets/:ticket/answers',
        async handler(request, response, runtime) {
          const ticket = String(request.params.ticket);
          if (!TICKET.test(ticket)) {
            response
              .status(400)
              .json({ error: 'a ticket is letters, digits or -' });
            return;
          }
          const answers = await runtime.memory.query({
            space: `ticket-${ticket}`,
            kind: 'answer',
            order: 'asc',
            limit: 100,
          });
          response.json(
            answers.map((answer) => ({
              taskId: answer.taskId,
              ...(answer.content as object),
            })),
          );
        },
      },
    ];
  }
}
