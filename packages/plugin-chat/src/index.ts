/**
 * `@weft/plugin-chat`: chat with a Weft agent over HTTP.
 *
 * @packageDocumentation
 */
export {
  CHAT_PLUGIN_ID,
  ChatPlugin,
  ChatRequestSchema,
  findReply,
  NOT_REMEMBERED_WARNING,
  parseChatRequest,
  type ChatPluginOptions,
  type ChatRequest,
  type ChatResponse,
} from './chat-plugin.js';
export {
  CHAT_ACCESS_DEFAULTS,
  CHAT_ID_PATTERN,
  ChatAccess,
  chatSpace,
  type AuthenticateResult,
  type ChatAccessOptions,
  type ChatClientRequest,
  type RoomAccess,
  type RoomHistory,
} from './chat-access.js';
export {
  CHAT_HISTORY_UNAVAILABLE,
  CHAT_REPLY_TEMPLATE,
  chatReplyExecutor,
  chatReplyPluginIds,
  lastTaskError,
} from './chat-reply.js';
export { ChatPluginError, type ChatPluginErrorCode } from './errors.js';
