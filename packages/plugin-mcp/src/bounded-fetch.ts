/**
 * A fetch for the streamable HTTP transport that bounds every answer a server sends, in bytes
 * and in time, so a server cannot make the agent hold an endless answer in memory or keep a
 * connection open forever. The SDK's stdio transport has its own limit (`maxBufferSize`); this
 * is the HTTP side's.
 */

import { setMaxListeners } from 'node:events';

/**
 * The message of the error a too-large answer's read fails with. The connection learns of the
 * cut from `onCut`, not from this text, which only tells a reader of the log what happened.
 * @claim tsdoc-mcp-oversized-message
 */
export const OVERSIZED_MESSAGE = 'MCP answer exceeded the byte limit';

/** Why an answer was cut. */
export type CutReason =
  /** A POST answer passed `maxBytes` in all. */
  | 'size'
  /** One server-sent event passed `maxEventBytes`. */
  | 'event-size'
  /** A POST answer was not complete within `answerDeadlineMs`. */
  | 'deadline'
  /** The background stream (GET) sent nothing for `streamIdleMs`. */
  | 'idle'
  /** The background stream (GET) was open for `streamLifetimeMs`. */
  | 'lifetime';

/** What {@link boundedFetch} tells its caller about a cut. */
export interface StreamCut {
  readonly method: string;
  readonly reason: CutReason;
  /** The limit that was passed: bytes for the sizes, milliseconds for the times. */
  readonly limit: number;
  /**
   * The JSON-RPC ids of the requests a POST carried, whose answers the cut dropped: what ties a
   * cut answer to its call when several calls wait on one server. Absent for the background
   * stream, and for a POST whose body is not a JSON-RPC request.
   */
  readonly requestIds?: readonly (string | number)[];
}

/**
 * The ids of the JSON-RPC requests in a POST's body (one message, or a batch).
 *
 * @param body - The body the transport sent: the SDK sends a JSON string.
 * @returns The ids, empty for a body that holds no request.
 */
export function requestIdsOf(body: RequestInit['body']): (string | number)[] {
  if (typeof body !== 'string') return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return [];
  }
  const ids: (string | number)[] = [];
  for (const message of Array.isArray(parsed) ? parsed : [parsed]) {
    const { id, method } = (message ?? {}) as { id?: unknown; method?: unknown };
    if (typeof method === 'string' && (typeof id === 'string' || typeof id === 'number')) {
      ids.push(id);
    }
  }
  return ids;
}

/** The bounds of {@link boundedFetch}. */
export interface FetchBounds {
  /** The most bytes one answer to a POST (the answers to calls) may have. */
  readonly maxBytes: number;
  /** The most bytes of one server-sent event, on any stream: an endless event is cut here. */
  readonly maxEventBytes: number;
  /** How long an answer to a POST may take, headers and body, before it is cut. */
  readonly answerDeadlineMs: number;
  /** How long the background stream (GET) may stay silent, headers included, before it is cut. */
  readonly streamIdleMs: number;
  /** How long the background stream (GET) may stay open; the SDK opens a new one after a cut. */
  readonly streamLifetimeMs: number;
  /**
   * The least time between two openings of the background stream, and the wait before opening
   * it again after a cut or a stream that ended within this time; that wait doubles with each
   * such stream in a row, up to 64 times this, so a server that floods every new stream, or ends
   * it at once asking to be reopened, is not asked again and again.
   * @claim tsdoc-mcp-bounded-fetch-reopen
   */
  readonly reopenDelayMs: number;
}

/** Counts the bytes of the server-sent event being received, resetting at each blank line. */
class EventSizer {
  private eventBytes = 0;
  private lineBytes = 0;
  private lastWasCr = false;

