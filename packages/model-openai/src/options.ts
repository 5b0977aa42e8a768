import type { Resolvable } from '@weft/core';
import { MAX_TIMER_MS, TIMER_LIMIT_RULE } from '@weft/core/internal';
import { z } from 'zod';
import { OpenAIModelProviderError } from './errors.js';

/**
 * Options of {@link OpenAIModelProvider}. Only `baseUrl` and `model` are required.
 */
export interface OpenAIModelProviderOptions {
  /**
   * Id of this provider instance, used in error messages and to pick the provider per call.
   * Give each instance its own id when you register several. Default: `'openai'`.
   * @claim tsdoc-openai-default-id
   */
  id?: string;
  /**
   * The API's base URL, up to and including the version segment, such as
   * `https://api.openai.com/v1` or `http://localhost:11434/v1`. A trailing slash is ignored; a
   * user name or password, a query or a fragment in it is refused, since no request could use it.
   * @claim tsdoc-openai-baseurl-plain
   */
  baseUrl: string;
  /**
   * The API key, sent as `Authorization: Bearer <key>`, without the white space around it (line
   * breaks included), given directly or by a function. A function is called once per call,
   * before its first attempt (its retries reuse the key), and once per `checkHealth()`, so a
   * rotated secret is picked up; cache inside it if reading is expensive. Its reading counts
   * against the call's `totalTimeoutMs` (the health check's `timeoutMs`): a key that has not come
   * by then fails the call with `WEFT_OPENAI_TIMEOUT`, and one still awaited when the call's
   * signal fires, with `WEFT_OPENAI_ABORTED`; the function is not called when the signal has
   * already fired. A function that throws, or resolves to something other than a string or to a
   * key with a control character other than a tab (a line break, a NUL, an escape) or a character
   * beyond Latin-1 such as € (which no header can carry; the message does not show it), fails the
   * call with `WEFT_OPENAI_API_KEY`, without a request; a function that resolves to an
   * empty string (an unset environment variable) or to white space alone (an empty key file read
   * with its line break) sends no `Authorization` header, whereas such a string or such a key
   * given directly is refused by the constructor. Leave it out for servers
   * that need no key (Ollama, LM Studio, a local vLLM). Default: none.
   * @claim tsdoc-openai-api-key
   */
  apiKey?: Resolvable<string>;
  /** The model name the API knows, such as `gpt-4o-mini` or `llama3.1:8b`. */
  model: string;
  /**
   * How long one attempt may take, from sending the request to receiving the whole answer, in
   * milliseconds. Default: `30000`.
   * @claim tsdoc-openai-default-timeout-ms
   */
  timeoutMs?: number;
  /**
   * How many times a request is retried after a 429, a 5xx, a timeout or a network failure.
   * `0` disables retrying. Default: `2` (so at most 3 attempts).
   * @claim tsdoc-openai-default-max-retries
   */
  maxRetries?: number;
  /**
   * The wait after the first failed attempt, in milliseconds; it doubles with each further
   * attempt, with random jitter, up to 10 s. A `Retry-After` header from the server takes
   * precedence, also capped at 10 s. Default: `500`.
   * @claim tsdoc-openai-default-retry-base-delay-ms
   */
  retryBaseDelayMs?: number;
  /**
   * The most time one call may take, in milliseconds, from its start: the reading of a function
   * `apiKey`, all attempts and the waits between them together; a call that reaches it fails with
   * `WEFT_OPENAI_TIMEOUT`, but for an attempt it cuts short whose answer, a 4xx other than 429, a
   * 3xx or a status from 600 to 999, was still arriving: that status fails the call with `WEFT_OPENAI_HTTP_STATUS`, as it
   * always does. With the defaults,
   * 3 attempts of up to 30 s plus waits of up to 0.5 s and 1 s could take 91.5 s, so this
   * deadline is what bounds the worst case: one call holds its task at most 60 s once the
   * provider starts it (inside a task, a wait for a slot of the provider's bulkhead comes first).
   * Default: `60000`.
   * @claim tsdoc-openai-default-total-timeout-ms
   */
  totalTimeoutMs?: number;
  /**
   * The largest answer read, in bytes; a larger one is abandoned as soon as it passes the limit,
   * or at once when its `Content-Length` says it will, and fails with
   * `WEFT_OPENAI_RESPONSE_TOO_LARGE`, without retrying (a 4xx other than 429, a 3xx or a status from 600 to 999 fails with
   * `WEFT_OPENAI_HTTP_STATUS`, as such a status always does). Default: `10485760` (10 MiB).
   * @claim tsdoc-openai-default-max-response-bytes
   */
  maxResponseBytes?: number;
  /**
   * Extra headers for every request, such as `OpenAI-Organization`. They override the default
   * `Content-Type` and `Accept`; an `Authorization` header here is replaced when `apiKey` gives
   * a key that is not empty or white space alone. They are sent only to the origin of `baseUrl`:
   * the provider follows no redirect. Default: none.
   */
  headers?: Record<string, string>;
  /**
   * The fetch implementation to use. It is called with `redirect: 'manual'` and must honour it:
   * one that follows a redirect anyway has sent the request, headers and body, where it points
   * before the provider sees the answer, which the provider then refuses (when the answer says
   * so, with `response.redirected`) with `WEFT_OPENAI_HTTP_STATUS`; when following fails (no
   * connection to where it points, or a loop), the attempt fails as a network failure does and
   * is retried, ending in `WEFT_OPENAI_NETWORK`. Default: the global `fetch`.
   *
   * @claim tsdoc-openai-fetch-follow-failed
   */
  fetch?: typeof fetch;
  /**
   * The sampling temperature (0–2) used when a call does not set one. Default: none, so the
   * server's own default applies.
   */
  defaultTemperature?: number;
  /**
   * Whether a call that asks for JSON (`json: true`, as every getObject call does, the runtime's
   * plans and reviews included) sends `response_format: { type: 'json_object' }`. Set it to
   * `false` for a server that refuses that field, such as LM Studio, which answers `400`
   * ("'response_format.type' must be 'json_schema' or 'text'"): the request then goes without
   * it, and getObject still checks each answer against its schema and asks again when it does
   * not fit. Default: `true`.
   * @claim tsdoc-openai-json-mode
   */
  jsonMode?: boolean;
}

