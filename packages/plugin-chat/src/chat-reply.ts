/**
 * The reply step every chat transport shares: the template that asks the text model for the
 * answer, the executor that runs it, and how a task without a reply is described for the log.
 * `ChatPlugin` (HTTP) and `@weft/plugin-websocket` both register these, so a message gets the
 * same answer whichever way it arrived.
 */
import type { AgentTask, Context, ExecutionContext, Executor, PluginResult } from '@weft/core';
// Data with no JSON form is named as the core's review prompt names it: it stays in the task,
// and must not make the reply step fail.
// The history is read, and a failed read logged, as the core reads it for the planning prompt.
import { errorLogFields, jsonOf, NO_JSON_FORM, randomId } from '@weft/core/internal';

/**
 * The Liquid template of the `reply` step, registered by a chat plugin under the name `reply`.
 * It is rendered with `room`, `user`, `history` (the earlier tasks of the task's space and its
 * related spaces, newest first, as the planning prompt lists them: each message and the reply
 * given, cut to the runtime's `options.relatedMemories` entries and `options.relatedMemoryChars`
 * characters; a task that ended with a failed step shows that it failed, not the error's text),
 * `message` and `chain` (what earlier steps did, one line each; a failed step without its error
 * text, which stays in the log, since the model may repeat what the prompt holds to the user).
 * @claim tsdoc-chat-reply-history
 */
export const CHAT_REPLY_TEMPLATE = `You are a helpful assistant taking part in the chat room "{{ room }}". Write the reply to the latest message of user "{{ user }}".

## The conversation so far
The earlier messages and the replies given, the most recent at the top:
{{ history }}

## The message
{{ message }}

## What was done for this message so far
{% for item in chain %}- {{ item }}
{% endfor %}
Write only the reply itself, as plain text addressed to {{ user }}: no preamble, no quotes, no JSON.`;

/**
 * Marks the executors {@link chatReplyExecutor} made, to tell a chat plugin's reply step from
 * other `reply` actions. A registered symbol, so the check holds across two installed copies of
 * this package (the websocket plugin may bring its own).
 */
const CHAT_REPLY_MARK = Symbol.for('weft.plugin-chat.reply-executor');

/**
 * The `reply` executor of a chat plugin: renders the plugin's `reply` template (register
 * {@link CHAT_REPLY_TEMPLATE} under that name) with the task's room, user and message and the
 * conversation so far (`context.memory.describeRelated`, as the planning prompt has it), and asks
 * the text model for the answer. When the memory store cannot be read, the reply is still
 * written: the history is {@link CHAT_HISTORY_UNAVAILABLE} and a warning with an `errorId` is
 * logged. Its result's `data.text` is what `findReply` reads back.
 *
 * An earlier task whose reply step was followed by another step shows that reply on a line of its
 * own. The executor knows its own step; pass `replySteps` to name the other plugins' chat reply
 * steps too (`pluginId/reply`, as {@link chatReplyPluginIds} lists the plugins), so that a task
 * answered over another transport shows its reply as well.
 *
 * @param replySteps - The other chat reply steps whose results the history shows, read each time
 *   the step runs (a plugin learns them in `init`). Default: none.
 * @returns An executor with the action `reply`.
 *
 * @example
 * ```ts
 * import { Plugin, type Executor } from '@weft/core';
 * import { CHAT_REPLY_TEMPLATE, chatReplyExecutor } from '@weft/plugin-chat';
 *
 * export class PagerChatPlugin extends Plugin {
 *   readonly id = 'pager';
 *   readonly description = 'Answers pager messages.';
 *   override readonly templates = { reply: CHAT_REPLY_TEMPLATE };
 *   override readonly executors: readonly Executor[] = [chatReplyExecutor()];
 * }
 * ```
 * @claim tsdoc-chat-reply-history-unavailable
 */
