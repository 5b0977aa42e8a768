/**
 * What the long-run tests use to show that finished work leaves nothing behind: forced garbage
 * collections, a count of the watched objects that were finalized, and a loop that collects
 * until all of them are, or a deadline passes. A FinalizationRegistry holds no reference of its
 * own, so watching an object never keeps it alive.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Exposes V8's gc() to a context created after the flag, without restarting the test worker.
setFlagsFromString('--expose-gc');

/** Forces a full garbage collection. */
export const gc = runInNewContext('gc') as () => void;

/**
 * Counts finalized objects by the kind they were watched as. `finalized` fills as finalizers
 * run, which is only after a collection and a later turn of the event loop.
 */
export function finalizationCounter(): {
  finalized: Map<string, number>;
  watch(target: object, kind: string): void;
} {
  const finalized = new Map<string, number>();
  const registry = new FinalizationRegistry<string>((kind) => {
    finalized.set(kind, (finalized.get(kind) ?? 0) + 1);
  });
  return { finalized, watch: (target, kind) => registry.register(target, kind) };
}

/**
 * Forces collections a few milliseconds apart, so finalizers get turns to run, until `done()`
 * holds or `timeoutMs` has passed. The caller asserts afterwards: a slow machine makes the test
 * slower, never wrong.
 */
export async function collectUntil(done: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!done() && Date.now() < deadline) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** The heap and buffer memory still held after a full collection, in bytes. */
export function heldMemory(): number {
  gc();
  const { heapUsed, external } = process.memoryUsage();
  return heapUsed + external;
}
