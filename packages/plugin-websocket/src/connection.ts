/**
 * One client's connection: reads its frames, turns each message into a task, and sends the
 * frames about it back, within the connection's limits (messages in flight, reply deadline,
 * idle time, bytes waiting to be sent).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { WeftError, type AgentTask, type Runtime, type Space } from '@weft/core';
import { describeError, errorDocsUrl } from '@weft/core/internal';
import {
  chatReplyPluginIds,
  findReply,
  lastTaskError,
  NOT_REMEMBERED_WARNING,
  type ChatAccess,
} from '@weft/plugin-chat';
import { WebSocket, type RawData } from 'ws';
import type { WebSocketPluginErrorCode } from './errors.js';
import type { ResolvedOptions } from './options.js';
import {
  parseClientFrame,
  ROOM_TOO_LONG_FOR_SENDER,
  type ErrorFrame,
  type MessageFrame,
  type ServerFrame,
} from './protocol.js';
import type { Admission } from './upgrade-gate.js';

/** What a connection needs from the plugin that accepted it. */
export interface ConnectionHost {
  readonly pluginId: string;
  readonly options: ResolvedOptions;
  /** Who may chat as whom, in which room, and each user's messages in flight. */
  readonly access: ChatAccess;
  readonly runtime: Runtime;
  /** Whether the plugin still takes new messages (not once the runtime is stopping). */
  accepting(): boolean;
}

/** The close code and reason sent when a connection has been idle for `idleTimeoutMs`. */
export const IDLE_CLOSE = { code: 1000, reason: 'idle timeout' } as const;

/**
 * The close code, and the default reason, sent to the connections of a user whose access was
 * revoked by `WebSocketPlugin.closeConnectionsOf`. The code is in the range websocket leaves to
 * applications (4000-4999), so a client tells it apart from an idle or shutdown close and
 * signs in again instead of reconnecting with the same credentials.
 * @claim tsdoc-ws-revoked-close
 */
export const REVOKED_CLOSE = { code: 4001, reason: 'access revoked' } as const;

/**
 * The close code and reason a connection gets when it sent more than `maxFramesPerSecond`
 * frames in a second: 1008, websocket's code for a message that breaks the server's policy.
 * @claim tsdoc-ws-flood-close
 */
export const FLOOD_CLOSE = { code: 1008, reason: 'too many frames' } as const;

/** The longest close reason websocket allows, in UTF-8 bytes. */
const MAX_CLOSE_REASON_BYTES = 123;

/** The core's codes whose messages are written for clients (a full queue, a stopping runtime). */
const EXPOSED_CORE_CODES = new Set(['WEFT_QUEUE_FULL', 'WEFT_SHUTTING_DOWN']);

/**
 * A websocket session. It never throws into `ws`: every failure becomes an error frame, a log
 * line, or the connection's end.
 */
export class ChatConnection {
  /** The connection's id, in every log line about it. */
  readonly id = randomUUID();
  /**
   * Whether the client answered the last ping with its data; the plugin's heartbeat reads it and
   * sends the next ping with {@link ChatConnection.ping}.
   */
  alive = true;
  /**
   * The data of the last ping. Only a pong that echoes it answers the ping: a peer that never
   * reads could otherwise keep itself alive with pongs of its own, which websocket allows unasked.
   */
  private pingData: Buffer | undefined;
  private readonly inFlight = new Set<string>();
  private idleTimer: NodeJS.Timeout | undefined;
  /**
   * Set once the connection is being ended, its user having lost access, it having sent too
   * many frames or having been idle for `idleTimeoutMs`: nothing it sends from then on becomes a task, and no reply is sent to it.
   */
  private ended = false;
  private recheckTimer: NodeJS.Timeout | undefined;
  private checking = false;
  /**
   * When the connection's last `maxFramesPerSecond` frames arrived, oldest at `nextFrameSlot`:
   * a frame that comes less than a second after the frame that many before it is one too many.
   */
  private readonly frameTimes: number[] = [];
  private nextFrameSlot = 0;

  /**
   * @param request - The upgrade request, kept only with `reauthenticateMs` to run
   *   `authenticate` on again: its headers are bounded by Node's header size limit, and one is
   *   kept per open connection.
   */
  constructor(
    private readonly socket: WebSocket,
    private readonly host: ConnectionHost,
    private readonly admission: Admission,
    request: IncomingMessage,
  ) {
    socket.on('pong', (data) => {
      if (this.pingData !== undefined && data.equals(this.pingData)) this.alive = true;
    });
    socket.on('message', (data, isBinary) => this.onFrame(data, isBinary));
    socket.on('close', () => {
      clearTimeout(this.idleTimer);
      clearInterval(this.recheckTimer);
    });
    this.resetIdleTimer();
    const every = host.options.reauthenticateMs;
    if (every !== undefined) {
      this.recheckTimer = setInterval(() => void this.recheck(request), every);
      this.recheckTimer.unref();
    }
  }

