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
export { ChatPluginError, type ChatPluginErrorCode } from './errors.js';
