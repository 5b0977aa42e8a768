import { Plugin, spaceId, type Executor, type Trigger } from '@weft/core';
import { loadHistory } from './history.js';

// spaceId writes each "-" or "_" as 3 characters and refuses ids over 200: with
// "conversation-" before it, an id of 62 such characters is the longest that fits.
const CONVERSATION_ID = /^[A-Za-z0-9_-]{1,62}$/;
const MAX_MESSAGE_LENGTH = 4000;
// A UTF-16 surrogate without its pair: like a NUL character, no memory store can hold it.
const LONE_SURROGATE =
  /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** Options of {@link ConversationPlugin}. */
export interface ConversationPluginOptions {
  /** Id of the model provider that writes the replies. */
  writerProvider: string;
  /**
   * How many of the conversation's latest tasks the writer is shown, as exchanges; a task
   * that ended without a reply shows nothing but still counts. Default 10.
   */
  historyTurns?: number;
}

/**
 * A chat assistant: `POST /conversations/:id/messages` adds a message to a
 * conversation, and the `answer` executor replies with the conversation's
 * latest exchanges in view (`historyTurns` of them). Each conversation is a
 * space, so its messages run one at a time and its memories stay apart from
 * other conversations'.
 */
export class ConversationPlugin extends Plugin {
  readonly id = 'conversation';
  readonly description = 'Holds conversations with users over HTTP.';
  override readonly requiredCapabilities = ['text-generation'];
  override readonly executors: Executor[];
  override readonly triggers: Trigger[];

  constructor(options: ConversationPluginOptions) {
    super();
    const historyTurns = options.historyTurns ?? 10;
    this.executors = [
      {
        action: 'answer',
        description:
          "Replies to the user's latest message, taking the earlier messages of the conversation into account. Use it as the only step for every message.",
        async execute(task, context) {
          const history = await loadHistory(
            context.memory,
            task.space.id,
            historyTurns,
          );
          const reply = await context.models.generateText(
            [
              {
                role: 'system',
                content:
                  'You are a concise, friendly assistant. Answer in at most three sentences.',
              },
              ...history,
              { role: 'user', content: task.trigger.message ?? '' },
            ],
            { provider: options.writerProvider },
          );
          return { success: true, data: { reply }, message: reply };
        },
      },
    ];
    this.triggers = [
      {
        type: 'route',
        id: 'message',
        method: 'POST',
        path: '/conversations/:id/messages',
        async handler(request, response, runtime) {
          const id = String(request.params.id);
          const text = (request.body as { text?: unknown } | undefined)?.text;
          if (!CONVERSATION_ID.test(id)) {
            response.status(400).json({
              error: {
                status: 400,
                message:
                  'conversation id: use 1 to 62 letters, digits, "-" or "_"',
              },
            });
            return;
          }
          if (
            typeof text !== 'string' ||
            text.trim() === '' ||
            // Counted as the answer says, in characters: an emoji (two UTF-16 units) is one.
            [...text].length > MAX_MESSAGE_LENGTH
          ) {
            response.status(400).json({
              error: {
                status: 400,
                message: `text: send a JSON body {"text": "..."} of 1 to ${MAX_MESSAGE_LENGTH} characters`,
              },
            });
            return;
          }
          // No memory store can hold such a text, and dispatch would refuse it (WEFT_INVALID_EVENT):
          // refused here, the answer names the field, as the checks above do.
          if (text.includes('\0') || LONE_SURROGATE.test(text)) {
            response.status(400).json({
              error: {
                status: 400,
                message:
                  'text: remove the NUL character or the unpaired UTF-16 surrogate, which no memory store can hold',
              },
            });
            return;
          }
          const task = await runtime.dispatch({
            pluginId: 'conversation',
            triggerId: 'message',
            space: spaceId('conversation', id),
            message: text,
          });
          const answer = task.chain.find(
            (item) => item.type === 'result' && item.action === 'answer',
          );
          if (task.status !== 'completed' || answer?.message === undefined) {
            // The details (a model error, say) go to the log, not to the client.
            runtime.logger.warn(
              { taskId: task.id, status: task.status, last: task.chain.at(-1) },
              'conversation: no reply',
            );
            response.status(502).json({
              taskId: task.id,
              status: task.status,
              error: {
                status: 502,
                message: 'The assistant could not answer; try again.',
              },
            });
            return;
          }
          response.json({
            taskId: task.id,
            status: task.status,
            reply: answer.message,
          });
        },
      },
    ];
  }
}
