import type { ErrorRegistry } from './errors/error-registry.js';

// <error-codes> generated from the registry by: npm run generate:references
/**
 * The code of an error raised by `@weft/core`. The list is closed (a new code is
 * a change to the public API) and stable across versions, so callers branch on the code rather
 * than on messages. Each code has a section of the same name in the errors reference of
 * the documentation, with what raises it, its cause and its fix; the error’s `docsUrl` links it.
 *
 * - `WEFT_INVALID_CONFIG`: `Runtime.init` found problems in the configuration (all are listed).
 * - `WEFT_INVALID_ARGUMENT`: A constructor or method was given a value it cannot use.
 * - `WEFT_DUPLICATE`: Something with the same id or name is already registered or mounted.
 * - `WEFT_START_FAILED`: A provider, coordinator, plugin or start trigger failed (or a provider was
 *   not healthy, or a part did not finish within `startTimeoutMs`) while the runtime started.
 * - `WEFT_RUNTIME_STOPPED`: The runtime was stopped (or stopped while starting).
 * - `WEFT_INVALID_SPACE`: A space id is not valid (empty, too long, or with a first character or
 *   characters an id may not have).
 * - `WEFT_MEMORY_INVALID`: A memory or patch given to a memory store breaks the memory contract: an
 *   empty `space` or `kind`, or content or metadata with no JSON form.
 * - `WEFT_MEMORY_INVALID_QUERY`: A query option given to a memory store has the wrong type or
 *   value.
 * - `WEFT_MEMORY_NOT_FOUND`: `update()` of a memory store was given an id no memory has.
 * - `WEFT_UNKNOWN_PLUGIN`: A dispatched event names a plugin that is not registered.
 * - `WEFT_INVALID_EVENT`: A dispatched event is malformed, or cannot be stored as its task’s
 *   trigger memory.
 * - `WEFT_SHUTTING_DOWN`: The runtime is stopping (or has stopped) and accepts no new tasks.
 * - `WEFT_QUEUE_FULL`: The scheduler’s queue holds `maxQueueSize` tasks already.
 * - `WEFT_TASK_CANCELLED`: A task was cancelled because the runtime stopped.
 * - `WEFT_COORDINATOR_TIMEOUT`: The space coordinator did not answer within its deadline.
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
 *   deep, unreadable, or late.
 * - `WEFT_TOO_MANY_CONNECTIONS`: The HTTP server holds as many connections as it takes, from the
 *   client or in all.
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
  | 'WEFT_INVALID_EVENT'
  | 'WEFT_SHUTTING_DOWN'
  | 'WEFT_QUEUE_FULL'
  | 'WEFT_TASK_CANCELLED'
  | 'WEFT_COORDINATOR_TIMEOUT'
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
  | 'WEFT_TOO_MANY_CONNECTIONS'
  | 'WEFT_NOT_FOUND'
  | 'WEFT_INTERNAL';
// </error-codes>

/**
 * Every code a {@link WeftError} thrown by `@weft/core` can carry, with what the errors reference
 * says about it. The `WeftErrorCode` union above (and its TSDoc) and the page are generated
 * from it by `npm run generate:references`; a unit test fails when either is stale, when the
 * sources raise a code missing here, or when a code here is raised nowhere.
 *
 * @internal
 */
