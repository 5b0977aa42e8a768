/**
 * `@weft/plugin-websocket`: chat with a Weft agent over a websocket.
 *
 * @packageDocumentation
 */
export { SHUTDOWN_CLOSE, WEBSOCKET_PLUGIN_ID, WebSocketPlugin } from './websocket-plugin.js';
export { FLOOD_CLOSE, IDLE_CLOSE, REVOKED_CLOSE } from './connection.js';
export type { WebSocketPluginOptions } from './options.js';
export type {
  AuthenticateResult,
  ChatAccessOptions,
  RoomAccess,
  RoomHistory,
} from '@weft/plugin-chat';
export {
  MessageFrameSchema,
  parseClientFrame,
  type AcceptedFrame,
  type ErrorFrame,
  type MessageFrame,
  type ReplyFrame,
  type ServerFrame,
} from './protocol.js';
export { WebSocketPluginError, type WebSocketPluginErrorCode } from './errors.js';
