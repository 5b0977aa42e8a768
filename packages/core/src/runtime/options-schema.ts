import type { Logger } from 'pino';
import * as z from 'zod';
import type { AnalyticsTracker } from '../analytics/analytics-manager.js';
import { PIPELINE_REVIEW_POLICIES } from '../pipeline/review-policy.js';
import { serverOptionsSchema } from '../server/server-options.js';
import { bulkheadOptionsSchema } from '../bulkhead/bulkhead-options.js';
import { timerMilliseconds } from '../util/timer-schema.js';

const positiveInteger = z.number().int().positive();

/**
 * The schema of `RuntimeOptions`: `Runtime.init` validates with it, and the options
 * tables of the configuration reference are generated from it (types, ranges and defaults from
 * the schema, each option's effect from its description), so the page cannot drift from what
 * the runtime accepts.
 *
 * @internal
 */
export const optionsSchema = z
  .object({
    maxSteps: positiveInteger
      .default(10)
      .describe(
        'The most steps one task may run. A plan that would run more (steps a review adds count too) is cut off, with an error item in the task’s chain, and the task ends `failed`. <!-- claim: cfg-max-steps -->',
      ),
    taskTimeoutMs: timerMilliseconds
      .default(120_000)
      .describe(
        'The longest a task may run, in milliseconds, from when it leaves the queue. Past it the task’s signal is aborted, an error item with `WEFT_TASK_TIMEOUT` ends its chain, the task ends `failed`, and its worker is freed even if an executor ignores the signal.',
      ),
    getObjectRetries: z
      .number()
      .int()
      .nonnegative()
      .default(2)
      .describe(
        'How many times getObject (and planning, which uses it) asks again after an answer that does not match the schema. One call can override it with `maxRetries`.',
      ),
    pipelineReview: z
      .enum(PIPELINE_REVIEW_POLICIES)
      .default('always')
      .describe(
        'When the model reviews the remaining steps of a plan: after every step but a last one that succeeded (see `reviewFinalStep`), after failed steps only, or never. <!-- claim: cfg-pipeline-review --> Each review is a model call.',
      ),
    reviewFinalStep: z
      .boolean()
      .default(false)
      .describe(
        "With `pipelineReview: 'always'`, also review after the last planned step when it succeeded. That review can only add steps, and each one is a model call: one per task, and one more after the last of any steps it adds. <!-- claim: cfg-review-final-step -->",
      ),
    relatedMemories: z
      .number()
      .int()
      .nonnegative()
      .default(10)
      .describe(
        'How many earlier tasks (and other memories) of the task’s space and its related spaces the history of a task shows at most, newest first; a task’s trigger and chain count as one entry. `0` shows none. That history is shown in the planning prompt and by any step that asks for it, such as the reply step of the chat plugins, under the same limits. <!-- claim: cfg-related-history -->',
      ),
    relatedMemoryChars: positiveInteger
      .default(4000)
      .describe(
        'The most characters that history may take, in the planning prompt and in any step that shows it. Each earlier task is one entry; the newest entries are kept when they do not all fit.',
      ),
    scheduler: z
      .object({
        concurrency: positiveInteger
          .default(4)
          .describe(
            'How many tasks work at the same time, across all spaces; a task waiting for a busy dependency (see `bulkhead`) gives its worker back meanwhile. Tasks of one space always run one at a time.',
          ),
        maxQueueSize: positiveInteger
          .default(1000)
          .describe(
            'How many tasks may wait. A dispatch beyond it fails with `WEFT_QUEUE_FULL`, answered as `503` with `Retry-After: 5` over HTTP.',
          ),
      })
      .strict()
      .prefault({})
      .meta({ section: 'Scheduler options' })
      .describe('Limits of the task queue; see [Scheduler options](#scheduler-options).'),
    bulkhead: bulkheadOptionsSchema,
    server: serverOptionsSchema
      .prefault({})
      .meta({
        section: 'Server options',
        sectionIntro:
          'The server starts only when some plugin has a route trigger. Its options are those of [`ServerManagerConfig`](/api/interfaces/ServerManagerConfig/).',
      })
      .describe('The HTTP server for route triggers; see [Server options](#server-options).'),
    analytics: z
      .union(
        [
          z.boolean(),
          z
            .object({
              trackers: z
                .array(
                  z.custom<AnalyticsTracker>(
                    (value) => typeof value === 'object' && value !== null,
                  ),
                )
                .optional(),
            })
            .strict(),
        ],
        { error: 'must be true, false or { trackers: [...] }' },
      )
      .default(false)
      .meta({ typeLabel: '`boolean` or `{ trackers }`' })
      .describe(
        '`true` counts tasks, steps and model calls (read them with `runtime.analytics.snapshot()`); `{ trackers: [...] }` counts and also calls your trackers. See [Observability](../guides/observability.md#analytics).',
      ),
    handleSignals: z
      .boolean()
      .default(false)
      .describe(
        'Stop the runtime gracefully on `SIGINT` and `SIGTERM`, then end the process, with `process.exitCode` (`0` when unset), or `1` when `stop()` rejects. A plugin or provider whose shutdown throws or does not end in time is logged and does not fail the stop, so it leaves the code as it is. <!-- claim: cfg-signal-exit-code --> The listeners are added when `start()` has finished: a signal while it starts ends the process at once, as Node does by default, unless your program listens for it (or Node.js is a container’s first process, PID 1, which Linux does not end for such a signal). Leave it off when your program handles signals itself or has work of its own to finish after the stop.',
      ),
    shutdown: z
      .enum(['drain', 'cancel'])
      .default('drain')
      .describe(
        'What `stop()` does with queued and running tasks: let them finish, or cancel them.',
      ),
    shutdownTimeoutMs: timerMilliseconds
      .default(30_000)
      .describe(
        'How long a draining stop waits for tasks before it cancels the rest, in milliseconds.',
      ),
    defaultProviders: z
      .record(z.string(), z.string())
      .default({})
      .describe(
        "The provider id that serves a capability when a call names none, such as `{ 'text-generation': 'planner' }`. Without it, the first provider offering the capability serves it. The runtime’s planning calls name no provider. An entry whose provider id no provider has, or whose provider does not offer that capability itself (offering an alias of it is not enough), is an error. <!-- claim: cfg-default-providers-checked -->",
      ),
    checkHealthOnStart: z
      .boolean()
      .default(false)
      .describe(
        'Call each model and memory provider’s `checkHealth()` during `start()`, after its `init`, and fail the start with `WEFT_START_FAILED` naming the provider when it answers `false`, throws or does not answer in time. Without it the runtime never calls `checkHealth()`, and a provider that is down is first noticed by the first task that uses it.',
      ),
    startTimeoutMs: timerMilliseconds
      .default(60_000)
      .describe(
        'The longest `start()` may take, in milliseconds. Past it the start fails with `WEFT_START_FAILED` naming the part it was still waiting for (the `init` of a provider, the coordinator or a plugin, a health check, the HTTP server, a start trigger), the start triggers’ signal is aborted, and what had started is shut down. <!-- claim: cfg-start-timeout-parts --> The default is below systemd’s default start timeout of 90 s, so a supervisor that times the start sees this error before it kills the process.',
      ),
    healthCheckTimeoutMs: timerMilliseconds
      .default(10_000)
      .describe(
        'With `checkHealthOnStart`, the longest one provider’s `checkHealth()` may take, in milliseconds.',
      ),
    coordinatorTimeoutMs: timerMilliseconds
      .default(15_000)
      .describe(
        'With a `coordinator`, the longest the runtime waits for its `admit` (recording a new task) or its `release` (giving a space back), in milliseconds. An `admit` past it fails the `dispatch` with `WEFT_COORDINATOR_TIMEOUT` (503); a `release` past it is logged and the space’s next task is asked for all the same. <!-- claim: cfg-coordinator-timeout --> The default is above the longest `@weft/coordinator-postgres` takes to answer an `admit` with its own defaults, so its more precise error comes first. <!-- claim: cfg-coordinator-timeout-after-own -->',
      ),
    coordinatorAcquireTimeoutMs: timerMilliseconds
      .default(900_000)
      .describe(
        'With a `coordinator`, the longest the runtime waits for its `acquire`, the grant of a space whose earlier tasks may run on another instance, in milliseconds. Past it the space’s tasks waiting on this instance fail with `WEFT_COORDINATOR_TIMEOUT` (503) and never run. <!-- claim: cfg-coordinator-acquire-timeout --> The default, 15 minutes, is above `@weft/coordinator-postgres`’s own `acquireTimeoutMs` of 10 minutes. <!-- claim: cfg-coordinator-acquire-timeout-after-own -->',
      ),
    logger: z
      .custom<Logger>(
        (value) =>
          typeof value === 'object' &&
          value !== null &&
          typeof (value as Logger).child === 'function',
        'expected a pino logger',
      )
      .optional()
      .meta({ typeLabel: 'pino `Logger`' })
      .describe(
        'The logger of the runtime and its components. Without one, the runtime logs JSON to standard output at the level of `WEFT_LOG_LEVEL`.',
      ),
  })
  .strict();

/** The options with every default applied. */
export type ResolvedOptions = z.output<typeof optionsSchema>;