  /** Adds a chunk; returns false once the current event is larger than `limit`. */
  add(chunk: Uint8Array, limit: number): boolean {
    for (const byte of chunk) {
      if (byte === 0x0a && this.lastWasCr) {
        // The LF of a CRLF: the CR already ended the line.
        this.lastWasCr = false;
        continue;
      }
      this.lastWasCr = byte === 0x0d;
      if (byte === 0x0a || byte === 0x0d) {
        if (this.lineBytes === 0) this.eventBytes = 0;
        this.lineBytes = 0;
        continue;
      }
      this.lineBytes += 1;
      this.eventBytes += 1;
      if (this.eventBytes > limit) return false;
    }
    return true;
  }
}

/**
 * The body of one answer, read through the bounds: the stream errors (and the server's is
 * cancelled) at the first bound passed, after `onCut` was told.
 */
function boundedBody(
  body: ReadableStream<Uint8Array>,
  method: string,
  bounds: FetchBounds,
  release: () => void,
  onCut: (cut: StreamCut) => void,
  onEnd: () => void,
  onBroken: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const isStream = method === 'GET';
  const events = new EventSizer();
  let received = 0;
  let finished = false;
  let idle: NodeJS.Timeout | undefined;
  let lifetime: NodeJS.Timeout | undefined;
  let controllerRef: ReadableStreamDefaultController<Uint8Array> | undefined;

  const stopTimers = () => {
    clearTimeout(idle);
    clearTimeout(lifetime);
    release();
  };
  const cut = (reason: CutReason, limit: number, message: string) => {
    if (finished) return;
    finished = true;
    stopTimers();
    onCut({ method, reason, limit });
    controllerRef?.error(new Error(message));
    reader.cancel().catch(() => undefined);
  };
  const armIdle = () => {
    if (!isStream) return;
    clearTimeout(idle);
    idle = setTimeout(
      () => cut('idle', bounds.streamIdleMs, `MCP stream silent for ${bounds.streamIdleMs} ms`),
      bounds.streamIdleMs,
    );
  };

  return new ReadableStream<Uint8Array>({
    start(controller) {
      controllerRef = controller;
      if (!isStream) return;
      lifetime = setTimeout(
        () =>
          cut(
            'lifetime',
            bounds.streamLifetimeMs,
            `MCP stream open for ${bounds.streamLifetimeMs} ms`,
          ),
        bounds.streamLifetimeMs,
      );
      armIdle();
    },
    async pull(controller) {
      let result: Awaited<ReturnType<typeof reader.read>>;
      try {
        result = await reader.read();
      } catch (error) {
        if (finished) return;
        finished = true;
        stopTimers();
        onBroken();
        controller.error(error);
        return;
      }
      if (finished) return;
      if (result.done) {
        finished = true;
        stopTimers();
        onEnd();
        controller.close();
        return;
      }
      const chunk = result.value;
      received += chunk.byteLength;
      if (!isStream && received > bounds.maxBytes) {
        cut('size', bounds.maxBytes, OVERSIZED_MESSAGE);
        return;
      }
      if (!events.add(chunk, bounds.maxEventBytes)) {
        cut('event-size', bounds.maxEventBytes, `MCP event exceeded ${bounds.maxEventBytes} bytes`);
        return;
      }
      armIdle();
      controller.enqueue(chunk);
    },
    cancel(reason) {
      finished = true;
      stopTimers();
      return reader.cancel(reason);
    },
  });
}