  /** The user `authenticate` named for the connection, if it named one. */
  get user(): string | undefined {
    return this.admission.user;
  }

  /**
   * Ends the connection because its user lost access: frames still arriving are dropped, the
   * replies of tasks already running are not sent, and the client receives
   * {@link REVOKED_CLOSE}'s code. A client that does not answer the close frame is cut off after
   * `closeTimeoutMs`.
   *
   * @param reason - The close reason, cut to the 123 bytes websocket allows.
   * @returns `false` when the connection was revoked already, or was closing already (idle, or
   *   the plugin's close): its frames are dropped all the same, but its close code stands.
   */
  revoke(reason: string): boolean {
    return this.end(REVOKED_CLOSE.code, reason);
  }

  /**
   * Drops the frames still arriving and the replies still to come, and closes the connection
   * with `code`, cutting it off after `closeTimeoutMs` when the client does not answer.
   */
  private end(code: number, reason: string): boolean {
    if (this.ended) return false;
    this.ended = true;
    clearTimeout(this.idleTimer);
    clearInterval(this.recheckTimer);
    // ws sends no second close frame: the client gets the code it was sent already.
    if (this.socket.readyState !== WebSocket.OPEN) return false;
    const cutOff = setTimeout(() => this.socket.terminate(), this.host.options.closeTimeoutMs);
    cutOff.unref();
    this.socket.once('close', () => clearTimeout(cutOff));
    this.socket.close(code, clipReason(reason));
    return true;
  }

  /**
   * Runs `authenticate` again on the upgrade request; a connection it no longer admits as the
   * same user is revoked. A check still running when the next is due is not doubled.
   */
  private async recheck(request: IncomingMessage): Promise<void> {
    if (this.checking || this.ended) return;
    this.checking = true;
    const requestId = randomUUID();
    const { access, runtime } = this.host;
    try {
      // A hook that throws or hangs counts as a refusal (ChatAccess logs it under requestId).
      const verdict = await access.authenticate(request, requestId, runtime.logger);
      if (this.socket.readyState !== WebSocket.OPEN) return;
      if (verdict !== false && verdict.user === this.admission.user) return;
      runtime.logger.info(
        { requestId, connectionId: this.id, user: this.admission.user },
        'websocket: authenticate no longer admits the connection; closed',
      );
      this.revoke(REVOKED_CLOSE.reason);
    } catch (error) {
      runtime.logger.error(
        { requestId, connectionId: this.id, error: describeError(error) },
        'websocket: checking the connection again failed; closed',
      );
      this.revoke(REVOKED_CLOSE.reason);
    } finally {
      this.checking = false;
    }
  }

  /**
   * Pings the client with fresh data and counts it as gone until a pong echoes that data, as
   * every websocket client's answer to a ping does.
   */
  ping(): void {
    this.alive = false;
    this.pingData = randomBytes(8);
    this.socket.ping(this.pingData);
  }

  /** How many of the connection's messages wait for replies. */
  get pending(): number {
    return this.inFlight.size;
  }

  private onFrame(data: RawData, isBinary: boolean): void {
    // ws still reads the frames a client sent before it saw the close frame.
    if (this.ended) return;
    if (this.tooManyFrames()) return;
    this.resetIdleTimer();
    if (isBinary) {
      this.sendError(
        null,
        'WEFT_WS_INVALID_FRAME',
        'Invalid frame: send JSON as a text frame, not binary.',
      );
      return;
    }
    // The room must fit a space with the user the frame will run as: the one authenticate named,
    // when it named one, rather than the frame's own `user`, which is then ignored.
    const parsed = parseClientFrame(rawText(data), this.admission.user);
    if (!parsed.success) {
      this.sendError(parsed.id, 'WEFT_WS_INVALID_FRAME', parsed.error);
      return;
    }
    const frame = parsed.frame;
    if (this.inFlight.has(frame.id)) {
      this.sendError(
        frame.id,
        'WEFT_WS_INVALID_FRAME',
        'Invalid frame: "id" is already used by a message still waiting for its reply; give each message its own id.',
      );
      return;
    }
    if (this.inFlight.size >= this.host.options.maxInFlight) {
      this.sendError(
        frame.id,
        'WEFT_WS_TOO_MANY_TASKS',
        `Too many messages waiting for replies (at most ${this.host.options.maxInFlight}); wait for a reply, then send this one again.`,
      );
      return;
    }
    if (!this.host.accepting()) {
      this.send(
        exposedError(
          frame.id,
          'WEFT_SHUTTING_DOWN',
          'The server is stopping and takes no new messages; reconnect later.',
        ),
      );
      return;
    }
    this.inFlight.add(frame.id);
    void this.run(frame).finally(() => {
      this.inFlight.delete(frame.id);
      // The idle time counts again from the end of the connection's last message, which
      // taskTimeoutMs bounds: a task that never ends does not hold the connection open.
      if (this.inFlight.size === 0 && !this.ended) this.resetIdleTimer();
    });
  }