export function chatReplyExecutor(replySteps: () => readonly string[] = () => []): Executor {
  const executor: Executor = {
    action: 'reply',
    description:
      "Writes the agent's answer to the user's chat message with the text model, taking into account the conversation so far and what earlier steps found. Its text is what the user receives, so use it as the last step of every chat task.",
    execute: async (task: AgentTask, context: ExecutionContext): Promise<PluginResult> => {
      const data = (task.trigger.data ?? {}) as { room?: unknown; user?: unknown };
      const history = await readHistory(task, context, replySteps());
      const prompt = await context.render('reply', {
        room: typeof data.room === 'string' ? data.room : 'unknown',
        user: typeof data.user === 'string' ? data.user : 'unknown',
        history,
        message: task.trigger.message ?? '',
        chain: context.chain.map(describeItem),
      });
      const text = (await context.models.generateText(prompt, { signal: context.signal })).trim();
      if (text === '') {
        return { success: false, error: 'the text model returned an empty reply' };
      }
      return { success: true, data: { text } };
    },
  };
  Object.defineProperty(executor, CHAT_REPLY_MARK, { value: true });
  return executor;
}

/**
 * The ids of the plugins whose `reply` executor is {@link chatReplyExecutor}'s, own id first. A
 * runtime with both chat transports offers the planner both reply steps, which write the same
 * reply: a transport takes the reply of either, whichever the model planned.
 *
 * @param plugins - The runtime's plugins (`runtime.plugins`).
 * @param ownId - The id of the plugin asking.
 * @returns The ids to pass to `findReply`.
 */
export function chatReplyPluginIds(
  plugins: { list(): readonly { id: string; executors: readonly Executor[] }[] },
  ownId: string,
): string[] {
  const others = plugins
    .list()
    .filter(
      (plugin) =>
        plugin.id !== ownId &&
        plugin.executors.some(
          (executor) =>
            executor.action === 'reply' &&
            (executor as { [CHAT_REPLY_MARK]?: unknown })[CHAT_REPLY_MARK] === true,
        ),
    )
    .map((plugin) => plugin.id);
  return [ownId, ...others];
}

/**
 * The last error in a task's chain, as `plugin/action: error`, for the server's log (never for
 * the client: it may quote an executor's internals).
 *
 * @param task - A finished task.
 * @returns The description, or `undefined` when the chain has no error item.
 */
export function lastTaskError(task: AgentTask): string | undefined {
  for (let index = task.chain.length - 1; index >= 0; index -= 1) {
    const item = task.chain[index] as Context;
    if (item.type === 'error')
      return `${item.pluginId}/${item.action}: ${item.error ?? 'unknown error'}`;
  }
  return undefined;
}

/**
 * What the reply prompt shows as the conversation so far when the memory store could not be
 * read, so the model does not take the missing history for a new conversation.
 */
export const CHAT_HISTORY_UNAVAILABLE =
  'Unavailable: the earlier messages could not be read from the memory store.';

/**
 * The earlier tasks of the task's space, rendered as the planning prompt renders them; a store
 * that cannot be read gives {@link CHAT_HISTORY_UNAVAILABLE} and a warning, unless the task was
 * aborted, which ends the step.
 */
async function readHistory(
  task: AgentTask,
  context: ExecutionContext,
  otherReplySteps: readonly string[],
): Promise<string> {
  // This step names itself, and the other chat reply steps, so an earlier task lists the answer
  // it gave, over either transport, even when a later step or the task's timeout ended that task.
  const results = [`${context.pluginId}/${context.step.action}`, ...otherReplySteps];
  try {
    // The reply reaches the user (with roomHistory 'shared', anyone in the room may read what
    // the prompt holds): an earlier task's failure is shown without its error text, which the
    // route keeps for the log, as it keeps it out of a 502.
    return (
      await context.memory.describeRelated(task.space, task.id, { failureReasons: false, results })
    ).text;
  } catch (error) {
    if (context.signal.aborted) throw error;
    const errorId = randomId();
    context.logger.warn(
      { errorId, ...errorLogFields(error) },
      'chat: could not read the conversation so far; writing the reply without it',
    );
    return CHAT_HISTORY_UNAVAILABLE;
  }
}

function describeItem(item: Context): string {
  const source = `${item.pluginId}/${item.action}`;
  if (item.type === 'trigger') return `the message arrived (${source})`;
  // Not the error's text: it may quote upstream URLs, keys or an executor's internals, and the
  // model may repeat it in the reply. The log has it.
  if (item.type === 'error') return `${source} failed`;
  const detail =
    item.data === undefined ? (item.message ?? 'no data') : (jsonOf(item.data) ?? NO_JSON_FORM);
  return `${source} returned: ${truncate(detail, 400)}`;
}

function truncate(text: string, length: number): string {
  return text.length <= length ? text : `${text.slice(0, length - 1)}…`;
}
