/**
 * The code of a {@link WeftError} thrown by `@weft/core`. The list is closed (a new code is a
 * change to the public API) and stable across versions, so callers branch on the code rather than
 * on messages. Each code has a section of the same name in the errors reference of the
 * documentation, with its cause and its fix.
 *
 * - `WEFT_INVALID_CONFIG`: `Runtime.init` found problems in the configuration (all are listed).
 * - `WEFT_INVALID_ARGUMENT`: a constructor or method was given a value it cannot use.
 * - `WEFT_DUPLICATE`: something with the same id or name is already registered or mounted.
 * - `WEFT_START_FAILED`: a provider, plugin, trigger or the server failed while the runtime started.
 * - `WEFT_RUNTIME_STOPPED`: the runtime was stopped (or stopped while starting).
 * - `WEFT_INVALID_SPACE`: a dispatched event's space id is not a valid space id.
 * - `WEFT_UNKNOWN_PLUGIN`: a dispatched event names a plugin that is not registered.
 * - `WEFT_SHUTTING_DOWN`: the runtime is stopping and accepts no new tasks.
 * - `WEFT_QUEUE_FULL`: the scheduler's queue holds `maxQueueSize` tasks already.
 * - `WEFT_TASK_CANCELLED`: a task was cancelled because the runtime stopped.
 * - `WEFT_TASK_TIMEOUT`: a task ran past its time limit (`taskTimeoutMs`).
 * - `WEFT_BULKHEAD_FULL`: a call waited too long for a dependency whose every slot was taken.
 * - `WEFT_CAPABILITY_UNKNOWN`: a capability id is not registered.
 * - `WEFT_CAPABILITY_UNAVAILABLE`: no provider (or not the named one) offers the capability.
 * - `WEFT_PROVIDER_FAILED`: a model provider threw while serving a capability.
 * - `WEFT_VALIDATION_FAILED`: a capability's input, options or output did not match its schema.
 * - `WEFT_GET_OBJECT_FAILED`: getObject got no answer matching the schema within its retries.
 * - `WEFT_TEMPLATE_INVALID`: a prompt template's name or source is invalid.
 * - `WEFT_TEMPLATE_NOT_FOUND`: no prompt template has the requested name.
 * - `WEFT_TEMPLATE_RENDER_FAILED`: rendering a template failed, usually a missing variable.
 * - `WEFT_LISTEN_FAILED`: the HTTP server could not listen on its host and port.
 * - `WEFT_HOST_NOT_ALLOWED`: an HTTP request's `Host` header is not an allowed host (403).
 * - `WEFT_BAD_REQUEST`: an HTTP request was malformed: bad JSON, too large or nested too deep.
 * - `WEFT_NOT_FOUND`: no route matches an HTTP request (404).
 * - `WEFT_INTERNAL`: an unexpected failure; the answer carries an id that the log line also has.
 */
export type WeftErrorCode =
  | 'WEFT_INVALID_CONFIG'
  | 'WEFT_INVALID_ARGUMENT'
  | 'WEFT_DUPLICATE'
  | 'WEFT_START_FAILED'
  | 'WEFT_RUNTIME_STOPPED'
  | 'WEFT_INVALID_SPACE'
  | 'WEFT_UNKNOWN_PLUGIN'
  | 'WEFT_SHUTTING_DOWN'
  | 'WEFT_QUEUE_FULL'
  | 'WEFT_TASK_CANCELLED'
  | 'WEFT_TASK_TIMEOUT'
  | 'WEFT_BULKHEAD_FULL'
  | 'WEFT_CAPABILITY_UNKNOWN'
  | 'WEFT_CAPABILITY_UNAVAILABLE'
  | 'WEFT_PROVIDER_FAILED'
  | 'WEFT_VALIDATION_FAILED'
  | 'WEFT_GET_OBJECT_FAILED'
  | 'WEFT_TEMPLATE_INVALID'
  | 'WEFT_TEMPLATE_NOT_FOUND'
  | 'WEFT_TEMPLATE_RENDER_FAILED'
  | 'WEFT_LISTEN_FAILED'
  | 'WEFT_HOST_NOT_ALLOWED'
  | 'WEFT_BAD_REQUEST'
  | 'WEFT_NOT_FOUND'
  | 'WEFT_INTERNAL';

/**
 * Every code a {@link WeftError} thrown by `@weft/core` can carry, for tests and tools that list
 * them (the errors reference page has a section for each). `satisfies` makes the compiler check
 * that the list and the union agree.
 *
 * @internal
 */
export const WEFT_ERROR_CODES = Object.keys({
  WEFT_INVALID_CONFIG: true,
  WEFT_INVALID_ARGUMENT: true,
  WEFT_DUPLICATE: true,
  WEFT_START_FAILED: true,
  WEFT_RUNTIME_STOPPED: true,
  WEFT_INVALID_SPACE: true,
  WEFT_UNKNOWN_PLUGIN: true,
  WEFT_SHUTTING_DOWN: true,
  WEFT_QUEUE_FULL: true,
  WEFT_TASK_CANCELLED: true,
  WEFT_TASK_TIMEOUT: true,
  WEFT_BULKHEAD_FULL: true,
  WEFT_CAPABILITY_UNKNOWN: true,
  WEFT_CAPABILITY_UNAVAILABLE: true,
  WEFT_PROVIDER_FAILED: true,
  WEFT_VALIDATION_FAILED: true,
  WEFT_GET_OBJECT_FAILED: true,
  WEFT_TEMPLATE_INVALID: true,
  WEFT_TEMPLATE_NOT_FOUND: true,
  WEFT_TEMPLATE_RENDER_FAILED: true,
  WEFT_LISTEN_FAILED: true,
  WEFT_HOST_NOT_ALLOWED: true,
  WEFT_BAD_REQUEST: true,
  WEFT_NOT_FOUND: true,
  WEFT_INTERNAL: true,
} satisfies Record<WeftErrorCode, true>) as readonly WeftErrorCode[];