  /**
   * Counts the frame, and ends the connection with {@link FLOOD_CLOSE} when it makes more than
   * `maxFramesPerSecond` frames within one second, whichever second that is.
   */
  private tooManyFrames(): boolean {
    const now = performance.now();
    const limit = this.host.options.maxFramesPerSecond;
    const oldest = this.frameTimes[this.nextFrameSlot];
    if (oldest === undefined || now - oldest >= 1_000) {
      this.frameTimes[this.nextFrameSlot] = now;
      this.nextFrameSlot = (this.nextFrameSlot + 1) % limit;
      return false;
    }
    this.host.runtime.logger.warn(
      { connectionId: this.id, user: this.admission.user, limit },
      'websocket: too many frames; connection closed',
    );
    this.end(FLOOD_CLOSE.code, FLOOD_CLOSE.reason);
    return true;
  }

  private async run(frame: MessageFrame): Promise<void> {
    const { runtime, pluginId, options, access } = this.host;
    const requestId = randomUUID();
    // A user named by authenticate speaks for the connection: the frame's own user is ignored,
    // and believed only with trustClientUser (the upgrade gate refused connections without
    // either).
    const user = access.userOf(this.admission.user, frame.user);
    if (user === undefined) {
      this.sendRefusal(frame.id, requestId, new Error('a connection without a user was admitted'));
      return;
    }
    let space: Space;
    try {
      space = access.space(frame.room, user);
    } catch (error) {
      if (!WeftError.is(error, 'WEFT_INVALID_SPACE')) {
        this.sendRefusal(frame.id, requestId, error);
        return;
      }
      this.sendError(frame.id, 'WEFT_WS_INVALID_FRAME', ROOM_TOO_LONG_FOR_SENDER);
      return;
    }
    if (!(await access.mayUseRoom({ user, room: frame.room }, requestId, runtime.logger))) {
      this.sendError(
        frame.id,
        'WEFT_WS_ROOM_FORBIDDEN',
        `Not allowed to post in room ${JSON.stringify(frame.room)}.`,
        { requestId },
      );
      return;
    }
    // The room check waits on the application's hook, during which access may be revoked.
    if (this.ended) return;
    if (!access.takeSlot(user)) {
      this.sendError(
        frame.id,
        'WEFT_WS_TOO_MANY_TASKS',
        `Too many messages of this user waiting for replies (at most ${access.maxInFlightPerUser}, over all their connections); wait for a reply, then send this one again.`,
      );
      return;
    }
    let accepted: { taskId: string; done: Promise<AgentTask> };
    try {
      accepted = await runtime.accept({
        pluginId,
        triggerId: 'message',
        space,
        message: frame.message,
        data: { room: frame.room, user },
        metadata: { requestId, connectionId: this.id },
      });
    } catch (error) {
      access.releaseSlot(user);
      this.sendRefusal(frame.id, requestId, error);
      return;
    }
    // The user's slot is held until the task itself ends, not until this connection stops
    // waiting for it: a task still queued keeps the next one waiting.
    const release = () => access.releaseSlot(user);
    accepted.done.then(release, release);
    const { taskId } = accepted;
    this.send({ type: 'accepted', id: frame.id, taskId });
    const task = await finishedWithin(accepted.done, options.taskTimeoutMs);
    if (task === 'timeout') {
      runtime.logger.warn(
        { taskId, requestId, connectionId: this.id, timeoutMs: options.taskTimeoutMs },
        'websocket: no reply in time; the client was told',
      );
      this.sendError(
        frame.id,
        'WEFT_WS_TASK_TIMEOUT',
        `No reply within ${options.taskTimeoutMs} ms; the server log has more under this taskId`,
        { taskId, requestId },
      );
      return;
    }
    const reply =
      task instanceof Error
        ? undefined
        : findReply(task, chatReplyPluginIds(runtime.plugins, pluginId));
    if (reply === undefined || task instanceof Error) {
      // The cause may quote upstream URLs, keys or an executor's internals: it goes to the log
      // under the task id, and the client gets that id to quote.
      runtime.logger.error(
        {
          taskId,
          requestId,
          connectionId: this.id,
          status: task instanceof Error ? 'failed' : task.status,
          error:
            task instanceof Error
              ? describeError(task)
              : (lastTaskError(task) ?? 'the task finished without a reply step'),
        },
        'websocket: task ended without a reply',
      );
      this.sendError(
        frame.id,
        'WEFT_WS_NO_REPLY',
        `No reply: the task ${task instanceof Error ? 'failed' : task.status} without one; the server log has the cause under this taskId`,
        { taskId, requestId },
      );
      return;
    }
    this.send({
      type: 'reply',
      id: frame.id,
      taskId,
      status: task.status,
      reply,
      ...(task.recorded.chain ? {} : { warning: NOT_REMEMBERED_WARNING }),
    });
  }

