/**
 * `@weft/plugin-chat`: chat with a Weft agent over HTTP.
 *
 * @packageDocumentation
 */
export {
  CHAT_PLUGIN_ID,
  ChatPlugin,
  ChatRequestSchema,
  chatSpace,
  findReply,
  NOT_REMEMBERED_WARNING,
  parseChatRequest,
  type ChatPluginOptions,
  type ChatRequest,
  type ChatResponse,
} from './chat-plugin.js';
export { CHAT_REPLY_TEMPLATE, chatReplyExecutor, lastTaskError } from './chat-reply.js';
export { ChatPluginError, type ChatPluginErrorCode } from './errors.js';
