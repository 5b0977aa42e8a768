import { Plugin, spaceId, type Executor, type Trigger } from '@weft/core';

/**
 * The agent's plugin. Its HTTP trigger turns `POST /messages` into a task in
 * the sender's space, and its executor answers the message with the text model.
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
        if (!isText(user) || !isText(text)) {
          response.status(400).json({
            error:
              'body: needs "user" and "text" strings; send {"user": "ada", "text": "Hi"}',
          });
          return;
        }
        const task = await runtime.dispatch({
          pluginId: 'assistant',
          triggerId: 'message',
          // spaceId encodes the user's id, so two users never share a space,
          // whatever characters their ids contain.
          space: spaceId('user', user),
          message: text,
        });
        const last = task.chain.at(-1);
        if (task.status !== 'completed' || last?.type !== 'result') {
          // An executor marks an error written for the user with `expose: true`:
          // the user can act on it, so it is shown.
          const failure = task.chain.findLast((item) => item.type === 'error');
          if (failure?.expose === true) {
            response.status(422).json({
              taskId: task.id,
              status: task.status,
              error: failure.error,
            });
            return;
          }
          // Any other error can name hosts, paths or keys. The runtime logged it
          // under the task's id; the client gets only that id.
          response.status(500).json({
            taskId: task.id,
            status: task.status,
            error:
              'The agent could not answer. The server log has the details under this taskId.',
          });
          return;
        }
        response.json({
          taskId: task.id,
          status: task.status,
          reply: last.message,
          // The message was stored when the task started; the reply is stored
          // with the task's chain, and later tasks see it only if that worked.
          ...(task.recorded.chain
            ? {}
            : {
                warning:
                  'This reply may not have been saved, so the agent may not remember it in later messages.',
              }),
        });
      },
    },
  ];
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value !== '';
}
