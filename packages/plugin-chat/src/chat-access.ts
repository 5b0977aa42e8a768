/**
 * Who may chat, as whom, in which room, and how much at once: the rules both chat transports
 * (`ChatPlugin` over HTTP, `@weft/plugin-websocket`) apply with the same option names, so a
 * message gets the same treatment whichever way it arrived.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { spaceId, type Runtime, type Space } from '@weft/core';
import { describeError, MAX_TIMER_MS, TIMER_LIMIT_RULE } from '@weft/core/internal';

/**
 * What an `authenticate` hook answers: `false` refuses the client, `true` accepts it without
 * naming a user (its messages' `user` is then used only with `trustClientUser: true`), and
 * `{ user }` accepts it as that user, whose id replaces the `user` every message of the client
 * names.
 * @claim tsdoc-chat-authenticate-result
 */
export type AuthenticateResult = boolean | { user: string };

/**
 * Whose earlier messages the model sees when it plans a message in a room: `'private'`, only
 * the sender's own; `'shared'`, every user's of that room.
 */
export type RoomHistory = 'private' | 'shared';

/**
 * What an `authenticate` hook reads of a client: the request of a chat message over HTTP (the
 * core's `RouteRequest`), or the upgrade request of a websocket (Node's `IncomingMessage`).
 */
export interface ChatClientRequest {
  /** The request headers, with lower-case names, such as `authorization`. */
  readonly headers: IncomingHttpHeaders;
  /** The path and query string the client asked for, such as `/chat?token=...`. */
  readonly url?: string;
  /**
   * Over HTTP, what your middleware on the runtime's express application put in
   * `response.locals`, such as the user it authenticated; absent for a websocket.
   */
  readonly locals?: Readonly<Record<string, unknown>>;
}

/** A user asking to post in a room, as the `authorizeRoom` hook is asked about it. */
export interface RoomAccess {
  /** The user the message runs as: the one `authenticate` named, or the trusted message's. */
  user: string;
  /** The room the message names. */
  room: string;
}

/**
 * The options both chat plugins take to decide who may chat, as whom and in which room, and
 * how many messages of one user may wait at once. Times are milliseconds.
 */
export interface ChatAccessOptions {
  /**
   * Decides from the request (its headers and URL) whether to take a client, and as which user:
   * see {@link AuthenticateResult}. The HTTP plugin asks it for every request, the websocket
   * plugin once per connection, before the upgrade, and again every `reauthenticateMs` when that
   * is set. Default: none.
   * @claim tsdoc-chat-authenticate-when
   */
  authenticate?: (request: ChatClientRequest) => AuthenticateResult | Promise<AuthenticateResult>;
  /**
   * Whether the `user` a message names is taken as is when `authenticate` named no user. Without
   * it such a client is refused (401): anyone who can reach the endpoint could otherwise write
   * as any user and, with shared rooms, read through the model what others wrote. Turn it on
   * only when something in front of the plugin already vouches for the user (your own
   * middleware, a trusted backend, a local tool). Default `false`.
   * @claim tsdoc-chat-trust-default
   * @claim tsdoc-chat-trust-default-value
   */
  trustClientUser?: boolean;
  /**
   * Whose earlier messages the model sees when it plans a message: `'private'`, the sender's
   * own in that room; `'shared'`, everyone's in that room, which needs `authorizeRoom` (a room's
   * name is no secret). Default `'private'`.
   * @claim tsdoc-chat-room-history-default
   */
  roomHistory?: RoomHistory;
  /**
   * Decides whether a user may post in a room, asked for every message after the user is
   * known. `false`, an exception or no answer within `authTimeoutMs` refuses the message.
   * Required when `roomHistory` is `'shared'`; default otherwise: every room.
   * @claim tsdoc-chat-authorize-room
   * @claim tsdoc-chat-authorize-required
   */
  authorizeRoom?: (access: RoomAccess) => boolean | Promise<boolean>;
  /**
   * Longest wait for `authenticate` and for `authorizeRoom`; past it the client is refused. Default
   * 5000; at most 2147483647 (about 24.8 days), the longest delay a Node.js timer keeps.
   * @claim tsdoc-chat-auth-timeout-default
   * @claim tsdoc-chat-auth-timeout-max
   */
  authTimeoutMs?: number;
  /**
   * Most messages of one user waiting for their tasks to end at once, counted in this process
   * across all the user's requests or connections to the plugin; more are refused until one
   * ends. Each plugin keeps its own count: with `ChatPlugin` and `WebSocketPlugin` in one
   * runtime, a user may have this many messages waiting on each. Default 8.
   * @claim tsdoc-chat-per-user-default
   * @claim tsdoc-chat-per-user
   * @claim tsdoc-chat-per-user-apart
   */
  maxInFlightPerUser?: number;
}

