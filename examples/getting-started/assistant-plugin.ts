import { Plugin, spaceId, type Executor, type Trigger } from '@weft/core';

/**
 * A first plugin. Its HTTP trigger turns `POST /messages` into a task, and its
 * executor answers the message with the text model.
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
        const text = await context.models.generateText(
          [
            {
              role: 'system',
              content: 'You are a helpful assistant. Answer in one sentence.',
            },
            { role: 'user', content: task.trigger.message ?? '' },
          ],
          { options: { temperature: 0.3 } },
        );
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
        const { user, text } = (request.body ?? {}) as {
          user?: unknown;
          text?: unknown;
        };
        if (typeof user !== 'string' || typeof text !== 'string') {
          response.status(400).json({
            error: 'send a JSON body like {"user": "ada", "text": "Hi"}',
          });
          return;
        }
        const task = await runtime.dispatch({
          pluginId: 'assistant',
          triggerId: 'message',
          space: spaceId('user', user),
          message: text,
        });
        const last = task.chain.at(-1);
        response.json({
          taskId: task.id,
          status: task.status,
          reply: last?.type === 'result' ? last.message : undefined,
          error: last?.type === 'error' ? last.error : undefined,
        });
      },
    },
  ];
}