/** The options after validation, with defaults applied. */
export interface ResolvedOptions {
  /** The provider id. */
  readonly id: string;
  /** The base URL without trailing slashes. */
  readonly baseUrl: string;
  /** The API key or the function producing it, if any. */
  readonly apiKey: Resolvable<string> | undefined;
  /** The model name. */
  readonly model: string;
  /** Per-attempt timeout in milliseconds. */
  readonly timeoutMs: number;
  /** Retries after the first attempt. */
  readonly maxRetries: number;
  /** Backoff base in milliseconds. */
  readonly retryBaseDelayMs: number;
  /** Deadline of a whole call, across attempts, in milliseconds. */
  readonly totalTimeoutMs: number;
  /** Largest answer read, in bytes. */
  readonly maxResponseBytes: number;
  /** Extra headers for every request. */
  readonly headers: Readonly<Record<string, string>>;
  /** The fetch implementation. */
  readonly fetch: typeof fetch;
  /** The temperature used when a call sets none. */
  readonly defaultTemperature: number | undefined;
  /** Whether `json: true` is sent as `response_format: { type: 'json_object' }`. */
  readonly jsonMode: boolean;
}

/** Default values of the optional options. */
export const DEFAULTS = {
  id: 'openai',
  timeoutMs: 30_000,
  maxRetries: 2,
  retryBaseDelayMs: 500,
  totalTimeoutMs: 60_000,
  maxResponseBytes: 10 * 1024 * 1024,
  jsonMode: true,
} as const;

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * A control character (a line break, a tab, an escape...). An `id` or a `baseUrl` holding one would
 * break the one-line messages that quote them, and the code at the end of their first line.
 */
const CONTROL_CHARACTER = /\p{Cc}/u;

/**
 * What is wrong with an absolute http(s) `baseUrl` that no request could use: a user name or
 * password (fetch refuses to send such a URL, and its error would quote the password), a control
 * character (the URL parser drops it, but error messages would quote it) or a query or fragment
 * (the paths appended to the URL would land inside them).
 *
 * @param value - The URL, trimmed, already known to be an absolute http(s) URL.
 * @returns The requirement it breaks, worded to follow `option "baseUrl"`, and how to show the
 * value given; `undefined` when the URL is usable.
 */
function baseUrlProblem(value: string): { requirement: string; shown: string } | undefined {
  const url = new URL(value);
  if (url.username !== '' || url.password !== '') {
    return {
      requirement: 'must not hold a user name or password (give the key with option "apiKey")',
      shown: 'a URL with credentials, not shown',
    };
  }
  if (CONTROL_CHARACTER.test(value)) {
    return {
      requirement:
        'must not hold a control character such as a line break (the URL parser drops it silently)',
      shown: showBaseUrl(value),
    };
  }
  if (value.includes('?') || value.includes('#')) {
    return {
      requirement:
        'must not hold a query or a fragment, since "/chat/completions" and "/models" are appended to it',
      shown: showBaseUrl(value),
    };
  }
  return undefined;
}