/** The defaults of {@link ChatAccessOptions}. */
export const CHAT_ACCESS_DEFAULTS = {
  trustClientUser: false,
  roomHistory: 'private',
  authTimeoutMs: 5_000,
  maxInFlightPerUser: 8,
} as const satisfies ChatAccessOptions;

/**
 * Letters, digits, `_`, `.`, `:` and `-`, starting with a letter or digit, at most 64: the ids a
 * message's `room` and `user` may be, and so the users `authenticate` may name.
 */
export const CHAT_ID_PATTERN = /^[A-Za-z0-9][\w.:-]{0,63}$/;

/**
 * The space a chat message runs in: `chat-room-{room}-user-{user}`, built with core's
 * `spaceId` so that `-` and `_` inside the ids are escaped (`r42-user-alice` becomes
 * `r42_2duser_2dalice`) and no two (room, user) pairs share a space. With private history (the
 * default) it has no related spaces, so planning sees the sender's own earlier messages in the
 * room only; with shared history its related spaces are the room's own space and every user's
 * space of the same room, and no other room's.
 *
 * @param room - The room id.
 * @param user - The user id.
 * @param roomHistory - Whether the room's other users' messages are related. Default `'private'`.
 * @returns The space, to dispatch into or to query memory with.
 * @throws WeftError `WEFT_INVALID_SPACE` (status 400) when the ids are empty or the encoded
 * space id would be longer than 200 characters.
 *
 * @example
 * ```ts
 * import type { MemoryManager } from '@weft/core';
 * import { chatSpace } from '@weft/plugin-chat';
 *
 * async function roomHistory(memory: MemoryManager, room: string) {
 *   const { relatedSpaces = [] } = chatSpace(room, 'anyone', 'shared');
 *   return memory.query({ spacePatterns: relatedSpaces, limit: 50 });
 * }
 * ```
 * @claim tsdoc-chat-space-private
 */
export function chatSpace(room: string, user: string, roomHistory: RoomHistory = 'private'): Space {
  const id = spaceId('chat', 'room', room, 'user', user);
  if (roomHistory !== 'shared') return { id, relatedSpaces: [] };
  return {
    id,
    relatedSpaces: [spaceId('chat', 'room', room), `${spaceId('chat', 'room', room, 'user')}-*`],
  };
}

type Logger = Runtime['logger'] | undefined;

/**
 * The access rules of one chat plugin, built from its {@link ChatAccessOptions}: who the user of
 * a message is, whether they may use its room, the space it runs in, and the count of each
 * user's messages in flight. `ChatPlugin` and `WebSocketPlugin` both use it; a chat transport
 * of your own can too.
 */
export class ChatAccess {
  /** Whether a message's own `user` is taken when `authenticate` named none. */
  readonly trustClientUser: boolean;
  /** Whose earlier messages planning sees. */
  readonly roomHistory: RoomHistory;
  /** Longest wait for each hook. */
  readonly authTimeoutMs: number;
  /** Most messages of one user in flight. */
  readonly maxInFlightPerUser: number;
  private readonly authenticateHook: ChatAccessOptions['authenticate'];
  private readonly authorizeRoomHook: ChatAccessOptions['authorizeRoom'];
  private readonly inFlight = new Map<string, number>();

