// Generated from CORE_ERRORS (core-errors.ts) by: npm run generate:references. Do not edit.

/**
 * The code of a {@link WeftError} raised by `@weft/core`. The list is closed (a new
 * code is a change to the public API) and stable across versions, so callers branch on the code
 * rather than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_INVALID_CONFIG`: `Runtime.init` found problems in the configuration (all are listed).
 * - `WEFT_INVALID_ARGUMENT`: A constructor or method was given a value it cannot use.
 * - `WEFT_DUPLICATE`: Something with the same id or name is already registered or mounted.
 * - `WEFT_START_FAILED`: A provider, coordinator, plugin or start trigger failed (or a provider was
 *   not healthy) while the runtime started.
 * - `WEFT_RUNTIME_STOPPED`: The runtime was stopped (or stopped while starting).
 * - `WEFT_INVALID_SPACE`: A space id is not valid (empty, too long, or with a first character or
 *   characters an id may not have).
 * - `WEFT_MEMORY_INVALID`: A memory or patch given to a memory store breaks the memory contract: an
 *   empty `space` or `kind`, or content or metadata with no JSON form.
 * - `WEFT_MEMORY_INVALID_QUERY`: A query option given to a memory store has the wrong type or
 *   value.
 * - `WEFT_MEMORY_NOT_FOUND`: `update()` of a memory store was given an id no memory has.
 * - `WEFT_UNKNOWN_PLUGIN`: A dispatched event names a plugin that is not registered.
 * - `WEFT_SHUTTING_DOWN`: The runtime is stopping and accepts no new tasks.
 * - `WEFT_QUEUE_FULL`: The scheduler’s queue holds `maxQueueSize` tasks already.
 * - `WEFT_TASK_CANCELLED`: A task was cancelled because the runtime stopped.
 * - `WEFT_TASK_TIMEOUT`: A task ran past its time limit (`taskTimeoutMs`).
 * - `WEFT_BULKHEAD_FULL`: A call waited longer than `bulkhead.maxWaitMs` for a dependency whose
 *   every slot was taken.
 * - `WEFT_CAPABILITY_UNKNOWN`: A capability id is not registered: no provider’s descriptors define
 *   it.
 * - `WEFT_CAPABILITY_UNAVAILABLE`: No provider (or not the named one) offers a registered
 *   capability.
 * - `WEFT_PROVIDER_FAILED`: A model provider threw while serving a capability.
 * - `WEFT_VALIDATION_FAILED`: A capability’s input, options or output did not match its schema.
 * - `WEFT_UNSUPPORTED_SCHEMA`: A schema given to Weft is not a zod 4 schema.
 * - `WEFT_GET_OBJECT_FAILED`: `getObject` got no answer matching the schema within its retries.
 * - `WEFT_TEMPLATE_INVALID`: A prompt template’s name or source is invalid.
 * - `WEFT_TEMPLATE_NOT_FOUND`: No prompt template has the requested name.
 * - `WEFT_TEMPLATE_RENDER_FAILED`: Rendering a template failed, usually a missing variable.
 * - `WEFT_LISTEN_FAILED`: The HTTP server could not listen on its host and port.
 * - `WEFT_UNSUPPORTED_PLATFORM`: Something that needs Node.js was used where the core runs in a
 *   browser.
 * - `WEFT_HOST_NOT_ALLOWED`: An HTTP request’s `Host` header is not an allowed host.
 * - `WEFT_ORIGIN_NOT_ALLOWED`: A web page of another origin sent a request to the runtime’s HTTP
 *   server.
 * - `WEFT_BAD_REQUEST`: An HTTP request was malformed or too slow: bad JSON, too large, nested too
 *   deep, or late.
 * - `WEFT_NOT_FOUND`: No route matches an HTTP request.
 * - `WEFT_INTERNAL`: An unexpected failure; the answer carries an id that the log line also has.
 */
export type WeftErrorCode =
  | 'WEFT_INVALID_CONFIG'
  | 'WEFT_INVALID_ARGUMENT'
  | 'WEFT_DUPLICATE'
  | 'WEFT_START_FAILED'
  | 'WEFT_RUNTIME_STOPPED'
  | 'WEFT_INVALID_SPACE'
  | 'WEFT_MEMORY_INVALID'
  | 'WEFT_MEMORY_INVALID_QUERY'
  | 'WEFT_MEMORY_NOT_FOUND'
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
  | 'WEFT_UNSUPPORTED_SCHEMA'
  | 'WEFT_GET_OBJECT_FAILED'
  | 'WEFT_TEMPLATE_INVALID'
  | 'WEFT_TEMPLATE_NOT_FOUND'
  | 'WEFT_TEMPLATE_RENDER_FAILED'
  | 'WEFT_LISTEN_FAILED'
  | 'WEFT_UNSUPPORTED_PLATFORM'
  | 'WEFT_HOST_NOT_ALLOWED'
  | 'WEFT_ORIGIN_NOT_ALLOWED'
  | 'WEFT_BAD_REQUEST'
  | 'WEFT_NOT_FOUND'
  | 'WEFT_INTERNAL';
