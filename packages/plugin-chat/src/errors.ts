import { WeftError } from '@weft/core';

/**
 * The code of an error of `@weft/plugin-chat`, thrown or sent in an answer:
 *
 * - `WEFT_CHAT_INVALID_OPTIONS`: the `ChatPlugin` constructor was given a bad option.
 * - `WEFT_CHAT_INVALID_REQUEST`: a chat request's body is not valid (answered with 400).
 * - `WEFT_CHAT_NO_REPLY`: the task ended without a reply (answered with 502; the cause is in
 *   the runtime's log under the task id).
 */
export type ChatPluginErrorCode =
  'WEFT_CHAT_INVALID_OPTIONS' | 'WEFT_CHAT_INVALID_REQUEST' | 'WEFT_CHAT_NO_REPLY';

/**
 * Every code of {@link ChatPluginErrorCode}, for tests and tools that list them.
 *
 * @internal
 */
export const CHAT_PLUGIN_ERROR_CODES = Object.keys({
  WEFT_CHAT_INVALID_OPTIONS: true,
  WEFT_CHAT_INVALID_REQUEST: true,
  WEFT_CHAT_NO_REPLY: true,
} satisfies Record<ChatPluginErrorCode, true>) as readonly ChatPluginErrorCode[];

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
