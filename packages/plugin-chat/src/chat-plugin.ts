import {
  Plugin,
  WeftError,
  type AgentTask,
  type Context,
  type Executor,
  type RouteResponse,
  type Runtime,
  type Trigger,
  type TriggerRoute,
} from '@weft/core';
import { errorDocsUrl, unstorableText } from '@weft/core/internal';
import { z } from 'zod';
import { ChatAccess, chatSpace, type ChatAccessOptions } from './chat-access.js';
import {
  CHAT_REPLY_TEMPLATE,
  chatReplyExecutor,
  chatReplyPluginIds,
  lastTaskError,
} from './chat-reply.js';
import { ChatPluginError, type ChatPluginErrorCode } from './errors.js';

/**
 * Letters, digits, `_`, `.`, `:` and `-`, starting with a letter or digit. The ids are encoded
 * into the space id by {@link chatSpace}, so `-` inside an id cannot be mistaken for a boundary.
 */
const ID_PATTERN = /^[A-Za-z0-9][\w.:-]*$/;

/**
 * A path express mounts as it is written: `/` and ASCII letters, digits, `-`, `.`, `_` and `~`.
 * Express reads other characters, such as `:`, `*` or `?`, as parts of a pattern.
 */
const LITERAL_PATH = /^\/[A-Za-z0-9._~/-]*$/;

const idSchema = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .min(1, 'must not be empty')
    .max(64, 'must be at most 64 characters')
    .regex(ID_PATTERN, `must be a ${what} id of ASCII letters, digits, '_', '.', ':' or '-'`);

/** Schema of the JSON body of a chat request. */
export const ChatRequestSchema = z.object({
  /** The chat room. */
  room: idSchema('room'),
  /** Who wrote the message. */
  user: idSchema('user'),
  /**
   * What they wrote. A NUL character or a lone UTF-16 surrogate is refused: no memory store
   * can hold it, so the task could store neither the message nor the reply.
   * @claim tsdoc-chat-message-unstorable
   */
  message: z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : 'must be a string') })
    .trim()
    .min(1, 'must not be empty')
    .max(8000, 'must be at most 8000 characters')
    .superRefine((text, context) => {
      const problem = unstorableText(text);
      if (problem !== undefined) context.addIssue({ code: 'custom', message: problem });
    }),
});

/** A validated chat request. */
export type ChatRequest = z.infer<typeof ChatRequestSchema>;

/** What a successful chat request answers. */
export interface ChatResponse {
  /** Id of the task the message became. */
  taskId: string;
  /** The task's final status. */
  status: AgentTask['status'];
  /** The agent's reply. */
  reply: string;
  /**
   * Present only when the task's chain, which holds the reply, could not be stored (the memory
   * provider failed or did not answer in time, so `task.recorded.chain` is `false`): later
   * messages will not see the reply, only, at most, the message it answered (stored when the task
   * started), unless a store that answered late wrote the chain after all. Show it to the user.
   */
  warning?: string;
}

/**
 * The {@link ChatResponse.warning} of a reply whose task's chain was not stored. It speaks of the
 * reply: the message itself was stored when its task started, so later messages may still see it.
 * It says "may": a store that answered after the deadline may have written the reply after all.
 */
export const NOT_REMEMBERED_WARNING =
  'This reply may not have been saved, so the agent may not remember it in later messages.';

/**
 * Options of {@link ChatPlugin}: the route's path, and who may chat as whom, in which room and
 * how much at once (see {@link ChatAccessOptions}, shared with `@weft/plugin-websocket`).
 */
export interface ChatPluginOptions extends ChatAccessOptions {
  /**
   * Path of the POST route that receives messages: `/` and ASCII letters, digits, `-`, `.`, `_`
   * and `~`, taken literally, with no `.` or `..` segment (clients resolve those away before
   * sending) and no leading `//` (clients read it as a URL naming a host). Default `/chat`.
   * @claim tsdoc-chat-path
   */
  path?: string;
  /**
   * Most requests of one connection waiting for their tasks at once: a keep-alive connection
   * may send (pipeline) more requests before the first is answered. More get 429
   * `WEFT_CHAT_TOO_MANY_TASKS`. Default 4, as `@weft/plugin-websocket`'s option of that name.
   */
  maxInFlight?: number;
}

