import { WeftError } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from errorRegistry by: npm run generate:references
/**
 * The code of a {@link WeftError} raised by `@weft/plugin-chat`. The list is closed (a new
 * code is a change to the public API) and stable across versions, so callers branch on the code
 * rather than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_CHAT_INVALID_OPTIONS`: The `ChatPlugin` constructor was given a bad option.
 * - `WEFT_CHAT_INVALID_REQUEST`: A chat request’s body is not valid.
 * - `WEFT_CHAT_NO_REPLY`: The task ended without a reply; the cause is in the runtime’s log under
 *   the task id.
 */
export type ChatPluginErrorCode =
  'WEFT_CHAT_INVALID_OPTIONS' | 'WEFT_CHAT_INVALID_REQUEST' | 'WEFT_CHAT_NO_REPLY';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/plugin-chat`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const errorRegistry = {
  packageName: '@weft/plugin-chat',
  codes: {
    WEFT_CHAT_INVALID_OPTIONS: {
      summary: 'The `ChatPlugin` constructor was given a bad option.',
      raisedBy: '`new ChatPlugin`',
      cause:
        'the `ChatPlugin` constructor was given a bad option, such as a `path` that does not start with `/`.',
      fix: 'the message names the option and what it must be.',
    },
    WEFT_CHAT_INVALID_REQUEST: {
      summary: 'A chat request’s body is not valid.',
      status: 400,
      raisedBy: 'the chat route',
      cause:
        'a chat request’s body is not valid: not a JSON object, or a `room`, `user` or `message` missing, empty, too long or with characters an id may not have.',
      fix: 'the message names the field; send `{ "room", "user", "message" }` as [The request](../building-plugins/http-chat.md#the-request) describes.',
    },
    WEFT_CHAT_NO_REPLY: {
      summary:
        'The task ended without a reply; the cause is in the runtime’s log under the task id.',
      status: 502,
      raisedBy: 'the chat route',
      cause:
        'the task ended without a reply, usually because the model failed. The answer carries the task id and status; the cause is in the runtime’s log under the task id.',
      fix: 'search the log for the task id, and see the code of the step that failed.',
    },
  },
} as const satisfies ErrorRegistry<ChatPluginErrorCode>;

/**
 * The error `@weft/plugin-chat` throws on purpose: a {@link WeftError} with a
 * {@link ChatPluginErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_CHAT_…')`.
 */
export class ChatPluginError extends WeftError<ChatPluginErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with `ChatPlugin:`.
   */
  constructor(code: ChatPluginErrorCode, message: string) {
    super(code, message);
    this.name = 'ChatPluginError';
  }
}