  private sendRefusal(id: string, requestId: string, error: unknown): void {
    if (WeftError.is(error) && error.expose && EXPOSED_CORE_CODES.has(error.code)) {
      this.send(
        exposedError(id, error.code as 'WEFT_QUEUE_FULL' | 'WEFT_SHUTTING_DOWN', error.message),
      );
      return;
    }
    this.host.runtime.logger.error(
      { requestId, connectionId: this.id, error: describeError(error) },
      'websocket: the runtime did not take a message',
    );
    // A coordinator that lost its database refuses for a while and then takes work again: the
    // client gets its code, so it knows to try again, but not its message, which names the
    // database.
    if (WeftError.is(error) && isCoordinatorCode(error.code) && error.status === 503) {
      this.send({
        type: 'error',
        id,
        code: error.code,
        message:
          'The server cannot take messages for a moment; try again shortly. The server log has the cause under this requestId',
        docsUrl: errorDocsUrl(error.code),
        requestId,
      });
      return;
    }
    this.sendError(
      id,
      'WEFT_WS_INTERNAL',
      'The message could not be run; the server log has the cause under this requestId',
      { requestId },
    );
  }

  private sendError(
    id: string | null,
    code: WebSocketPluginErrorCode,
    message: string,
    extra: Pick<ErrorFrame, 'taskId' | 'requestId'> = {},
  ): void {
    this.send({ type: 'error', id, code, message, docsUrl: errorDocsUrl(code), ...extra });
  }

  /**
   * Sends a frame, unless the client has gone. A client that still has more than
   * `maxBufferedBytes` unsent when the next frame is due has stopped reading: it is cut off rather
   * than buffered for without end. The backlog is judged before the frame, not after it, so that
   * one reply larger than the limit reaches a client that reads, over a network whose socket
   * takes it in pieces.
   */
  private send(frame: ServerFrame): void {
    if (this.ended || this.socket.readyState !== WebSocket.OPEN) return;
    const backlog = this.socket.bufferedAmount;
    if (backlog > this.host.options.maxBufferedBytes) {
      this.host.runtime.logger.warn(
        {
          connectionId: this.id,
          bufferedBytes: backlog,
          limit: this.host.options.maxBufferedBytes,
        },
        'websocket: client is not reading; connection dropped',
      );
      this.socket.terminate();
      return;
    }
    this.socket.send(JSON.stringify(frame));
  }

  /**
   * Starts the idle time again. A connection with a message still waiting for its reply is not
   * idle: the timer then ends without closing it, and starts again when its last message ends.
   */
  private resetIdleTimer(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.inFlight.size > 0) return;
      this.host.runtime.logger.info({ connectionId: this.id }, 'websocket: idle connection closed');
      // Through end(), not socket.close(): ws alone would wait 30 s for a client that never
      // answers the close frame, and would still turn the frames it sends meanwhile into tasks.
      this.end(IDLE_CLOSE.code, IDLE_CLOSE.reason);
    }, this.host.options.idleTimeoutMs);
    this.idleTimer.unref();
  }
}

/** A coordinator's codes share this prefix (they are its package's, not this one's). */
const COORDINATOR_CODE = /^WEFT_COORDINATOR_[A-Z_]+$/;

function isCoordinatorCode(code: string): code is `WEFT_COORDINATOR_${string}` {
  return COORDINATOR_CODE.test(code);
}

function exposedError(
  id: string,
  code: 'WEFT_QUEUE_FULL' | 'WEFT_SHUTTING_DOWN',
  message: string,
): ServerFrame {
  return { type: 'error', id, code, message, docsUrl: errorDocsUrl(code) };
}

async function finishedWithin(
  done: Promise<AgentTask>,
  ms: number,
): Promise<AgentTask | Error | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  try {
    return await Promise.race([
      done.catch((error: unknown) => (error instanceof Error ? error : new Error(String(error)))),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A close reason within websocket's byte limit, cut at a character boundary. */
function clipReason(reason: string): string {
  let bytes = 0;
  let clipped = '';
  for (const character of reason) {
    bytes += Buffer.byteLength(character, 'utf8');
    if (bytes > MAX_CLOSE_REASON_BYTES) break;
    clipped += character;
  }
  return clipped;
}

function rawText(data: RawData): string {
  if (Array.isArray(data)) return Buffer.concat(data).toString('utf8');
  return Buffer.isBuffer(data) ? data.toString('utf8') : Buffer.from(data).toString('utf8');
}
