import { Plugin, type Executor, type Trigger } from '@weft/core';

/**
 * The agent's plugin. Its HTTP trigger turns `POST /messages` into a task in the sender's
 * space, and its executor answers the message with the text model.
 */
export class AssistantPlugin extends Plugin {
  readonly id = 'assistant';
  readonly description = 'Answers messages sent over HTTP.';
  override readonly requiredCapabilities = ['text-generation'];

  override readonly executors: Executor[] = [
    {
      action: 'reply',
      description: "Writes a short, friendly answer to the user's message.",
      async execute(task, context) {
        const text = await context.models.generateText([
          { role: 'system', content: 'You are a helpful assistant. Answer in one sentence.' },
          { role: 'user', content: task.trigger.message ?? '' },
        ]);
        return { success: true, data: { reply: text }, message: text };
      },
    },
  ];

  override readonly triggers: Trigger[] = [
    {
      type: 'route',
      id: 'message',
      method: 'POST',
      path: '/messages',
      async handler(request, response, runtime) {
        const { user, text } = (request.body ?? {}) as { user?: unknown; text?: unknown };
        if (typeof user !== 'string' || user === '' || typeof text !== 'string' || text === '') {
          response.status(400).json({
            error: 'body: needs "user" and "text" strings; send {"user": "ada", "text": "Hi"}',
          });
          return;
        }
        const task = await runtime.dispatch({
          pluginId: 'assistant',
          triggerId: 'message',
          space: `user-${user}`,
          message: text,
        });
        const last = task.chain.at(-1);
        response.json({
          taskId: task.id,
          status: task.status,
          reply: last?.type === 'result' ? last.message : undefined,
        });
      },
    },
  ];
}