/** Waits `ms`, or rejects when `signal` aborts first. */
function pause(ms: number, signal: AbortSignal | null | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Wraps `fetch` so that every answer is bounded: the answer to a POST errors past `maxBytes`
 * in all or after `answerDeadlineMs`; the background stream (GET) after `streamIdleMs` of
 * silence or `streamLifetimeMs` in all; any server-sent event past `maxEventBytes`. Each cut
 * calls `onCut` before the read fails; the connection then fails the call (POST), or the SDK
 * opens the background stream again (GET), which this fetch delays after each cut.
 *
 * A POST answer whose body breaks for another reason (the server went away in the middle of it)
 * calls `onLost`: the SDK only reports that to its `onerror`, leaving the call waiting.
 *
 * @param bounds - The limits.
 * @param onCut - Called when an answer is cut, before the read fails.
 * @param onLost - Called when a POST answer's body breaks without a cut, before the read fails.
 * @claim tsdoc-mcp-bounded-fetch-post
 * @claim tsdoc-mcp-bounded-fetch-get
 * @claim tsdoc-mcp-bounded-fetch-callback
 * @claim tsdoc-mcp-bounded-fetch-lost
 */
export function boundedFetch(
  bounds: FetchBounds,
  onCut: (cut: StreamCut) => void,
  onLost: () => void = () => undefined,
): (url: string | URL, init?: RequestInit) => Promise<Response> {
  let cutsInARow = 0;
  let lastStreamAt = Number.NEGATIVE_INFINITY;
  const track = (cut: StreamCut) => {
    if (cut.method === 'GET') {
      // A flood earns a longer wait before the next stream; a quiet or old stream does not.
      cutsInARow = cut.reason === 'event-size' ? cutsInARow + 1 : 0;
    }
    onCut(cut);
  };
  return async (url, init) => {
    const method = (init?.method ?? 'GET').toUpperCase();
    const requestIds = method === 'POST' ? requestIdsOf(init?.body) : [];
    const trackThis = (cut: StreamCut) =>
      track(requestIds.length > 0 ? { ...cut, requestIds } : cut);
    if (method === 'GET') {
      // Streams are opened at most once per reopenDelayMs, and ever more slowly after floods or
      // streams that ended at once: a server's `retry: 0` cannot make the client spin.
      const backoff = cutsInARow > 0 ? bounds.reopenDelayMs * 2 ** Math.min(cutsInARow - 1, 6) : 0;
      const gap = bounds.reopenDelayMs - (performance.now() - lastStreamAt);
      const wait = Math.max(backoff, gap);
      if (wait > 0) await pause(wait, init?.signal);
      lastStreamAt = performance.now();
    }
    const openedAt = performance.now();
    // A POST's deadline covers its headers and its body (aborting the fetch ends both); the
    // stream's headers get the idle bound, and its body the bounds of boundedBody.
    const waitMs = method === 'GET' ? bounds.streamIdleMs : bounds.answerDeadlineMs;
    const giveUp = new AbortController();
    const deadline = setTimeout(() => {
      trackThis({ method, reason: method === 'GET' ? 'idle' : 'deadline', limit: waitMs });
      giveUp.abort(new Error(`MCP server did not answer within ${waitMs} ms`));
      release();
    }, waitMs);
    // The caller's signal (the transport closing) aborts too. A listener, removed once the
    // answer is over, rather than AbortSignal.any: the transport's signal lives for the whole
    // connection, and every request would leave a signal hanging on it.
    const callerSignal = init?.signal ?? undefined;
    // Each request in flight holds one listener, so more than ten at once (calls, and the
    // answers to a server's requests) is expected: Node.js's leak warning would be a false alarm.
    if (callerSignal) setMaxListeners(0, callerSignal);
    const forward = () => giveUp.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forward();
    else callerSignal?.addEventListener('abort', forward, { once: true });
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      clearTimeout(deadline);
      callerSignal?.removeEventListener('abort', forward);
    };
    let response: Response;
    try {
      response = await fetch(url, { ...init, signal: giveUp.signal });
    } catch (error) {
      release();
      throw error;
    }
    // The stream's header wait is over; its body has the bounds of boundedBody.
    if (method === 'GET') clearTimeout(deadline);
    if (response.body === null) {
      release();
      return response;
    }
    const onEnd = () => {
      // A stream that ended soon after it opened counts as a flood does.
      if (method === 'GET') {
        cutsInARow = performance.now() - openedAt < bounds.reopenDelayMs ? cutsInARow + 1 : 0;
      }
    };
    const onBroken = () => {
      // A break this fetch caused (its deadline) or the caller asked for (the transport closing)
      // is not the server going away.
      if (method === 'POST' && !giveUp.signal.aborted) onLost();
    };
    return new Response(
      boundedBody(response.body, method, bounds, release, trackThis, onEnd, onBroken),
      {
        status: response.status,
        statusText: response.statusText,
        headers: response.headers,
      },
    );
  };
}
