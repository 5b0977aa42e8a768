import { WeftError, type WeftErrorOptions } from '@weft/core';
import type { ErrorRegistry } from '@weft/core/internal';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/plugin-websocket`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_WS_INVALID_OPTIONS`: The `WebSocketPlugin` constructor was given a bad option, or
 *   `runtime.start()` found a chat plugin beside it with another `roomHistory`.
 * - `WEFT_WS_ORIGIN_NOT_ALLOWED`: A browser page whose origin is not in `allowedOrigins` tried to
 *   connect.
 * - `WEFT_WS_UNAUTHORIZED`: The `authenticate` hook refused the upgrade, failed, did not answer in
 *   time, named no user, or named one revoked meanwhile.
 * - `WEFT_WS_TOO_MANY_CONNECTIONS`: The plugin already holds `maxConnections` connections, or the
 *   user `maxConnectionsPerUser`.
 * - `WEFT_WS_UPGRADE_REQUIRED`: A request that is not a websocket handshake reached the websocket
 *   listener, or an upgrade asked for another path.
 * - `WEFT_WS_INVALID_FRAME`: A frame from the client is not valid; the connection stays open.
 * - `WEFT_WS_ROOM_FORBIDDEN`: The `authorizeRoom` hook did not let the user post in the room.
 * - `WEFT_WS_TOO_MANY_TASKS`: The connection already has `maxInFlight`, or its user
 *   `maxInFlightPerUser`, messages waiting for replies.
 * - `WEFT_WS_TASK_TIMEOUT`: No reply within `taskTimeoutMs`; the frame carries the task id.
 * - `WEFT_WS_NO_REPLY`: The task ended without a reply; the cause is in the runtime’s log under the
 *   task id.
 * - `WEFT_WS_INTERNAL`: The message could not be run; the cause is in the log under the request id.
 */
export type WebSocketPluginErrorCode =
  | 'WEFT_WS_INVALID_OPTIONS'
  | 'WEFT_WS_ORIGIN_NOT_ALLOWED'
  | 'WEFT_WS_UNAUTHORIZED'
  | 'WEFT_WS_TOO_MANY_CONNECTIONS'
  | 'WEFT_WS_UPGRADE_REQUIRED'
  | 'WEFT_WS_INVALID_FRAME'
  | 'WEFT_WS_ROOM_FORBIDDEN'
  | 'WEFT_WS_TOO_MANY_TASKS'
  | 'WEFT_WS_TASK_TIMEOUT'
  | 'WEFT_WS_NO_REPLY'
  | 'WEFT_WS_INTERNAL';
// </error-codes>

/**
 * What the errors reference says about each code of `@weft/plugin-websocket`; the code union
 * above and the page are generated from it.
 *
 * @internal
 */