/**
 * How an error quotes a refused `baseUrl`: whole, or up to its first `?` or `#`, since a query
 * or a fragment may hold a key (`?key=...`) that the message must not show; not at all when it
 * holds an `@` anywhere, since it may then hold a user name and password. The `@` may come after
 * a `?` or `#` that belongs to the password (`http://user:pa?ss@host/v1`, which the URL parser
 * refuses or reads as host `user`), so the part before them is no safer to show.
 *
 * @param value - The `baseUrl` as given, a string.
 * @returns The quoted value, its part before the query or fragment and what was left out, or
 * a note that it is not shown.
 */
function showBaseUrl(value: string): string {
  if (value.includes('@')) return 'a value with "@" in it, not shown';
  const cut = value.search(/[?#]/);
  if (cut === -1) return JSON.stringify(value);
  const part = value[cut] === '?' ? 'a query' : 'a fragment';
  return `${JSON.stringify(value.slice(0, cut))} followed by ${part}, not shown`;
}

/**
 * Characters refused in a header value once `Headers` has accepted it: control characters other
 * than a tab. fetch refuses to send the ASCII ones (an escape, a DEL); it would send a C1 one
 * (U+0080 to U+009F, such as U+0085, a next-line) as a raw byte, but no real key or header value
 * holds one, so it is refused too, as the options' messages say of every control character.
 * `Headers` itself refuses a NUL, a line break inside the value and characters beyond Latin-1,
 * and trims the whitespace around the value, line breaks included.
 */
const UNSENDABLE_HEADER_CHARACTER = /[^\t\x20-\x7e\xa0-\xff]/;

function isValidHeaders(value: Record<string, string>): boolean {
  try {
    const headers = new Headers(value);
    let sendable = true;
    // forEach rather than iteration: the site's DOM library types Headers without an iterator.
    headers.forEach((text) => {
      if (UNSENDABLE_HEADER_CHARACTER.test(text)) sendable = false;
    });
    return sendable;
  } catch {
    return false;
  }
}

const isFunction = (value: unknown): boolean => typeof value === 'function';

/**
 * Whether a key can be sent as `Authorization: Bearer <key>`. A control character other than a
 * tab (a line break, a NUL, an escape) or a character beyond Latin-1 cannot: `Headers` refuses
 * some of them with an error that quotes the whole header, key included, and fetch refuses the
 * others only when it sends the request, as a network failure that every retry repeats (a C1
 * control character it would send, though no real key holds one). So the key is refused here,
 * by an error that does not show it.
 *
 * @param key - The key, as given or as a key function resolved it.
 * @returns `true` when the header can be built and sent, and holds no control character but tabs.
 * @internal
 */
export function isSendableKey(key: string): boolean {
  const headers = new Headers();
  try {
    headers.set('Authorization', `Bearer ${key}`);
  } catch {
    return false;
  }
  return !UNSENDABLE_HEADER_CHARACTER.test(headers.get('Authorization') ?? '');
}

const optionsSchema = z.strictObject({
  id: z
    .string()
    .trim()
    .min(1)
    .refine((value) => !CONTROL_CHARACTER.test(value))
    .optional(),
  baseUrl: z
    .string()
    .trim()
    .refine((value) => isHttpUrl(value) && baseUrlProblem(value) === undefined),
  apiKey: z
    .union([
      z.string().trim().min(1).refine(isSendableKey),
      z.custom<() => string | Promise<string>>(isFunction),
    ])
    .optional(),
  model: z.string().trim().min(1),
  timeoutMs: z.number().int().positive().max(MAX_TIMER_MS).optional(),
  maxRetries: z.number().int().nonnegative().optional(),
  retryBaseDelayMs: z.number().nonnegative().optional(),
  totalTimeoutMs: z.number().int().positive().max(MAX_TIMER_MS).optional(),
  maxResponseBytes: z.number().int().positive().optional(),
  headers: z.record(z.string(), z.string()).refine(isValidHeaders).optional(),
  fetch: z.custom<typeof fetch>(isFunction).optional(),
  defaultTemperature: z.number().min(0).max(2).optional(),
  jsonMode: z.boolean().optional(),
});

type OptionName = keyof OpenAIModelProviderOptions;

/** What each option must be, worded to follow `option "<name>"`. */
const REQUIREMENTS: Record<OptionName, string> = {
  id: 'must be a non-empty string without a control character such as a line break',
  baseUrl: 'must be an absolute http(s) URL',
  apiKey:
    'must be a non-empty string (not white space alone) or a function returning one, without a control character other than a tab (such as a line break or a NUL) or a character beyond Latin-1',
  model: 'must be a non-empty string (the model name the API knows)',
  timeoutMs: `must be a positive integer number of milliseconds, ${TIMER_LIMIT_RULE}`,
  maxRetries: 'must be a non-negative integer',
  retryBaseDelayMs: 'must be a non-negative number of milliseconds',
  totalTimeoutMs: `must be a positive integer number of milliseconds, ${TIMER_LIMIT_RULE}`,
  maxResponseBytes: 'must be a positive integer number of bytes',
  headers:
    'must be an object mapping valid header names to string values, without a control character other than a tab (such as a line break or a NUL) or a character beyond Latin-1',
  fetch: 'must be a fetch function',
  defaultTemperature: 'must be a number from 0 to 2',
  jsonMode: 'must be true or false',
};

/** Options whose values are never echoed in error messages, since they may hold secrets. */
const SECRET_OPTIONS: ReadonlySet<OptionName> = new Set(['apiKey', 'headers']);

function describeValue(value: unknown, secret: boolean): string {
  if (value === undefined) return 'undefined';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'object') return 'an object';
  if (secret) return `a ${typeof value}`;
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}

function invalid(message: string): OpenAIModelProviderError {
  return new OpenAIModelProviderError(
    'WEFT_OPENAI_INVALID_OPTIONS',
    `OpenAIModelProvider: ${message}`,
  );
}

/**
 * Validates the constructor's options and applies defaults.
 *
 * @param options - The options as given, possibly from untyped JavaScript or a config file.
 * @returns The validated options with defaults.
 * @throws {@link OpenAIModelProviderError} with code `WEFT_OPENAI_INVALID_OPTIONS`, naming the first bad
 * option and what it must be.
 */
export function parseOptions(options: OpenAIModelProviderOptions): ResolvedOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw invalid(
      `options must be an object with at least "baseUrl" and "model", got ${describeValue(options, false)}`,
    );
  }
  const result = optionsSchema.safeParse(options);
  if (!result.success) {
    // An unknown name first: a misspelt required option (`baseURL`, the OpenAI SDK's spelling)
    // would otherwise be reported as missing, without the name that was given.
    const issue =
      result.error.issues.find((found) => found.code === 'unrecognized_keys') ??
      result.error.issues[0];
    if (issue?.code === 'unrecognized_keys') {
      const known = Object.keys(REQUIREMENTS).join(', ');
      throw invalid(
        `unknown option ${issue.keys.map((key) => `"${key}"`).join(', ')}; known options are ${known}`,
      );
    }
    const name = String(issue?.path[0] ?? '') as OptionName;
    const given = (options as unknown as Record<string, unknown>)[name];
    if (name === 'baseUrl' && typeof given === 'string' && isHttpUrl(given.trim())) {
      const problem = baseUrlProblem(given.trim());
      if (problem !== undefined) {
        throw invalid(`option "baseUrl" ${problem.requirement}, got ${problem.shown}`);
      }
    }
    const requirement = REQUIREMENTS[name] ?? 'is invalid';
    if (name === 'baseUrl' && typeof given === 'string') {
      throw invalid(`option "baseUrl" ${requirement}, got ${showBaseUrl(given)}`);
    }
    throw invalid(
      `option "${name}" ${requirement}, got ${describeValue(given, SECRET_OPTIONS.has(name))}`,
    );
  }
  const parsed = result.data;
  return {
    id: parsed.id ?? DEFAULTS.id,
    baseUrl: parsed.baseUrl.replace(/\/+$/, ''),
    apiKey: parsed.apiKey,
    model: parsed.model,
    timeoutMs: parsed.timeoutMs ?? DEFAULTS.timeoutMs,
    maxRetries: parsed.maxRetries ?? DEFAULTS.maxRetries,
    retryBaseDelayMs: parsed.retryBaseDelayMs ?? DEFAULTS.retryBaseDelayMs,
    totalTimeoutMs: parsed.totalTimeoutMs ?? DEFAULTS.totalTimeoutMs,
    maxResponseBytes: parsed.maxResponseBytes ?? DEFAULTS.maxResponseBytes,
    headers: { ...parsed.headers },
    fetch: parsed.fetch ?? ((input, init) => globalThis.fetch(input, init)),
    defaultTemperature: parsed.defaultTemperature,
    jsonMode: parsed.jsonMode ?? DEFAULTS.jsonMode,
  };
}