/**
 * Every option the constructor knows, its own and {@link ChatAccessOptions}, checked at compile
 * time against {@link ChatPluginOptions}; any other name, most likely a misspelt one, is refused.
 */
const OPTION_NAMES = Object.keys({
  path: true,
  maxInFlight: true,
  authenticate: true,
  trustClientUser: true,
  roomHistory: true,
  authorizeRoom: true,
  authTimeoutMs: true,
  maxInFlightPerUser: true,
} satisfies Record<keyof ChatPluginOptions, true>);

/**
 * The plugin's id: a pipeline step runs its executor as `{ pluginId: 'chat', action: 'reply' }`,
 * and its prompt template is registered as `chat/reply`.
 */
export const CHAT_PLUGIN_ID = 'chat';

/**
 * A Weft plugin for chatting over HTTP. It mounts a POST route (default `/chat`) that takes
 * `{ room, user, message }`, runs the message as a task in the space {@link chatSpace} builds,
 * and answers `{ taskId, status, reply }`, with a `warning` when the reply could not be stored
 * (see {@link ChatResponse.warning}).
 *
 * Who the sender is comes from your `authenticate` hook, asked for every request: the `user` it
 * names replaces the body's. A body's own `user` is believed only with `trustClientUser: true`;
 * otherwise a request without an authenticated user gets 401 `WEFT_CHAT_UNAUTHORIZED` and no
 * task runs. Planning sees the sender's own earlier messages in the room, not other users',
 * unless `roomHistory` is `'shared'`, which needs an `authorizeRoom` hook saying who may use
 * which room (403 `WEFT_CHAT_ROOM_FORBIDDEN` otherwise). One user has at most
 * `maxInFlightPerUser` messages waiting at once, and one connection `maxInFlight` (429
 * `WEFT_CHAT_TOO_MANY_TASKS` past either).
 *
 * A body that is not `{ room, user, message }` gets 400 `WEFT_CHAT_INVALID_REQUEST` naming the
 * field. When the task ends without a reply it answers 502 `WEFT_CHAT_NO_REPLY` with a generic
 * message and the task id; the cause is in the runtime's log under that id, never in the
 * answer. Its `reply` executor asks the text model for the answer; the pipeline the model plans
 * decides what else runs before it.
 *
 * @example
 * ```ts
 * import { Runtime, type MemoryProvider, type ModelProvider } from '@weft/core';
 * import { ChatPlugin } from '@weft/plugin-chat';
 *
 * // Bearer tokens of your users, mapped to their user ids.
 * declare const tokens: ReadonlyMap<string, string>;
 *
 * async function serve(model: ModelProvider, memory: MemoryProvider) {
 *   const runtime = await Runtime.init({
 *     models: [model],
 *     memory,
 *     plugins: [
 *       new ChatPlugin({
 *         path: '/chat',
 *         authenticate: (request) => {
 *           const token = request.headers.authorization?.replace(/^Bearer /, '') ?? '';
 *           const user = tokens.get(token);
 *           return user === undefined ? false : { user };
 *         },
 *       }),
 *     ],
 *     options: { server: { port: 3000 } },
 *   });
 *   await runtime.start();
 *   // curl -X POST localhost:3000/chat -H 'authorization: Bearer <token>' \
 *   //   -H 'content-type: application/json' \
 *   //   -d '{"room":"42","user":"ada","message":"Hello!"}'
 * }
 * ```
 * @claim tsdoc-chat-codes
 * @claim tsdoc-chat-502
 * @claim tsdoc-chat-warning
 * @claim tsdoc-chat-user-from-auth
 * @claim tsdoc-chat-private
 * @claim tsdoc-chat-per-user-cap
 */