export const WS_ERRORS = {
  packageName: '@weft/plugin-websocket',
  intro:
    'Codes with status 401, 403, 404, 426 or 503 refuse the upgrade, and 426 also a plain HTTP request: they answer the HTTP request with a JSON body and no websocket opens. The others, but `WEFT_WS_INVALID_OPTIONS`, which the constructor throws (or `runtime.start()`, as a cause), arrive over an open connection, as an `error` frame `{ "type": "error", "id", "code", "message", "docsUrl" }` whose `id` is the `id` of the client’s frame (`null` when the frame had none that could be read); the connection stays open.',
  codes: {
    WEFT_WS_INVALID_OPTIONS: {
      summary:
        'The `WebSocketPlugin` constructor was given a bad option, or `runtime.start()` found a chat plugin beside it with another `roomHistory`.',
      raisedBy: '`new WebSocketPlugin`, and `runtime.start()` as the cause of `WEFT_START_FAILED`',
      raisers: [
        'plugin-websocket/src/options.ts#resolveOptions',
        'plugin-websocket/src/options.ts#invalid',
      ],
      cause:
        "the `WebSocketPlugin` constructor was given a bad option, such as an option name it does not know (a misspelt one), a `path` that does not start with `/` or that a URL would write otherwise (no upgrade could reach it), a limit that is not a positive integer, a time that becomes a timer over 2147483647 ms (the longest delay a Node.js timer keeps), an origin that is not `scheme://host[:port]`, an `allowedHosts` entry with a scheme, a port or a path (which no `Host` header could match), or `roomHistory: 'shared'` without `authorizeRoom`; or, when the runtime starts, another chat plugin of the runtime, such as a `ChatPlugin`, has another `roomHistory`: both write into the same spaces, so a room private on one and shared on the other would show what users wrote over the first to every user of the other.",
      fix: 'the message names the option and what it must be.',
    },
    WEFT_WS_ORIGIN_NOT_ALLOWED: {
      summary: 'A browser page whose origin is not in `allowedOrigins` tried to connect.',
      status: 403,
      raisedBy: 'the websocket upgrade',
      raisers: ['plugin-websocket/src/upgrade-gate.ts#upgradeGate'],
      cause:
        'the upgrade request carried an `Origin` header, or a `Sec-WebSocket-Origin` header (where version 8 of the protocol names the page), that is not in the plugin’s `allowedOrigins`. Browsers let any page open a websocket to any address, so the origin is the only sign of which page is asking; without the check, a page the user happens to visit could talk to a local agent.',
      fix: 'add the origin of your web client, such as `https://chat.example.com`, to `allowedOrigins`.',
    },
    /** @claim errors-ws-unauthorized-answers */
    WEFT_WS_UNAUTHORIZED: {
      summary:
        'The `authenticate` hook refused the upgrade, failed, did not answer in time, named no user, or named one revoked meanwhile.',
      status: 401,
      raisedBy: 'the websocket upgrade',
      raisers: [
        'plugin-websocket/src/upgrade-gate.ts#upgradeGate',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.upgrade',
      ],
      cause:
        'the plugin’s `authenticate` hook returned `false` (or anything but `true` or `{ user }`), threw, did not answer within `authTimeoutMs` or named a user that is not a valid id; or no hook named a user and `trustClientUser` is off, so the frames’ `user` would not be believed (anyone who can connect could write as anyone); or `closeConnectionsOf` revoked the user the hook named while it ran. The hook runs before the websocket is accepted, so a refused client never gets a connection.',
      fix: 'send the credentials the hook expects (a header, a cookie or a query parameter); give the plugin an `authenticate` hook that answers `{ user }`, or set `trustClientUser: true` when something in front of the plugin already vouches for the user. When the hook threw or timed out, the server log has the cause under the request id; a revoked user signs in again.',
    },
    /** @claim errors-ws-too-many-connections-checking */
    WEFT_WS_TOO_MANY_CONNECTIONS: {
      summary:
        'The plugin already holds `maxConnections` connections, or the user `maxConnectionsPerUser`.',
      status: 503,
      raisedBy: 'the websocket upgrade',
      raisers: [
        'plugin-websocket/src/upgrade-gate.ts#upgradeGate',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.closeOnce',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.upgrade',
        'plugin-websocket/src/websocket-plugin.ts#stoppingRefusal',
      ],
      cause:
        'the plugin already holds `maxConnections` connections, counting the upgrades whose `authenticate` is still running, the user `authenticate` named already holds `maxConnectionsPerUser`, or the runtime is stopping or the plugin closing.',
      fix: 'retry after the answer’s `Retry-After` (5 seconds, as for the runtime server’s `503` answers), with backoff, or close another connection of the same user; raise `maxConnections` if the server has the memory for more.',
    },
    /** @claim errors-ws-upgrade-required-handshake */
    WEFT_WS_UPGRADE_REQUIRED: {
      summary:
        'A request that is not a websocket handshake reached the websocket listener, or an upgrade asked for another path.',
      status: [404, 426],
      raisedBy: 'the websocket listener',
      raisers: [
        'plugin-websocket/src/upgrade-gate.ts#upgradeGate',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.constructor',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.answerPlainRequest',
      ],
      cause:
        'an upgrade asked for a path other than the plugin’s `path` (404, even when it is not a valid handshake); or a request that is not a websocket handshake reached the plugin’s listener (426): a plain HTTP request, or an upgrade with a method other than `GET`, an `Upgrade` header other than `websocket`, a missing or malformed `Sec-WebSocket-Key`, a `Sec-WebSocket-Version` other than 13 (or 8), or a malformed `Sec-WebSocket-Protocol` (one left out is fine), which is read last, once every other check (`Host`, `Origin`, the connection caps, `authenticate`) has let the upgrade through, so their refusals come first. The message of a refused upgrade says which.',
      fix: 'connect with a websocket client to the plugin’s `path`, such as `ws://127.0.0.1:3001/ws`.',
    },
    /**
     * @claim errors-ws-invalid-frame-id-in-use
     * @claim errors-ws-invalid-frame-fields
     * @claim errors-ws-invalid-frame-space-too-long
     */
    WEFT_WS_INVALID_FRAME: {
      summary: 'A frame from the client is not valid; the connection stays open.',
      raisedBy: 'the websocket connection',
      raisers: [
        'plugin-websocket/src/connection.ts#ChatConnection.onFrame',
        'plugin-websocket/src/connection.ts#ChatConnection.run',
      ],
      cause:
        'a frame is not JSON, is binary, or is not a `message` frame with a valid `id`, `room`, `user` and `message` (one is missing, not a string, empty or too long, a `room` or `user` has characters an id may not have, or a `message` holds a NUL character or a lone UTF-16 surrogate, which no memory store can hold), its `room` and its sender (the user `authenticate` named, else the frame’s `user`) are too long together for the 200 characters of a space id, or its `id` is that of a message of the connection still waiting for its reply.',
      fix: 'the message names the field; send `{ "type": "message", "id", "room", "user", "message" }` as the package’s README describes.',
    },
    /** @claim errors-ws-room-forbidden-answers */
    WEFT_WS_ROOM_FORBIDDEN: {
      summary: 'The `authorizeRoom` hook did not let the user post in the room.',
      raisedBy: 'the websocket connection',
      raisers: ['plugin-websocket/src/connection.ts#ChatConnection.run'],
      cause:
        'the plugin’s `authorizeRoom` hook answered `false` (or anything but `true`) for the connection’s user and the frame’s room, threw, or did not answer within `authTimeoutMs`. The message was not run; the connection stays open.',
      fix: 'post in a room the user belongs to; when the hook threw or timed out, the server log has the cause under the frame’s `requestId`.',
    },
    WEFT_WS_TOO_MANY_TASKS: {
      summary:
        'The connection already has `maxInFlight`, or its user `maxInFlightPerUser`, messages waiting for replies.',
      raisedBy: 'the websocket connection',
      raisers: [
        'plugin-websocket/src/connection.ts#ChatConnection.onFrame',
        'plugin-websocket/src/connection.ts#ChatConnection.run',
      ],
      cause:
        'the client sent a message while `maxInFlight` earlier messages of the same connection were still waiting for their replies, or while `maxInFlightPerUser` messages of the same user (over all their connections to this plugin) were still waiting for their tasks to end.',
      fix: 'wait for a `reply` or `error` frame before sending more; the message was not run, so send it again later.',
    },
    WEFT_WS_TASK_TIMEOUT: {
      summary: 'No reply within `taskTimeoutMs`; the frame carries the task id.',
      raisedBy: 'the websocket connection',
      raisers: ['plugin-websocket/src/connection.ts#ChatConnection.run'],
      cause:
        'the task of a message did not finish within the plugin’s `taskTimeoutMs`, usually because the model is slow or hung. The connection’s slot is freed; the runtime’s own `taskTimeoutMs` aborts the task itself.',
      fix: 'search the log for the task id; raise `taskTimeoutMs` if replies are slow but do arrive.',
    },
    /**
     * @claim errors-ws-no-reply-frame
     * @claim errors-ws-no-reply-never-ran
     */
    WEFT_WS_NO_REPLY: {
      summary:
        'The task ended without a reply; the cause is in the runtime’s log under the task id.',
      raisedBy: 'the websocket connection',
      raisers: ['plugin-websocket/src/connection.ts#ChatConnection.run'],
      cause:
        'the task ended without a reply, usually because the model failed. A message whose task was accepted but never ran ends this way too, as `failed`: the space coordinator could not give it its space (`WEFT_COORDINATOR_ACQUIRE_TIMEOUT`, or `WEFT_COORDINATOR_CONNECTION_LOST` while it waited), or did not within the runtime’s `coordinatorAcquireTimeoutMs` (`WEFT_COORDINATOR_TIMEOUT`), or a stop in `cancel` mode, or a draining stop that ran out of `shutdownTimeoutMs`, dropped it from the queue (`WEFT_TASK_CANCELLED`). The frame carries the task id and the request id, and its message says how the task ended (such as `failed`); the cause is in the runtime’s log under the task id.',
      fix: 'search the log for the task id, and see the code of the step that failed.',
    },
    /** @claim errors-ws-internal */
    WEFT_WS_INTERNAL: {
      summary: 'The message could not be run; the cause is in the log under the request id.',
      raisedBy: 'the websocket connection',
      raisers: ['plugin-websocket/src/connection.ts#ChatConnection.sendRefusal'],
      cause:
        'the runtime refused or failed to start the task for a reason that may carry internals, such as a coordinator error that is not a `503`. A full queue and a stopping runtime arrive as `WEFT_QUEUE_FULL` and `WEFT_SHUTTING_DOWN`, and a coordinator’s `503` with its own code. The frame carries the request id; the cause is in the log under it.',
      fix: 'search the log for the request id.',
    },
  },
} as const satisfies ErrorRegistry<WebSocketPluginErrorCode>;

/**
 * The error `@weft/plugin-websocket` throws on purpose: a {@link WeftError} with a
 * {@link WebSocketPluginErrorCode}. Recognise it with `WeftError.is(error, 'WEFT_WS_…')`.
 */
export class WebSocketPluginError extends WeftError<WebSocketPluginErrorCode> {
  /**
   * @param code - What went wrong.
   * @param message - What went wrong and how to fix it, starting with `WebSocketPlugin:`.
   * @param options - The underlying error, and the HTTP status and exposure when it has them.
   */
  constructor(code: WebSocketPluginErrorCode, message: string, options: WeftErrorOptions = {}) {
    super(code, message, options);
    this.name = 'WebSocketPluginError';
  }
}
