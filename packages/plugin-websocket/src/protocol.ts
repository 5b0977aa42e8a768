/**
 * The JSON frames of the websocket protocol: what a client may send (checked with zod, so a bad
 * frame is answered with the field that was wrong) and what the server sends back.
 */
import { chatSpace, ChatRequestSchema } from '@weft/plugin-chat';
import { WeftError, type AgentTask } from '@weft/core';
import { z } from 'zod';
import type { WebSocketPluginErrorCode } from './errors.js';

/**
 * The client's request id: echoed in every frame about the message, so replies can be matched.
 * @claim tsdoc-ws-message-id
 */
const RequestIdSchema = z
  .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty')
  .max(64, 'must be at most 64 characters');

/**
 * A chat message from the client: `{ "type": "message", "id", "room", "user", "message" }`.
 * `room`, `user` and `message` follow the rules of `@weft/plugin-chat`'s HTTP route, so both
 * transports accept the same messages and write into the same spaces.
 */
export const MessageFrameSchema = ChatRequestSchema.extend({
  /** The frame's type. */
  type: z.literal('message', { error: 'must be "message"' }),
  /** The client's id for this message, up to 64 characters. */
  id: RequestIdSchema,
});

/** A validated `message` frame. */
export type MessageFrame = z.infer<typeof MessageFrameSchema>;

/** The server acknowledges a message: its task is queued. */
export interface AcceptedFrame {
  type: 'accepted';
  /** The client's id of the message. */
  id: string;
  /** The task the message became. */
  taskId: string;
}

/** The agent's answer to a message. */
export interface ReplyFrame {
  type: 'reply';
  /** The client's id of the message. */
  id: string;
  /** The task the message became. */
  taskId: string;
  /** The task's final status. */
  status: AgentTask['status'];
  /** The agent's reply. */
  reply: string;
  /**
   * Present only when the task's chain, which holds the reply, could not be stored: later
   * messages will not see the reply (the message itself was stored when its task started). Show
   * it to the user.
   */
  warning?: string;
}

/** Something went wrong with a frame or its task; the connection stays open. */
export interface ErrorFrame {
  type: 'error';
  /**
   * The client's id of the message, or `null` when the frame had no readable id.
   * @claim tsdoc-ws-error-frame-id
   */
  id: string | null;
  /**
   * What went wrong: a `WEFT_WS_*` code, the core's code when its queue is full or the runtime
   * is stopping, or a coordinator's 503 code while it cannot take work (each: try again later).
   */
  code:
    | WebSocketPluginErrorCode
    | 'WEFT_QUEUE_FULL'
    | 'WEFT_SHUTTING_DOWN'
    | `WEFT_COORDINATOR_${string}`;
  /** What went wrong, without the server's internals. */
  message: string;
  /** The code's section of the errors reference. */
  docsUrl: string;
  /** The task, when the message became one. */
  taskId?: string;
  /** The id the server logged the cause under, when it logged one. */
  requestId?: string;
}

/** Every frame the server sends. */
export type ServerFrame = AcceptedFrame | ReplyFrame | ErrorFrame;

/**
 * Reads one text frame from a client.
 *
 * @param text - The frame's text.
 * @param sender - The user the server takes the frame to be from: the one `authenticate` named
 *   for the connection, which replaces the frame's own `user`. The frame's `room` must fit a
 *   space id together with this user. Left out, the frame's `user` is the sender, as on a server
 *   with `trustClientUser` whose `authenticate` named no one.
 * @returns The message, or an error naming what was wrong and the frame's id when it had one.
 */
export function parseClientFrame(
  text: string,
  sender?: string,
): { success: true; frame: MessageFrame } | { success: false; id: string | null; error: string } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { success: false, id: null, error: 'Invalid frame: it is not JSON.' };
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) {
    return {
      success: false,
      id: null,
      error:
        'Invalid frame: it must be a JSON object { "type": "message", "id", "room", "user", "message" }.',
    };
  }
  const rawId = (json as { id?: unknown }).id;
  const id = RequestIdSchema.safeParse(rawId).success ? (rawId as string) : null;
  const result = MessageFrameSchema.safeParse(json);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `"${issue.path.map(String).join('.') || 'frame'}" ${issue.message}`,
    );
    return { success: false, id, error: `Invalid frame: ${problems.join('; ')}.` };
  }
  // The one rule the schema cannot state: the room must fit a space id with the sender, who is
  // not the frame's `user` when `authenticate` named another (that `user` is then ignored).
  const frame = result.data;
  try {
    chatSpace(frame.room, sender ?? frame.user);
  } catch (error) {
    if (!WeftError.is(error, 'WEFT_INVALID_SPACE')) throw error;
    return {
      success: false,
      id,
      error: sender === undefined ? TOO_LONG_TOGETHER : ROOM_TOO_LONG_FOR_SENDER,
    };
  }
  return { success: true, frame };
}

/** The frame's own room and user do not fit a space id together. */
const TOO_LONG_TOGETHER =
  'Invalid frame: "room" and "user" are too long together: each "-" or "_" in them takes 3 characters of the 200 a space id may have; use shorter ids.';

/** The frame's room does not fit a space id with the user `authenticate` named. */
export const ROOM_TOO_LONG_FOR_SENDER =
  'Invalid frame: "room" is too long for this user: each "-" or "_" takes 3 characters of the 200 a space id may have; use a shorter room id.';