export class ChatPlugin extends Plugin {
  readonly id = CHAT_PLUGIN_ID;
  readonly description =
    'Receives chat messages over HTTP and answers them with a reply written by the text model.';
  override readonly templates: Readonly<Record<string, string>> = { reply: CHAT_REPLY_TEMPLATE };
  override readonly executors: readonly Executor[];
  override readonly triggers: readonly Trigger[];
  /** The path the route is mounted on. */
  readonly path: string;
  /** Who may chat as whom, in which room, and how much at once. */
  readonly access: ChatAccess;
  /** Most requests of one connection waiting for their tasks at once. */
  readonly maxInFlight: number;
  private readonly inFlightByConnection = new WeakMap<object, number>();
  /** The reply steps of the runtime's chat plugins, this one's first, set by `init`. */
  private replySteps: readonly string[] = [];

  /**
   * @param options - The route's path, the hooks that authenticate and authorise, and the
   *   limits.
   * @throws {@link ChatPluginError} `WEFT_CHAT_INVALID_OPTIONS` naming a bad option: an option
   * name it does not know, a path that
   * does not start with `/` or starts with `//`, holds another character than ASCII letters,
   * digits, `-`, `.`, `_`, `~` and `/` or has a `.` or `..` segment, a limit that is not a positive integer, an `authTimeoutMs` over
   * 2147483647, or `roomHistory: 'shared'` without `authorizeRoom`.
   */
  constructor(options: ChatPluginOptions = {}) {
    super();
    const unknown = Object.keys(options).find((name) => !OPTION_NAMES.includes(name));
    if (unknown !== undefined) {
      throw new ChatPluginError(
        'WEFT_CHAT_INVALID_OPTIONS',
        `ChatPlugin: unknown option ${JSON.stringify(unknown)}; the options are ${OPTION_NAMES.join(', ')}.`,
      );
    }
    const path = options.path ?? '/chat';
    if (typeof path !== 'string' || !path.startsWith('/')) {
      throw new ChatPluginError(
        'WEFT_CHAT_INVALID_OPTIONS',
        `ChatPlugin: option "path" must start with "/", got ${JSON.stringify(path)}.`,
      );
    }
    if (path.startsWith('//')) {
      // Browsers, fetch and many clients read `//chat` as a URL of the host `chat`, not as a
      // path of this server, as `@weft/plugin-websocket` refuses it too.
      throw new ChatPluginError(
        'WEFT_CHAT_INVALID_OPTIONS',
        `ChatPlugin: option "path" must not start with "//", which clients read as a protocol-relative URL naming a host, got ${JSON.stringify(path)}.`,
      );
    }
    if (!LITERAL_PATH.test(path)) {
      // Express reads `:`, `*`, `?`, `(` and others as a pattern, and one it cannot read would
      // fail `runtime.start()` with its own error instead of this one.
      throw new ChatPluginError(
        'WEFT_CHAT_INVALID_OPTIONS',
        `ChatPlugin: option "path" must hold only ASCII letters, digits, "-", ".", "_", "~" and "/", got ${JSON.stringify(path)}.`,
      );
    }
    if (path.split('/').some((segment) => segment === '.' || segment === '..')) {
      // Clients (curl, fetch, browsers) resolve such segments before they send a request, so
      // the route would be mounted where no URL they send can reach it.
      throw new ChatPluginError(
        'WEFT_CHAT_INVALID_OPTIONS',
        `ChatPlugin: option "path" must have no "." or ".." segment, which clients resolve away before sending, got ${JSON.stringify(path)}.`,
      );
    }
    this.path = path;
    this.access = new ChatAccess(options, invalidOption);
    this.maxInFlight = options.maxInFlight ?? 4;
    if (!Number.isInteger(this.maxInFlight) || this.maxInFlight <= 0) {
      throw invalidOption('maxInFlight', 'a positive integer', this.maxInFlight);
    }
    this.executors = [chatReplyExecutor(() => this.replySteps)];
    this.triggers = [this.messageRoute()];
  }

  /**
   * Finds the other chat plugins of the runtime (such as `@weft/plugin-websocket`), whose reply
   * steps the reply prompt's history lists beside this one's.
   */
  override async init(runtime: Runtime): Promise<void> {
    this.replySteps = chatReplyPluginIds(runtime.plugins, this.id).map((id) => `${id}/reply`);
  }