export const CORE_ERRORS = {
  packageName: '@weft/core',
  codes: {
    /**
     * @claim errors-invalid-config-peers
     * @claim errors-invalid-config-lines
     * @claim errors-invalid-config-log-level
     * @claim errors-invalid-config-liquid
     * @claim errors-route-clash-as-written
     * @claim errors-invalid-config-required-undefined
     * @claim errors-invalid-config-malformed-lists
     */
    WEFT_INVALID_CONFIG: {
      summary: '`Runtime.init` found problems in the configuration (all are listed).',
      raisedBy: '`Runtime.init`',
      raisers: ['core/src/runtime/runtime.ts#Runtime.init'],
      cause:
        'the configuration has problems, such as an unknown or mistyped field or option, a value out of its range, options that contradict each other (`server.requestTimeout` below `server.headersTimeout`), two routes with the same method and path as written (paths that differ only in letter case, a trailing slash or a parameter’s name pass, though the route mounted first answers for both; see [Route triggers](../building-plugins/triggers.md#route-triggers)), an invalid `WEFT_LOG_LEVEL` (read only when `options.logger` is not given), two providers or plugins with the same id, no provider of `text-generation`, a capability a plugin requires that no provider offers or that only an alias group names, with no descriptor to define it, a `defaultProviders` entry that names no provider or one that does not offer the capability itself, a template that does not parse, a `bulkhead.limits` key that names no configured provider or plugin, plugins with Liquid templates while liquidjs, a dependency of `@weft/core`, cannot be imported (an install that lacks it, a page whose script did not download; the next `Runtime.init` tries the import again), or, in Node.js, plugins with route triggers while express and cors, the optional peer dependencies of the HTTP server in `@weft/core/node`, are not installed. The message lists every problem, one per line, each starting with the path, the variable or the owner at fault. The one exception is a list of model providers, plugins or alias groups that is itself malformed (no provider, two providers with one id, an entry that is not a provider or a plugin): the message then lists only what is checked without the registries (that list, the configuration’s other fields, the options and `WEFT_LOG_LEVEL`), and the problems of the plugins, capabilities, `defaultProviders` and `bulkhead.limits` come out once it is fixed.',
      fix: 'correct each listed problem; the [configuration reference](./configuration.md) gives every option’s type, range and default. For route triggers, install the server’s peer dependencies with `npm install express cors`.',
    },
    /**
     * @claim errors-invalid-argument-no-server
     * @claim errors-invalid-argument-route-path
     */
    WEFT_INVALID_ARGUMENT: {
      summary: 'A constructor or method was given a value it cannot use.',
      raisedBy:
        'constructors and methods of the core: `ServerManager`, `Scheduler`, `defineCapability`, `CapabilityRegistry`, `ModelManager`, `PluginRegistry`; `Runtime.start`, for a route trigger whose path express cannot read, which `Runtime.init` does not check (the start then stops again); in Node.js, for a runtime with no route trigger, `serverOf` and the `start` and `mount` of `runtime.server` (in a browser these two raise `WEFT_UNSUPPORTED_PLATFORM`); `update`, `remove` and `clear` of every first-party memory store',
      raisers: [
        'core/src/capabilities/capability-registry.ts#CapabilityRegistry.addAliasGroup',
        'core/src/capabilities/capability-registry.ts#CapabilityRegistry.addTransform',
        'core/src/capabilities/capability.ts#defineCapability',
        'core/src/memory/memory-input.ts#checkClearSpace',
        'core/src/memory/memory-input.ts#checkMemoryId',
        'core/src/models/model-manager.ts#ModelManager.getObject',
        'core/src/node.ts#serverOf',
        'core/src/models/model-manager.ts#ModelManager.setDefaultProvider',
        'core/src/plugins/plugin.ts#PluginRegistry.register',
        'core/src/scheduler/scheduler.ts#Scheduler.schedule',
        'core/src/scheduler/scheduler.ts#positiveInteger',
        'core/src/server/server-manager.ts#ServerManager.constructor',
        'core/src/server/server-manager.ts#ServerManager.mount',
        'core/src/server/server-manager.ts#checkAllowedHosts',
        'core/src/server/server-manager.ts#checkAllowedOrigins',
        'core/src/server/server-manager.ts#checkBodyLimit',
        'core/src/server/server-manager.ts#checkCors',
        'core/src/server/server-manager.ts#positive',
        'core/src/server/server-stand-in.ts#ServerStandIn.unavailable',
      ],
      cause:
        'a constructor or method received a value it cannot use, such as a port outside 0–65535, a negative `maxRetries`, a capability id with spaces, an alias group with fewer than two ids, a route path express cannot read (`/files/*`), or a memory id (or the space of `clear`) that is not a string.',
      fix: 'the message names the option or argument and what it must be; pass a valid value.',
    },
    /** @claim errors-duplicate-descriptor-object */
    WEFT_DUPLICATE: {
      summary: 'Something with the same id or name is already registered or mounted.',
      raisedBy: '`CapabilityRegistry`, `PromptRegistry`, `ServerManager.mount`',
      raisers: [
        'core/src/capabilities/capability-registry.ts#CapabilityRegistry.addTransform',
        'core/src/capabilities/capability-registry.ts#CapabilityRegistry.register',
        'core/src/prompts/prompt-registry.ts#PromptRegistry.refuseDuplicate',
        'core/src/server/server-manager.ts#ServerManager.mount',
      ],
      cause:
        'something with the same id or name is already registered: a capability with another descriptor object (a second `defineCapability` call makes another, even with the same fields), a transform, a prompt template, or two route triggers with the same method and path, as written.',
      fix: 'give the new one another id, name or path. Providers that offer the same capability list the same descriptor: define it once, in one module, and import it in each.',
    },
    /**
     * @claim errors-start-failed-sources
     * @claim errors-start-failed-deadline
     */
    WEFT_START_FAILED: {
      summary:
        'A provider, coordinator, plugin or start trigger failed (or a provider was not healthy, or a part did not finish within `startTimeoutMs`) while the runtime started.',
      raisedBy: '`Runtime.start`',
      raisers: [
        'core/src/runtime/runtime.ts#Runtime.requireHealthy',
        'core/src/runtime/runtime.ts#Runtime.startComponent',
        'core/src/runtime/runtime.ts#Runtime.startOnce',
        'core/src/runtime/runtime.ts#Runtime.startWithinDeadline',
      ],
      cause:
        'a memory provider, model provider, space coordinator, plugin or start trigger threw while the runtime started, or, with `options.checkHealthOnStart`, a provider’s `checkHealth()` answered `false`, threw or did not answer in time. The runtime stops what it had already started before it rejects. The original error, when there is one, is the `cause`, and its message is included. The start also fails when it has not finished within `options.startTimeoutMs` (60 s by default): the message then names the part it was still waiting for and the option, as in `plugin "weather": init() did not finish within startTimeoutMs (60000 ms)`, and whatever that part does later is only logged.',
      fix: 'read the included message: usually a database path whose directory is missing, a failed health check, or a plugin’s own `init` check. For a start that ran out of time, find out why the named part hangs (most often a service it connects to that does not answer), or raise `options.startTimeoutMs` if it is only slow.',
    },
    /**
     * @claim errors-runtime-stopped-during-start
     * @claim errors-runtime-stopped-after-failed-start
     * @claim errors-runtime-stopped-mount
     * @claim errors-runtime-stopped-held-start
     */
    WEFT_RUNTIME_STOPPED: {
      summary: 'The runtime was stopped (or stopped while starting).',
      raisedBy: '`Runtime.start`, `ServerManager.mount`',
      raisers: [
        'core/src/runtime/runtime.ts#abandonedStart',
        'core/src/runtime/runtime.ts#Runtime.start',
        'core/src/server/server-manager.ts#ServerManager.mount',
      ],
      cause:
        '`start()` was called on a runtime that was stopped, including one whose start failed (a failed start stops the runtime), `stop()` was called while the runtime was starting, or a route was mounted on the server once its `start()` had been called: while it starts, while it listens or after it stopped (no request could reach the route). A start abandoned for a `stop()` rejects with this code even when the part it was starting failed meanwhile, such as a start trigger that gave up when its signal aborted; that failure is the `cause`, and its message is included. A start whose part still hangs when `stop()` stops waiting for it (after 2 s) rejects as soon as that stop has shut down what had started, with no `cause`.',
      fix: 'a stopped runtime, or one whose start failed, cannot start again; create a new one with `Runtime.init`. Add middleware and routes before `start()`.',
    },
    /**
     * @claim errors-invalid-space-first-character
     * @claim errors-dispatch-refusals-accept
     */
    WEFT_INVALID_SPACE: {
      summary:
        'A space id is not valid (empty, too long, or with a first character or characters an id may not have).',
      status: 400,
      raisedBy: '`Runtime.dispatch` (and `Runtime.accept`), `spaceId`',
      raisers: ['core/src/memory/space-id.ts#invalid', 'core/src/runtime/runtime.ts#Runtime.admit'],
      cause:
        '`dispatch` (or `accept`) received a space id that is not valid: empty, longer than 200 characters, not starting with an ASCII letter or digit, or containing characters other than ASCII letters and digits, `-`, `_`, `.` and `:` (an accented letter such as `é` is refused).',
      fix: "build space ids from checked parts. `spaceId('chat', 'room', room)` from `@weft/core` builds a valid id from any non-empty parts of well-formed text and throws this error itself when it cannot (no part, a part that is not a string, an empty part, a part holding a lone UTF-16 surrogate, a first part that does not start with an ASCII letter or digit, an encoded id over 200 characters); see [Spaces](../core-utilities/spaces.md).",
    },
    /**
     * @claim errors-memory-invalid-contract
     * @claim errors-memory-key-length
     * @claim errors-memory-null-none
     * @claim errors-memory-patch-undefined
     */
    WEFT_MEMORY_INVALID: {
      summary:
        'A memory or patch given to a memory store breaks the memory contract: an empty `space` or `kind`, or content or metadata with no JSON form.',
      raisedBy:
        '`store` and `update` of every first-party memory store (`InMemoryMemoryProvider`, `SqliteMemoryProvider`, `PostgresMemoryProvider`), through `checkNewMemory` and `checkMemoryPatch`',
      raisers: ['core/src/memory/memory-input.ts#invalid'],
      cause:
        'a memory or patch breaks the memory contract that every store keeps: a memory or patch that is not an object, a `space` or `kind` that is not a non-empty string, a `taskId` that is not a string (`null` counts as none), a `space`, `kind` or `taskId` longer than 500 UTF-16 code units (an emoji counts two), content with no JSON form (`undefined` in `store`, where a patch’s `undefined` keeps the content; a function, a `BigInt`, a cycle), metadata that is not a plain object (`null` counts as none in `store`, but not in `update`), or whose `toJSON()` gives something other than an object, or that holds a value with no JSON form (a `BigInt`, a cycle), content or metadata whose JSON text is longer than 16 Mi UTF-16 code units (`MAX_MEMORY_JSON_LENGTH`) or that nests objects and arrays more than 100 levels deep (`MAX_MEMORY_JSON_DEPTH`), or a string (a key included) holding a NUL character or a lone UTF-16 surrogate, which a database cannot store unchanged. The message names the field. Nothing was written.',
      fix: 'store plain JSON data; strip NUL characters and broken surrogate pairs from text received from outside. See [Input rules and error codes](../memory-providers/overview.md#input-rules-and-error-codes).',
    },
    /** @claim errors-memory-invalid-query */
    WEFT_MEMORY_INVALID_QUERY: {
      summary: 'A query option given to a memory store has the wrong type or value.',
      raisedBy:
        '`query` of every first-party memory store, through `checkMemoryQuery`; so `MemoryManager.query`',
      raisers: [
        'core/src/memory/memory-input.ts#checkMemoryQuery',
        'core/src/memory/memory-input.ts#invalidQuery',
      ],
      cause:
        'the options are not an object (`null`, an array), they name an option `query` does not have (a misspelt filter, such as `spacePattern`, is refused rather than left out, which would return every space’s memories), or a query option has the wrong type or value: a filter that is not a string, `spacePatterns` that is not an array of strings, `since` or `until` that is not a valid `Date`, a `limit` that is not a positive integer, an `order` other than `asc` or `desc`, more than 100 `spacePatterns`, or a string holding a NUL character or a lone UTF-16 surrogate. The message names the option.',
      fix: 'pass the option as [Query semantics](../memory-providers/overview.md#query-semantics) describes it; the message names the option.',
    },
    WEFT_MEMORY_NOT_FOUND: {
      summary: '`update()` of a memory store was given an id no memory has.',
      raisedBy: '`update` of every first-party memory store, through `memoryNotFound`',
      raisers: ['core/src/memory/memory-input.ts#memoryNotFound'],
      cause: '`update()` was given an id no memory has; it may have been removed.',
      fix: 'use an id that `store()` or `query()` returned, and query for the memory first when another task may have removed it.',
    },
    WEFT_UNKNOWN_PLUGIN: {
      summary: 'A dispatched event names a plugin that is not registered.',
      status: 400,
      raisedBy: '`Runtime.dispatch` (and `Runtime.accept`)',
      raisers: ['core/src/runtime/runtime.ts#Runtime.admit'],
      cause: '`dispatch` (or `accept`) names a plugin id that is not registered.',
      fix: 'use the `id` of a plugin passed to `Runtime.init`.',
    },
    /**
     * @claim errors-invalid-event-cause
     * @claim errors-invalid-event-shape
     */
    WEFT_INVALID_EVENT: {
      summary: 'A dispatched event is malformed, or cannot be stored as its task’s trigger memory.',
      status: 400,
      raisedBy: '`Runtime.dispatch` (and `Runtime.accept`)',
      raisers: [
        'core/src/runtime/arrivals.ts#invalidEvent',
        'core/src/runtime/arrivals.ts#checkEventShape',
      ],
      cause:
        '`dispatch` (or `accept`) received something other than an object as the event, or one whose `pluginId` or `triggerId` is not a string (both are required; the message names the field) or whose `message` is given but is not a string (`null` counts as none), or an event whose `data` or `metadata` has no JSON form (a `BigInt`, an object that contains itself, a `toJSON` that throws, or a function or symbol given as `data`, which JSON would leave out of the stored trigger), whose `metadata` is not an object (an array, a string; `null` counts as none), or whose `message`, `data` or `metadata` breaks another rule of the memory contract (a NUL character or a lone UTF-16 surrogate in a string or key, JSON nested more than 100 levels deep or longer than 16 Mi UTF-16 code units; see [Input rules](../memory-providers/overview.md#input-rules-and-error-codes)). The task would run, but neither its `trigger` memory nor its `chain` memory could be stored, so it is refused before it runs. The message names the field; one that cannot be stored, with its path from `content` (the event’s `message` and `data`) or `metadata`. No task was created.',
      fix: 'dispatch plain JSON data: turn a `BigInt` into a string or number, break cycles, and strip NUL characters and broken surrogate pairs from text received from outside.',
    },
    /**
     * @claim errors-shutting-down-websocket
     * @claim errors-shutting-down-during-start
     * @claim errors-shutting-down-after-failed-start
     * @claim errors-shutting-down-after-listen-failed
     * @claim errors-shutting-down-retry-after
     */
    WEFT_SHUTTING_DOWN: {
      summary: 'The runtime is stopping (or has stopped) and accepts no new tasks.',
      status: 503,
      raisedBy:
        '`Runtime.dispatch` (and `Runtime.accept`), the scheduler; `@weft/plugin-websocket` sends it as an `error` frame',
      raisers: [
        'core/src/runtime/runtime.ts#Runtime.stoppingRefusal',
        'core/src/scheduler/scheduler.ts#Scheduler.refusal',
        'plugin-websocket/src/connection.ts#ChatConnection.onFrame',
      ],
      cause:
        'a task was dispatched once `stop()` had been called (while the runtime stops, once it has stopped, or while the stop waits for a start still under way), or to a runtime whose start failed, which stops it although `stop()` was never called; or a websocket message arrived while the runtime or the websocket plugin was stopping. A route that lets the error through is answered `503` with `Retry-After: 5`.',
      fix: 'during a shutdown nothing is wrong: the client should retry after the `Retry-After` seconds, against another instance or after the restart. After a failed start the runtime stays stopped: fix what the start’s error named (`WEFT_START_FAILED`, or `WEFT_LISTEN_FAILED` when the HTTP server could not listen) and create a new runtime with `Runtime.init`.',
    },
    /**
     * @claim errors-queue-full-coordinator
     * @claim errors-queue-full-websocket
     * @claim errors-queue-full-retry-after
     */
    WEFT_QUEUE_FULL: {
      summary: 'The scheduler’s queue holds `maxQueueSize` tasks already.',
      status: 503,
      raisedBy:
        '`Runtime.dispatch` and `Runtime.accept` (the scheduler); `@weft/plugin-websocket` passes it on as an `error` frame',
      raisers: ['core/src/scheduler/scheduler.ts#Scheduler.refusal'],
      cause:
        'the scheduler already holds `options.scheduler.maxQueueSize` waiting tasks (default 1000); with a `coordinator`, the tasks it is still recording count as waiting. A route that lets the error through, such as `@weft/plugin-chat`’s, is answered `503` with `Retry-After: 5`: a place frees only when a running task ends.',
      fix: 'the agent is receiving work faster than it completes it. Raise `scheduler.concurrency` if the model server can take more parallel calls, rate-limit clients, or run more instances.',
    },
    /**
     * @claim errors-task-cancelled-running
     * @claim errors-task-cancelled-failed-start
     * @claim errors-task-cancelled-never-started
     */
    WEFT_TASK_CANCELLED: {
      summary: 'A task was cancelled because the runtime stopped.',
      status: 503,
      raisedBy: 'the scheduler, when the runtime stops',
      raisers: ['core/src/scheduler/scheduler.ts#Scheduler.stop'],
      cause:
        'the runtime stopped in `cancel` mode, a draining stop ran out of `shutdownTimeoutMs`, or the runtime stopped before it was running (its start failed or was stopped, or it was never started), which cancels the tasks dispatched meanwhile. A task still waiting in the queue is rejected with this error, with status `503`, which a route trigger that lets it through answers as `503` with `Retry-After: 5`. A running task is not rejected: its signal is aborted with this error as the reason, and `dispatch` resolves with the task, whose status is `cancelled`.',
      fix: 'expected during shutdown. Raise `shutdownTimeoutMs` if tasks are cut short in normal restarts.',
    },
    /**
     * @claim errors-coordinator-timeout
     * @claim errors-coordinator-timeout-websocket
     */
    WEFT_COORDINATOR_TIMEOUT: {
      summary: 'The space coordinator did not answer within its deadline.',
      status: 503,
      raisedBy:
        '`Runtime.dispatch` and `Runtime.accept` (the coordinator’s `admit`), the scheduler (its `acquire`); `@weft/plugin-websocket` passes the `admit` one on as an `error` frame, with a generic message and the request id under which the log has the details',
      raisers: ['core/src/scheduler/bounded-coordinator.ts#BoundedCoordinator.timedOut'],
      cause:
        'the runtime’s `coordinator` did not record a new task within `options.coordinatorTimeoutMs` (15 s by default), or did not grant the space of a waiting task within `options.coordinatorAcquireTimeoutMs` (15 minutes by default). The message names the coordinator, the space and the option. The task was not accepted, or its space’s waiting tasks fail, and none of them runs here: a ticket the coordinator hands out after the deadline is given back (with `@weft/coordinator-postgres`, a ticket whose row was written after the instance lost its lock connection cannot be given back, and another instance, or this one once reconnected, runs that task; see [Scaling out](../guides/scaling-out.md)). HTTP triggers answer 503 with `Retry-After: 5` and without the details, which go to the log. Nothing needs restarting: the next task calls the coordinator again, and runs once it answers.',
      fix: 'retry the request shortly. If it lasts, find out why the coordinator hangs (its logs, the store it uses, a connection pool that is used up); raise the option if it legitimately needs longer.',
    },
    /** @claim errors-task-timeout-names-activity */
    WEFT_TASK_TIMEOUT: {
      summary: 'A task ran past its time limit (`taskTimeoutMs`).',
      raisedBy:
        'the task runner, as the reason of the task’s aborted signal and its last chain item',
      raisers: ['core/src/pipeline/task-runner.ts#TaskRunner.run'],
      cause: 'a task ran longer than its time limit, `options.taskTimeoutMs`.',
      fix: 'find what was slow: the message, and the `task timed out` log line with the task’s `taskId`, name what the task was doing when time ran out (`during`: recording the trigger, planning, reviewing the pipeline, or a step such as `step 2 (tools.fetch)`, whose planned step, `{ pluginId, action, reason }`, the line also gives as `step`). Lower the model provider’s own timeout and retries so that one call cannot use the whole budget, make the slow executor pass `context.signal` on, or raise the limit.',
    },
    /**
     * @claim errors-bulkhead-memory-logged
     * @claim errors-bulkhead-no-slot
     * @claim errors-bulkhead-review-logged
     * @claim errors-bulkhead-stays-in-task
     */
    WEFT_BULKHEAD_FULL: {
      summary:
        'A call waited longer than `bulkhead.maxWaitMs` for a dependency whose every slot was taken.',
      raisedBy:
        'the bulkhead of a model provider, plugin or memory provider, as a failed step’s error or a task’s planning error; for a review after a step that got no slot of a model provider’s, only in the log, on the `pipeline review failed; keeping the remaining steps` line (the task keeps its steps); for the memory provider’s, also in the log line of a memory the runtime could not store or read for a task (`could not store memory`, `could not read the space’s history; planning the task without it`), which then runs without it',
      raisers: ['core/src/bulkhead/bulkhead.ts#Bulkhead.waitForSlot'],
      cause:
        'a model provider, a plugin’s steps or the memory provider already had its limit of calls running (`options.bulkhead.maxConcurrent`, or its entry in `options.bulkhead.limits`), and the call got no slot within `options.bulkhead.maxWaitMs` (a slot that comes free goes to the call that has waited longest). The dependency is hung or much slower than usual; the message names it. The waiting task held no worker meanwhile, and tasks that do not use the dependency kept running. The error stays inside the task, which `dispatch` resolves with rather than rejecting, so it has no HTTP status and the runtime’s server never answers with this code.',
      fix: 'find why the dependency does not answer (its own timeouts, the upstream’s health); if it is only slow, raise its limit or `maxWaitMs`. See [One hung dependency](../guides/production.md#one-hung-dependency).',
    },
    WEFT_CAPABILITY_UNKNOWN: {
      summary: 'A capability id is not registered: no provider’s descriptors define it.',
      raisedBy: '`ModelManager.call`, `callDynamic`',
      raisers: ['core/src/models/model-manager.ts#ModelManager.descriptor'],
      cause:
        'a call names a capability id that no provider’s descriptors define, such as a misspelt id.',
      fix: 'check the id’s spelling, or list the capability’s descriptor in the provider that offers it; see [Capabilities](../capabilities/capabilities.md).',
    },
    /**
     * @claim errors-capability-default-direct
     * @claim errors-capability-default-config
     */
    WEFT_CAPABILITY_UNAVAILABLE: {
      summary: 'No provider (or not the named one) offers a registered capability.',
      raisedBy:
        '`ModelManager.call`, `callDynamic`, `generateText`, `getObject`, `setDefaultProvider`',
      raisers: [
        'core/src/models/model-manager.ts#ModelManager.callDynamic',
        'core/src/models/model-manager.ts#ModelManager.setDefaultProvider',
      ],
      cause:
        "the capability is registered, but no configured provider offers it, the provider named with `{ provider: '...' }` does not offer it, or `setDefaultProvider` names a provider that does not offer it itself. `Runtime.init` checks `options.defaultProviders` the same way and reports such an entry in its `WEFT_INVALID_CONFIG`, on a line that ends with this code.",
      fix: 'add a provider that offers it, add an alias group that maps it to one that is offered, or name a provider that has it. A default provider (`setDefaultProvider`, `defaultProviders`) must offer the capability itself: an alias does not count there.',
    },
    WEFT_PROVIDER_FAILED: {
      summary: 'A model provider threw while serving a capability.',
      raisedBy: '`ModelManager` calls',
      raisers: ['core/src/models/model-manager.ts#ModelManager.callDynamic'],
      cause:
        'a model provider threw an error that is not a Weft error while serving a capability; the original error is the `cause`. Errors a provider raises as Weft errors of its own (with their own codes, listed under [Package codes](#package-codes)) reach the caller unwrapped instead.',
      fix: 'read the included message, which comes from the provider.',
    },
    WEFT_VALIDATION_FAILED: {
      summary: 'A capability’s input, options or output did not match its schema.',
      raisedBy: '`ModelManager` calls',
      raisers: ['core/src/models/model-manager.ts#parseOrThrow'],
      cause:
        'a capability call’s input or options, or the provider’s output, did not match the capability’s zod schema. The message shows which fields were wrong.',
      fix: 'for input and options, fix the call; for output, fix the provider.',
    },
    WEFT_UNSUPPORTED_SCHEMA: {
      summary: 'A schema given to Weft is not a zod 4 schema.',
      raisedBy:
        '`ModelManager.getObject`, `formatZodSchema`, `defineCapability`, `CapabilityRegistry.register` (for a provider’s `descriptors`, `Runtime.init` lists it in `WEFT_INVALID_CONFIG`)',
      raisers: ['core/src/models/zod-schema-check.ts#assertZod4Schema'],
      cause:
        'the value passed as a schema is not a zod 4 schema: most often a zod 3 schema, because the project has zod 3 installed (the message says `a zod 3 schema (ZodObject)`), or a value that is no schema at all.',
      fix: 'Weft requires zod 4. Install it in your project (`npm install zod@^4`) and build your schemas with its `z`; see [Installation](../installation.md).',
    },
    /** @claim errors-get-object-review */
    WEFT_GET_OBJECT_FAILED: {
      summary: '`getObject` got no answer matching the schema within its retries.',
      raisedBy: '`ModelManager.getObject`, planning, the review after a step',
      raisers: ['core/src/models/model-manager.ts#ModelManager.getObject'],
      cause:
        'getObject (or planning or the review after a step, which use it) got no answer that parses as JSON and matches the schema, within its retries. A review that fails does not fail the task: it keeps its remaining steps, and the error is only in the log, on the `pipeline review failed; keeping the remaining steps` line, with its code.',
      fix: 'see [getObject fails with a small local model](../guides/troubleshooting.md#getobject-fails-with-a-small-local-model).',
    },
    /**
     * @claim errors-template-invalid-first-character
     * @claim errors-template-invalid-ascii
     * @claim errors-template-invalid-file-tags
     */
    WEFT_TEMPLATE_INVALID: {
      summary: 'A prompt template’s name or source is invalid.',
      raisedBy: '`PromptRegistry`',
      raisers: [
        'core/src/prompts/prompt-registry.ts#PromptRegistry.loadDirectory',
        'core/src/prompts/prompt-registry.ts#PromptRegistry.register',
        'core/src/prompts/prompt-registry.ts#liquidRender',
      ],
      cause:
        'a prompt template’s name or namespace does not start with an ASCII letter or digit or has characters other than ASCII letters, digits, `-`, `_` and `.`, its source is neither text nor a function, its source does not parse as Liquid (a `render`, `include` or `layout` tag counts as such, since templates cannot read files), or a template directory cannot be read. A Liquid template given to a registry of your own before liquidjs has loaded is parsed on its first render, which then rejects with this code.',
      fix: 'the message names the template and the parser’s complaint; see [Liquid templates](../core-utilities/liquid-templates.md).',
    },
    /** @claim errors-template-not-found-names */
    WEFT_TEMPLATE_NOT_FOUND: {
      summary: 'No prompt template has the requested name.',
      raisedBy: '`PromptRegistry.render`, `PromptRegistry.get`',
      raisers: ['core/src/prompts/prompt-registry.ts#PromptRegistry.get'],
      cause: 'no template has the requested name. The message lists the registered names.',
      fix: '`PromptRegistry.render` and `get` take the full name, `namespace/name` (such as `weather/forecast`); an executor’s `context.render` also takes a bare `name`, which it looks up in the executor’s own plugin. Check the name against the registered ones the message lists.',
    },
    /**
     * @claim errors-template-missing-variable
     * @claim errors-template-render-liquid-import
     * @claim errors-template-render-limits
     */
    WEFT_TEMPLATE_RENDER_FAILED: {
      summary: 'Rendering a template failed, usually a missing variable.',
      raisedBy: '`PromptRegistry.render`, the function `PromptRegistry.get` returns',
      raisers: ['core/src/prompts/prompt-registry.ts#PromptRegistry.render'],
      cause:
        'rendering a template failed, usually because it uses a variable the caller did not pass: templates render in strict mode, so a missing variable in an output such as `{{ name }}` is an error rather than an empty string (a condition such as `{% if name %}`, or the `default` filter, lets a missing one through; see [Strict variables](../core-utilities/liquid-templates.md#strict-variables)). A Liquid render that runs longer than one second, or would allocate more than 10,000,000 characters or list items (a loop over a range a user chose, such as `(1..n)`), fails the same way, its message saying `template render limit exceeded` or `memory alloc limit exceeded` (see [Liquid templates](../core-utilities/liquid-templates.md)). A function template that throws, or returns something other than text, fails the same way, and so does the first render of a Liquid template registered before liquidjs loaded when liquidjs cannot be imported; the next render tries the import again.',
      fix: 'pass every variable the template uses (for a function template, every name its `variables` lists).',
    },
    /** @claim errors-listen-failed-websocket */
    WEFT_LISTEN_FAILED: {
      summary: 'The HTTP server could not listen on its host and port.',
      raisedBy:
        '`ServerManager.start`, so `Runtime.start`; the listener of `@weft/plugin-websocket`, which `Runtime.start` reports as the cause of a `WEFT_START_FAILED`',
      raisers: [
        'core/src/server/server-manager.ts#ServerManager.start',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.listen',
      ],
      cause:
        'the HTTP server (or the websocket plugin’s own server) could not listen on its host and port; most often the port is taken (`EADDRINUSE`), or the host is not an address of this machine.',
      fix: 'see [Port 3000 is already taken](../guides/troubleshooting.md#port-3000-is-already-taken).',
    },
    /** @claim errors-unsupported-platform-not-at-start */
    WEFT_UNSUPPORTED_PLATFORM: {
      summary: 'Something that needs Node.js was used where the core runs in a browser.',
      raisedBy:
        'the browser build of the core: `runtime.server` (its `start` and `mount`) and `PromptRegistry.loadDirectory`',
      raisers: [
        'core/src/platform/browser.ts#loadHttpServer',
        'core/src/platform/browser.ts#readTemplateFiles',
        'core/src/server/server-stand-in.ts#ServerStandIn.unavailable',
      ],
      cause:
        'the core runs in a browser, and code used what only Node.js has: the HTTP server (`runtime.server`) or files (`loadDirectory`). The message names what needed it. `Runtime.start` does not raise it: in a browser it leaves route triggers unserved and logs a warning.',
      fix: 'in a browser, dispatch tasks with `runtime.dispatch()` from your own code instead of route triggers, and register templates from their source; see [Runtime environments](../installation.md#runtime-environments). Run the HTTP server in Node.js.',
    },
    /**
     * @claim errors-host-not-allowed-section
     * @claim errors-host-not-allowed-websocket
     * @claim errors-host-missing-http10
     * @claim errors-host-missing-websocket
     * @claim errors-host-absolute-form
     */
    WEFT_HOST_NOT_ALLOWED: {
      summary: 'An HTTP request’s `Host` header is not an allowed host.',
      status: 403,
      raisedBy:
        'the runtime’s HTTP server, before any route runs; the upgrade of `@weft/plugin-websocket`, against its own `allowedHosts`',
      raisers: [
        'core/src/server/server-manager.ts#ServerManager.checkHost',
        'plugin-websocket/src/upgrade-gate.ts#upgradeGate',
      ],
      cause:
        "an HTTP request’s `Host` header names a host that is not in `server.allowedHosts` (for a websocket upgrade, the plugin’s own `allowedHosts`), or the request has none while the allowed hosts are not `true` or `'all'`. The runtime’s server refuses a missing `Host` with this code only over HTTP/1.0: an HTTP/1.1 request without it gets `400` `WEFT_BAD_REQUEST`, whatever the allowed hosts. The websocket upgrade of `@weft/plugin-websocket` refuses an HTTP/1.0 upgrade with `400` `WEFT_BAD_REQUEST` before it reads `Host` (the websocket protocol needs HTTP/1.1 or later), so a missing `Host` there always gets `400`. A `Host` header that is present but empty gets `400` `WEFT_BAD_REQUEST` from both, over either version. The server answers before any route runs, which stops a web page whose domain was pointed at your machine (DNS rebinding) from calling the agent. `localhost`, `127.0.0.1`, `::1`, the configured `host` and IP addresses are always allowed. When the request line names a host itself, in absolute form (`GET http://agent.example.com/api HTTP/1.1`), both judge that host instead of the `Host` header, as RFC 9112 asks.",
      fix: "when the agent listens on `0.0.0.0` for remote clients, or behind a reverse proxy that passes the client’s `Host` on (whatever address the agent listens on), list the public host names clients use, such as `allowedHosts: ['agent.example.com']`; see the [configuration reference](./configuration.md#server-options).",
    },
    /**
     * @claim errors-origin-section
     * @claim errors-origin-fetch-site-fix
     */
    WEFT_ORIGIN_NOT_ALLOWED: {
      summary: 'A web page of another origin sent a request to the runtime’s HTTP server.',
      status: 403,
      raisedBy: 'the runtime’s HTTP server, before any route runs',
      raisers: ['core/src/server/server-manager.ts#ServerManager.checkOrigin'],
      cause:
        'an HTTP request’s `Origin` header names a web page that is not the server’s own origin, not in `server.allowedOrigins` and not allowed by `server.cors`, or a request without `Origin` says `Sec-Fetch-Site: cross-site` or `same-site`. A browser lets any page post a form to any address, and CORS only hides the answer after the route has run, so the server refuses such requests before any route runs or any body is read. Requests without these headers (curl, servers, apps) are not from a web page and pass.',
      fix: "list the origins of your web clients, such as `allowedOrigins: ['https://chat.example.com']` (origins allowed by `cors` pass too); behind a proxy that rewrites `Host`, list the public origin of your own pages. A request refused for its `Sec-Fetch-Site`, such as a link or an image on another site’s page, carries no origin to list: only `allowedOrigins: true`, which turns the check off, lets it through. See the [configuration reference](./configuration.md#server-options).",
    },
    /**
     * @claim errors-bad-request-route-code
     * @claim errors-bad-request-route-4xx
     * @claim errors-bad-request-4xx-hidden
     * @claim errors-missing-host
     * @claim errors-400-empty-host
     * @claim errors-bad-request-not-object
     * @claim errors-bad-request-json-only
     * @claim errors-bad-request-empty-json
     * @claim errors-bad-request-ws-http10
     * @claim errors-bad-request-ws-protocol
     * @claim errors-bad-request-absolute-form
     */
    WEFT_BAD_REQUEST: {
      summary:
        'An HTTP request was malformed or too slow: bad JSON, too large, nested too deep, unreadable, or late.',
      status: [400, 408, 413, 415, 417, 431, 501, 505],
      raisedBy:
        'the runtime’s HTTP server while it reads the request, and for a route’s error with a 4xx status and no code of its own, which keeps that status even when it is not one listed here (a `422`, say); the upgrade of `@weft/plugin-websocket`, for an HTTP/1.0 upgrade, for one whose request line names `HTTP/2.0` or `HTTP/0.9` (`505`) or whose body has a transfer coding other than `chunked` (`501`), for bytes that are not HTTP, for an upgrade without a `Host` header, with an empty one or with more than one, and for one whose request line names a target in absolute form with no host or with user information',
      raisers: [
        'core/src/server/client-errors.ts#answerClientErrors',
        'core/src/server/error-answer.ts#errorAnswer',
        'core/src/server/server-manager.ts#ServerManager.checkHost',
        'core/src/server/server-manager.ts#ServerManager.checkProtocol',
        'core/src/server/server-manager.ts#bodyRefusal',
        'core/src/server/server-manager.ts#jsonTooDeep',
        'plugin-websocket/src/upgrade-gate.ts#upgradeGate',
        'plugin-websocket/src/websocket-plugin.ts#WebSocketPlugin.listen',
      ],
      cause:
        'an HTTP request was malformed: its body, sent as `application/json`, is not JSON of an object or array (a bare `42`, `"text"` or `null` is refused too, while an empty one, sent with `Content-Length: 0`, passes and the handler gets `{}`), is nested deeper than `server.maxJsonDepth`, is compressed but does not inflate, is larger than `server.bodyLimit` (answered `413`), or is in a charset or `Content-Encoding` the JSON parser does not decode (answered `415`); its body has chunk extensions larger than Node.js accepts (answered `413`); its headers, with the URL of its request line, are larger than Node.js accepts (answered `431`); it is an HTTP/1.1 request whose `Expect` header does not name `100-continue` (answered `417`); its request line names `HTTP/2.0` or `HTTP/0.9`, versions Node.js parses but the server does not speak (answered `505`, once its `Host` has passed the host check); its body has a transfer coding other than `chunked`, such as `Transfer-Encoding: gzip, chunked`, which the server does not decode (answered `501`, once its `Host` has passed the host check: send the body chunked alone, compressed with `Content-Encoding` instead); its bytes are not HTTP, it is an HTTP/1.1 request without a `Host` header, its `Host` header is empty, or it carries more than one `Host` header; its request line names a target in absolute form with no host or with user information (`http://user@agent.example.com/`); it is a websocket upgrade to `@weft/plugin-websocket` sent over HTTP/1.0, which the websocket protocol (RFC 6455) does not allow; a path segment that a route’s `:name` captures is not valid percent-encoding (`Failed to decode param`); or it took longer to arrive than `server.headersTimeout` or `server.requestTimeout` (answered `408`). A route that sets its own `invalidBodyCode`, such as `@weft/plugin-chat`’s, answers a body that is not JSON of an object or array or nests too deep with that code instead (`WEFT_CHAT_INVALID_REQUEST`), still `400`. A body sent with another `Content-Type`, or without one, is neither parsed nor checked: the server reads it off and drops it, and the handler runs with no body. An error a route handler throws with another 4xx `status` (or `statusCode`) and no code of its own, such as a `422`, is answered with that status and this code, and with its message when it has `expose: true`; one without it, such as an API client’s error carrying the status of its own call, or made with `expose: false`, gets its status’s reason phrase in place of its message, which goes to the log (see [HTTP statuses](#http-statuses)).',
      fix: 'the client must send a valid request within the limits, without pausing halfway.',
    },
    /** @claim errors-too-many-connections */
    WEFT_TOO_MANY_CONNECTIONS: {
      summary: 'The HTTP server holds as many connections as it takes, from the client or in all.',
      status: 503,
      raisedBy: 'the runtime’s HTTP server, as a connection opens, before it reads a request',
      raisers: ['core/src/server/connection-limits.ts#limitConnections'],
      cause:
        'a new connection would have gone past `server.maxConnections` (default 1000) open connections in all, or past `server.maxConnectionsPerClient` from the client’s address (no cap by default). The server answers `503` with `Retry-After: 1` and closes it at once; connections already open go on.',
      fix: 'a client that opens connections without closing them (or without keep-alive) is the usual cause: reuse connections, or close them when done. If the load is real, raise the caps or run more instances; behind a reverse proxy, every client shares the proxy’s address, so leave `maxConnectionsPerClient` off there and cap clients in the proxy.',
    },
    WEFT_NOT_FOUND: {
      summary: 'No route matches an HTTP request.',
      status: 404,
      raisedBy: 'the runtime’s HTTP server',
      raisers: [
        'core/src/server/client-errors.ts#answerClientErrors',
        'core/src/server/server-manager.ts#ServerManager.start',
      ],
      cause:
        'no route matches the request’s method and path. A `CONNECT` request, which asks for a tunnel, is answered `404` with this code as well, and its connection is closed.',
      fix: 'check the path and method against the route triggers of your plugins.',
    },
    /** @claim errors-internal-keeps-weft-code */
    WEFT_INTERNAL: {
      summary: 'An unexpected failure; the answer carries an id that the log line also has.',
      status: 500,
      raisedBy:
        'the runtime’s HTTP server, for an error of a route that has no 4xx status and is not a `WeftError`',
      raisers: ['core/src/server/error-answer.ts#errorAnswer'],
      cause:
        'something failed unexpectedly while the server handled a request. The client gets a generic answer with a request id, and the log has the full error, its message cut to 2,000 characters, under the same id. An error that carries a 5xx `status` (or `statusCode`) of its own, such as an HTTP error of a library, is answered with that status instead of `500`, with this code. A `WeftError` without a 4xx status keeps its own code in the answer instead (a handler that lets `WEFT_TEMPLATE_NOT_FOUND` through answers `500` with that code, and its own `status` if it has a 5xx one), still with the generic message, unless it was made with `expose`, as the `503`s of a full queue and of a stopping runtime are, whose message the client gets.',
      fix: 'find the id in the log (`request failed` lines) and fix the error it shows.',
    },
  },
} as const satisfies ErrorRegistry<WeftErrorCode>;
