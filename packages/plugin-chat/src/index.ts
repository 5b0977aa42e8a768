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
  parseChatRequest,
  type ChatPluginOptions,
  type ChatRequest,
  type ChatResponse,
} from './chat-plugin.js';