  private messageRoute(): TriggerRoute {
    return {
      type: 'route',
      id: 'message',
      method: 'POST',
      path: this.path,
      // Malformed JSON and bare scalars get the chat's own code, like any other invalid body.
      invalidBodyCode: 'WEFT_CHAT_INVALID_REQUEST',
      handler: async (request, response, runtime: Runtime) => {
        const { requestId } = request;
        const { access } = this;
        const logger = runtime.logger;
        // Who is asking comes first: a refused client learns nothing about its body.
        const identity = await access.authenticate(request, requestId, logger);
        if (identity === false) {
          refuse(response, 401, 'WEFT_CHAT_UNAUTHORIZED', 'Not authorised to chat', requestId);
          return;
        }
        if (identity.user === undefined && !access.trustClientUser) {
          logger.warn(
            { requestId, authenticates: access.authenticates },
            'chat: no user for the request: authenticate named none and trustClientUser is off; refused',
          );
          refuse(
            response,
            401,
            'WEFT_CHAT_UNAUTHORIZED',
            'Not authorised to chat: this server does not take the user a request names',
            requestId,
          );
          return;
        }
        // The fields only: whether room and user fit a space together is asked of the sender
        // below, who is not the body's `user` when `authenticate` named another.
        const parsed = parseChatFields(request.body);
        if (!parsed.success) {
          refuse(response, 400, 'WEFT_CHAT_INVALID_REQUEST', parsed.error, requestId);
          return;
        }
        const { room, message } = parsed.data;
        const user = access.userOf(identity.user, parsed.data.user) as string;
        const space = spaceOf(access, room, user);
        if (space === undefined) {
          refuse(response, 400, 'WEFT_CHAT_INVALID_REQUEST', TOO_LONG_TOGETHER, requestId);
          return;
        }
        if (!(await access.mayUseRoom({ user, room }, requestId, logger))) {
          refuse(
            response,
            403,
            'WEFT_CHAT_ROOM_FORBIDDEN',
            `Not allowed to post in room ${JSON.stringify(room)}`,
            requestId,
          );
          return;
        }
        // A connection's requests are counted together: it outlives each of them.
        const { connection } = request;
        const onConnection = this.inFlightByConnection.get(connection) ?? 0;
        const limit =
          onConnection >= this.maxInFlight
            ? `of this connection (at most ${this.maxInFlight})`
            : access.takeSlot(user)
              ? undefined
              : `of this user (at most ${access.maxInFlightPerUser})`;
        if (limit !== undefined) {
          logger.info({ requestId, user, limit }, 'chat: too many messages in flight; refused');
          // Thrown, not answered here: the runtime's server answers it in the same error shape,
          // with the Retry-After it gives every 429 and 503 WeftError.
          throw new ChatPluginError(
            'WEFT_CHAT_TOO_MANY_TASKS',
            `Too many messages ${limit} waiting for replies; wait for a reply, then send this one again`,
            { status: 429 },
          );
        }
        this.inFlightByConnection.set(connection, onConnection + 1);
        let task: AgentTask;
        try {
          task = await runtime.dispatch({
            pluginId: this.id,
            triggerId: 'message',
            space,
            message,
            data: { room, user },
            metadata: { requestId },
          });
        } finally {
          access.releaseSlot(user);
          const left = (this.inFlightByConnection.get(connection) ?? 1) - 1;
          if (left <= 0) this.inFlightByConnection.delete(connection);
          else this.inFlightByConnection.set(connection, left);
        }
        const reply = findReply(task, chatReplyPluginIds(runtime.plugins, this.id));
        if (reply === undefined) {
          // The cause may quote upstream URLs, keys or an executor's internals: it goes to the
          // log under the task id, and the client gets that id to quote.
          runtime.logger.error(
            {
              taskId: task.id,
              requestId,
              status: task.status,
              error: lastTaskError(task) ?? 'the task finished without a reply step',
            },
            'chat: task ended without a reply',
          );
          response.status(502).json({
            taskId: task.id,
            status: task.status,
            error: {
              status: 502,
              code: 'WEFT_CHAT_NO_REPLY',
              message: `No reply: the task ${task.status} without one; the server log has the cause under this taskId`,
              docsUrl: errorDocsUrl('WEFT_CHAT_NO_REPLY'),
              requestId,
            },
          });
          return;
        }
        const body: ChatResponse = {
          taskId: task.id,
          status: task.status,
          reply,
          // As "How a task runs" asks of a trigger that answers a person: say when later tasks
          // will not see this reply. The memory manager has logged the store's failure.
          ...(task.recorded.chain ? {} : { warning: NOT_REMEMBERED_WARNING }),
        };
        response.status(200).json(body);
      },
    };
  }
}

