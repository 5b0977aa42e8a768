import { defineTemplate, Plugin, type Executor } from '@weft/core';

/** The variables of the reminder template; `when` may be left out. */
interface ReminderVariables {
  who: string;
  what: string;
  when?: string;
}

/**
 * Writes reminders. Its template is a function of typed variables rather than
 * Liquid source, so the compiler checks each variable it reads.
 */
export class ReminderPlugin extends Plugin {
  readonly id = 'reminder';
  readonly description = 'Writes a reminder for someone.';

  override readonly templates = {
    // `who` and `what` are required: rendering without one fails, naming it.
    reminder: defineTemplate<ReminderVariables>(
      ['who', 'what'],
      ({ who, what, when }) =>
        `Reminder for ${who}: ${what}${when === undefined ? '' : ` (${when})`}.`,
    ),
  };

  override readonly executors: Executor[] = [
    {
      action: 'remind',
      description: 'Writes a reminder of the message for the user.',
      execute: async (task, context) => ({
        success: true,
        message: await context.render('reminder', {
          who: task.space.id,
          what: task.trigger.message ?? '',
        }),
      }),
    },
  ];
}
