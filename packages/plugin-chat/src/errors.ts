import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/plugin-chat`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_CHAT_INVALID_OPTIONS`: The `ChatPlugin` constructor was given a bad option.
 * - `WEFT_CHAT_INVALID_REQUEST`: A chat request’s body is not valid.
 * - `WEFT_CHAT_UNAUTHORIZED`: The chat route does not know who sent the request.
 * - `WEFT_CHAT_ROOM_FORBIDDEN`: The `authorizeRoom` hook did not let the user post in the room.
 * - `WEFT_CHAT_TOO_MANY_TASKS`: The user already has `maxInFlightPerUser`, or the connection
 *   `maxInFlight`, messages waiting for replies.
 * - `WEFT_CHAT_NO_REPLY`: The task ended without a reply; the cause is in the runtime’s log under
 *   the task id.
 */
export type ChatPluginErrorCode =
  | 'WEFT_CHAT_INVALID_OPTIONS'
  | 'WEFT_CHAT_INVALID_REQUEST'
  | 'WEFT_CHAT_UNAUTHORIZED'
  | 'WEFT_CHAT_ROOM_FORBIDDEN'
  | 'WEFT_CHAT_TOO_MANY_TASKS'
  | 'WEFT_CHAT_NO_REPLY';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/plugin-chat`; the code union above
 * and the page are generated from it.
 *
 * @internal
 */
export const CHAT_ERRORS = {
  packageName: '@weft/plugin-chat',
  codes: {
    WEFT_CHAT_INVALID_OPTIONS: {
      summary: 'The `ChatPlugin` constructor was given a bad option.',
      raisedBy: '`new ChatPlugin`',
      raisers: [
        'plugin-chat/src/chat-plugin.ts#ChatPlugin.constructor',
        'plugin-chat/src/chat-plugin.ts#invalidOption',
      ],
      cause:
        'the `ChatPlugin` constructor was given a bad option, such as an option name it does not know (a misspelt one) or a `path` that does not start with `/`.',
      fix: 'the message names the option and what it must be.',
    },
    /**
     * @claim errors-chat-invalid-request-body
     * @claim errors-chat-invalid-request-together
     */
    WEFT_CHAT_INVALID_REQUEST: {
      summary: 'A chat request’s body is not valid.',
      status: 400,
      raisedBy: 'the chat route',
      raisers: ['plugin-chat/src/chat-plugin.ts#ChatPlugin.messageRoute'],
      cause:
        'a chat request’s body is not valid: not a JSON object (malformed JSON, bare strings or numbers, and JSON nested deeper than `server.maxJsonDepth` included, which the runtime’s server refuses with this code before the route runs), or a `room`, `user` or `message` missing, not a string, empty, too long or with characters an id may not have, a `room` and sender (the user `authenticate` named, else the body’s `user`) too long together for the 200 characters of a space id, or a `message` holding a NUL character (U+0000) or a lone UTF-16 surrogate, which no memory store can hold.',
      fix: 'the message names the field; send `{ "room", "user", "message" }` as [The request](../building-plugins/http-chat.md#the-request) describes.',
    },
    /** @claim errors-chat-unauthorized-answers */
    WEFT_CHAT_UNAUTHORIZED: {
      summary: 'The chat route does not know who sent the request.',
      status: 401,
      raisedBy: 'the chat route',
      raisers: ['plugin-chat/src/chat-plugin.ts#ChatPlugin.messageRoute'],
      cause:
        'the plugin’s `authenticate` hook answered `false` (or anything but `true` or `{ user }`), threw, did not answer within `authTimeoutMs` or named a user that is not a valid id; or no hook named a user and `trustClientUser` is off, so the body’s `user` is not believed (anyone who can reach the route could write as anyone). No task runs.',
      fix: 'send the credentials your `authenticate` hook expects, such as an `Authorization: Bearer` token; give the plugin an `authenticate` hook that answers `{ user }`, or set `trustClientUser: true` when something in front of the route already vouches for the user. When the hook threw or timed out, the server log has the cause under the request id.',
    },
    /** @claim errors-chat-room-forbidden-answers */
    WEFT_CHAT_ROOM_FORBIDDEN: {
      summary: 'The `authorizeRoom` hook did not let the user post in the room.',
      status: 403,
      raisedBy: 'the chat route',
      raisers: ['plugin-chat/src/chat-plugin.ts#ChatPlugin.messageRoute'],
      cause:
        'the plugin’s `authorizeRoom` hook answered `false` (or anything but `true`) for the user and room of the request, threw, or did not answer within `authTimeoutMs`. No task runs.',
      fix: 'post in a room the user belongs to; when the hook threw or timed out, the server log has the cause under the request id.',
    },
    WEFT_CHAT_TOO_MANY_TASKS: {
      summary:
        'The user already has `maxInFlightPerUser`, or the connection `maxInFlight`, messages waiting for replies.',
      status: 429,
      raisedBy: 'the chat route',
      raisers: ['plugin-chat/src/chat-plugin.ts#ChatPlugin.messageRoute'],
      cause:
        'the user sent a message while `maxInFlightPerUser` earlier messages of theirs (over any requests to this plugin) were still waiting for their tasks to end, or a keep-alive connection sent one while `maxInFlight` earlier requests of it were waiting. The message was not run, and the answer carries `Retry-After: 5`.',
      fix: 'wait for an answer before sending more, then send the message again; raise `maxInFlightPerUser` if your users really send that many at once.',
    },
    WEFT_CHAT_NO_REPLY: {
      summary:
        'The task ended without a reply; the cause is in the runtime’s log under the task id.',
      status: 502,
      raisedBy: 'the chat route',
      raisers: ['plugin-chat/src/chat-plugin.ts#ChatPlugin.messageRoute'],
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
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(code: ChatPluginErrorCode, message: string, options: WeftErrorOptions = {}) {
    super(code, message, options);
    this.name = 'ChatPluginError';
  }
}