  /**
   * @param options - The plugin's options.
   * @param invalid - Builds the plugin's own options error, naming the option, what it must be
   *   and the value given.
   * @throws The error `invalid` builds, for the first bad option.
   */
  constructor(
    options: ChatAccessOptions,
    invalid: (name: string, what: string, value: unknown) => Error,
  ) {
    const given = options ?? {};
    this.trustClientUser = given.trustClientUser ?? CHAT_ACCESS_DEFAULTS.trustClientUser;
    if (typeof this.trustClientUser !== 'boolean') {
      throw invalid('trustClientUser', 'true or false', this.trustClientUser);
    }
    this.roomHistory = given.roomHistory ?? CHAT_ACCESS_DEFAULTS.roomHistory;
    if (this.roomHistory !== 'private' && this.roomHistory !== 'shared') {
      throw invalid('roomHistory', "'private' or 'shared'", this.roomHistory);
    }
    for (const name of ['authTimeoutMs', 'maxInFlightPerUser'] as const) {
      const value = given[name] ?? CHAT_ACCESS_DEFAULTS[name];
      if (!Number.isInteger(value) || value <= 0) throw invalid(name, 'a positive integer', value);
    }
    if (given.authTimeoutMs !== undefined && given.authTimeoutMs > MAX_TIMER_MS) {
      // A longer timer fires after 1 ms, which would refuse every client at once.
      throw invalid('authTimeoutMs', TIMER_LIMIT_RULE, given.authTimeoutMs);
    }
    this.authTimeoutMs = given.authTimeoutMs ?? CHAT_ACCESS_DEFAULTS.authTimeoutMs;
    this.maxInFlightPerUser = given.maxInFlightPerUser ?? CHAT_ACCESS_DEFAULTS.maxInFlightPerUser;
    for (const name of ['authenticate', 'authorizeRoom'] as const) {
      if (given[name] !== undefined && typeof given[name] !== 'function') {
        throw invalid(name, 'a function', given[name]);
      }
    }
    if (this.roomHistory === 'shared' && given.authorizeRoom === undefined) {
      // A room's name is no secret: shared history without a say on who joins is the leak.
      throw invalid(
        'authorizeRoom',
        "a function when roomHistory is 'shared' (it decides who may read a room through the model; pass () => true only if every user may read every room)",
        given.authorizeRoom,
      );
    }
    this.authenticateHook = given.authenticate;
    this.authorizeRoomHook = given.authorizeRoom;
  }

  /** Whether an `authenticate` hook was given. */
  get authenticates(): boolean {
    return this.authenticateHook !== undefined;
  }

  /**
   * Asks `authenticate` about a request, under `authTimeoutMs`. Without a hook the client is
   * accepted without a user.
   *
   * @param request - The HTTP request or websocket upgrade request.
   * @param requestId - Logged with a failure.
   * @param logger - Where a hook that throws, hangs or answers nonsense is logged.
   * @returns `false` to refuse, or the user the hook named (`undefined` when it named none).
   */
  async authenticate(
    request: ChatClientRequest,
    requestId: string,
    logger: Logger,
  ): Promise<false | { user: string | undefined }> {
    const hook = this.authenticateHook;
    if (hook === undefined) return { user: undefined };
    const verdict: unknown = await this.withinDeadline(
      () => hook(request),
      'authenticate',
      requestId,
      logger,
    );
    // The hook threw or hung (logged already), or refused.
    if (verdict === HOOK_FAILED || verdict === false) return false;
    if (verdict === true) return { user: undefined };
    let named: string | undefined;
    try {
      named = namedUser(verdict);
    } catch (error) {
      // An answer that throws as it is read (a getter, a Proxy) failed like a hook that throws.
      logHookThrew(logger, requestId, 'authenticate', error);
      return false;
    }
    if (named !== undefined) {
      if (CHAT_ID_PATTERN.test(named)) return { user: named };
      logger?.error(
        { requestId, user: named.slice(0, 100) },
        'chat: authenticate named a user that is not a valid id (ASCII letters, digits, _ . : -, starting with a letter or digit, at most 64); client refused',
      );
      return false;
    }
    // An answer of nothing (a hook that forgot its `return`) is logged too: its client is
    // refused like any other answer that is not one of the three.
    logger?.error(
      { requestId, answered: typeof verdict },
      'chat: authenticate must answer true, false or { user }; client refused',
    );
    return false;
  }

