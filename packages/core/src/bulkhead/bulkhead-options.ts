import * as z from 'zod';
import { timerMilliseconds } from '../util/timer-schema.js';

const positiveInteger = z.number().int().positive();

/** How long a call waits for a full bulkhead by default, in milliseconds. */
export const DEFAULT_BULKHEAD_WAIT_MS = 30_000;

/**
 * The schema of `options.bulkhead`. The configuration reference's table is generated from it.
 *
 * @internal
 */
export const bulkheadOptionsSchema = z
  .object({
    maxConcurrent: positiveInteger
      .optional()
      .meta({ defaultLabel: '`scheduler.concurrency` − 1 (at least 1)' })
      .describe(
        'The most calls one dependency (a model provider, a plugin’s steps, the memory provider) may have running at once, so a dependency that hangs holds at most this many workers. Below `scheduler.concurrency`, a hung dependency always leaves a worker for other spaces.',
      ),
    maxWaitMs: timerMilliseconds
      .default(DEFAULT_BULKHEAD_WAIT_MS)
      .describe(
        'The longest a call waits for a slot of a full dependency, in milliseconds, before it fails with `WEFT_BULKHEAD_FULL`: a step’s call fails the step and a planning call the task, while a review that fails keeps the remaining steps and a memory the runtime cannot read or store is logged and left out (the finished task’s chain waits 10 s at most). <!-- claim: cfg-bulkhead-wait --> A waiting task gives its worker back, so the wait holds no worker.',
      ),
    limits: z
      .record(z.string(), positiveInteger)
      .default({})
      .describe(
        "A limit per dependency instead of `maxConcurrent`, keyed `model:<provider id>`, `plugin:<plugin id>` or `memory:<provider id>`, such as `{ 'plugin:weather': 1 }`. A key that names no configured provider or plugin is an error.",
      ),
  })
  .strict()
  .prefault({})
  .meta({
    section: 'Bulkhead options',
    sectionIntro:
      'Limits on what one dependency may hold at once; see [Running in production](../guides/production.md#one-hung-dependency).',
  })
  .describe(
    'Concurrency limits per model provider, plugin and memory provider; see [Bulkhead options](#bulkhead-options).',
  );

/** The resolved `options.bulkhead`. */
export type BulkheadOptions = z.output<typeof bulkheadOptionsSchema>;

/**
 * Problems with the keys of `options.bulkhead.limits` that the schema cannot see: a key naming
 * a model provider, plugin or memory provider that is not configured.
 *
 * @param limits - The limits by key.
 * @param known - The configured dependency keys.
 * @returns One message per unknown key, naming the option.
 */
export function unknownLimitKeys(
  limits: Readonly<Record<string, number>>,
  known: ReadonlySet<string>,
): string[] {
  return Object.keys(limits)
    .filter((key) => !known.has(key))
    .map(
      (key) =>
        `options.bulkhead.limits["${key}"]: no such dependency; configured: ${[...known].map((name) => `"${name}"`).join(', ')}`,
    );
}
