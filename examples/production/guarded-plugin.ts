import { Plugin, type Executor } from '@weft/core';

/**
 * An executor with a side effect worth guarding: it erases a conversation. The
 * planner offers every executor of every plugin to every task, so a chat
 * message that says "forget everything" can lead the model to plan this step.
 * The executor therefore checks where the task came from before it acts, and
 * refuses tasks that did not start from the operators' own trigger.
 */
export class AdminPlugin extends Plugin {
  readonly id = 'admin';
  readonly description = 'Maintenance actions for operators.';

  override readonly executors: Executor[] = [
    {
      action: 'erase-conversation',
      description:
        'Deletes every memory of the conversation named in the request.',
      async execute(task, context) {
        if (
          task.trigger.pluginId !== 'admin' ||
          !task.space.id.startsWith('ops-')
        ) {
          return {
            success: false,
            error: `refused: erase-conversation runs only for operator tasks, not for a task of ${task.trigger.pluginId} in space ${task.space.id}`,
          };
        }
        const conversation = String(
          (task.trigger.data as { conversation?: unknown })?.conversation,
        );
        const erased = await context.memory.provider.clear(
          `conversation-${conversation}`,
        );
        return {
          success: true,
          data: { erased },
          message: `erased ${erased} memories`,
        };
      },
    },
  ];
}