  /**
   * The user a message runs as: the one `authenticate` named, else, with `trustClientUser`,
   * the one the message names.
   *
   * @param authenticated - The user `authenticate` named.
   * @param claimed - The `user` of the message.
   * @returns The user, or `undefined` when the client may not name one itself.
   */
  userOf(authenticated: string | undefined, claimed: string): string | undefined {
    if (authenticated !== undefined) return authenticated;
    return this.trustClientUser ? claimed : undefined;
  }

  /**
   * Asks `authorizeRoom` whether a user may post in a room, under `authTimeoutMs`.
   *
   * @returns Whether they may; always `true` without the hook.
   */
  async mayUseRoom(access: RoomAccess, requestId: string, logger: Logger): Promise<boolean> {
    const hook = this.authorizeRoomHook;
    if (hook === undefined) return true;
    return (
      (await this.withinDeadline(() => hook({ ...access }), 'authorizeRoom', requestId, logger)) ===
      true
    );
  }

  /**
   * The space a user's message in a room runs in, with the plugin's room history.
   *
   * @throws WeftError `WEFT_INVALID_SPACE` when the ids are too long together.
   */
  space(room: string, user: string): Space {
    return chatSpace(room, user, this.roomHistory);
  }

  /**
   * Takes one of a user's `maxInFlightPerUser` slots.
   *
   * @returns `false`, taking nothing, when the user has none free.
   */
  takeSlot(user: string): boolean {
    const used = this.inFlight.get(user) ?? 0;
    if (used >= this.maxInFlightPerUser) return false;
    this.inFlight.set(user, used + 1);
    return true;
  }

  /** How many messages of a user are in flight now. */
  inFlightOf(user: string): number {
    return this.inFlight.get(user) ?? 0;
  }

  /** Gives back a slot {@link ChatAccess.takeSlot} took. */
  releaseSlot(user: string): void {
    const used = this.inFlight.get(user) ?? 0;
    if (used <= 1) this.inFlight.delete(user);
    else this.inFlight.set(user, used - 1);
  }

  private async withinDeadline<T>(
    call: () => T | Promise<T>,
    hook: string,
    requestId: string,
    logger: Logger,
  ): Promise<T | typeof HOOK_FAILED> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), this.authTimeoutMs);
    });
    try {
      const verdict = await Promise.race([Promise.resolve().then(call), timedOut]);
      if (verdict === 'timeout') {
        logger?.warn(
          { requestId, timeoutMs: this.authTimeoutMs },
          `chat: ${hook} did not answer in time; refused`,
        );
        return HOOK_FAILED;
      }
      return verdict;
    } catch (error) {
      logHookThrew(logger, requestId, hook, error);
      return HOOK_FAILED;
    } finally {
      clearTimeout(timer);
    }
  }
}

/**
 * Logs a hook that threw (or whose answer threw as it was read). Its error may name keys or back
 * ends: it goes to the log, and the client is only refused.
 */
function logHookThrew(logger: Logger, requestId: string, hook: string, error: unknown): void {
  logger?.error({ requestId, error: describeError(error) }, `chat: ${hook} threw; refused`);
}

/** What a hook that threw or did not answer in time counts as; it was logged already. */
const HOOK_FAILED: unique symbol = Symbol('hook failed');

/** The user an `authenticate` answer of the `{ user }` form names, if it has that form. */
function namedUser(verdict: unknown): string | undefined {
  if (typeof verdict !== 'object' || verdict === null) return undefined;
  const { user } = verdict as { user?: unknown };
  return typeof user === 'string' ? user : undefined;
}