const TOO_LONG_TOGETHER =
  'Invalid chat request: "room" and "user" are too long together: each "-" or "_" in them takes 3 characters of the 200 a space id may have; use shorter ids.';

function refuse(
  response: RouteResponse,
  status: number,
  code: ChatPluginErrorCode,
  message: string,
  requestId: string,
): void {
  response.status(status).json({
    error: { status, code, message, docsUrl: errorDocsUrl(code), requestId },
  });
}

/** The space of a room and user, or `undefined` when the ids are too long together. */
function spaceOf(access: ChatAccess, room: string, user: string) {
  try {
    return access.space(room, user);
  } catch (error) {
    if (!WeftError.is(error, 'WEFT_INVALID_SPACE')) throw error;
    return undefined;
  }
}

function invalidOption(name: string, what: string, value: unknown): ChatPluginError {
  let shown: string;
  try {
    shown = typeof value === 'function' ? 'a function' : (JSON.stringify(value) ?? String(value));
  } catch {
    shown = String(value);
  }
  return new ChatPluginError(
    'WEFT_CHAT_INVALID_OPTIONS',
    `ChatPlugin: option "${name}" must be ${what}, got ${shown}.`,
  );
}

/**
 * Validates a chat request body.
 *
 * @param body - The parsed JSON body.
 * @returns The request, or an error message naming the bad field.
 */
export function parseChatRequest(
  body: unknown,
): { success: true; data: ChatRequest } | { success: false; error: string } {
  const parsed = parseChatFields(body);
  if (!parsed.success) return parsed;
  try {
    chatSpace(parsed.data.room, parsed.data.user);
  } catch (error) {
    if (!WeftError.is(error, 'WEFT_INVALID_SPACE')) throw error;
    return { success: false, error: TOO_LONG_TOGETHER };
  }
  return parsed;
}

/** {@link parseChatRequest} without the check that `room` and `user` fit a space together. */
function parseChatFields(
  body: unknown,
): { success: true; data: ChatRequest } | { success: false; error: string } {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    return {
      success: false,
      error:
        'Invalid chat request: the body must be a JSON object { "room", "user", "message" } sent with content-type application/json.',
    };
  }
  const result = ChatRequestSchema.safeParse(body);
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `"${issue.path.map(String).join('.') || 'body'}" ${issue.message}`,
    );
    return { success: false, error: `Invalid chat request: ${problems.join('; ')}.` };
  }
  return { success: true, data: result.data };
}

/**
 * Finds the text of the last `reply` result of a plugin, or of one of several, in a task's chain.
 *
 * @param task - A finished task.
 * @param pluginIds - The chat plugin's id, or the ids of every chat plugin whose reply counts.
 * @returns The reply text, or `undefined` when no reply step succeeded.
 */
export function findReply(
  task: AgentTask,
  pluginIds: string | readonly string[] = CHAT_PLUGIN_ID,
): string | undefined {
  const ids: readonly string[] = typeof pluginIds === 'string' ? [pluginIds] : pluginIds;
  for (let index = task.chain.length - 1; index >= 0; index -= 1) {
    const item = task.chain[index] as Context;
    if (item.type !== 'result' || !ids.includes(item.pluginId) || item.action !== 'reply') continue;
    const text = (item.data as { text?: unknown } | undefined)?.text;
    if (typeof text === 'string') return text;
  }
  return undefined;
}
