/**
 * A task's arrival as JSON text, or why it cannot be recorded, in one line that names the value
 * at fault, for the 400 that refuses it. `JSON.stringify`'s own message for a circular structure spans several
 * lines, and a thrown `toJSON()` may say anything, so neither is quoted: the error keeps the
 * original as its cause. The walk and its phrases are the core's, which memory stores share.
 */
import { MAX_MEMORY_JSON_DEPTH } from '@weft/core';
import {
  bigIntProblem,
  circularReferenceProblem,
  JsonWalk,
  shownJsonPath,
} from '@weft/core/internal';

/**
 * The most levels of objects and arrays each field of an arrival (`data`, `metadata`) may nest,
 * the outermost counting as level 1: the core's limit for a memory's content and metadata, which
 * a task's data often becomes. `JSON.stringify` follows nesting on the JavaScript stack, and
 * PostgreSQL's `json` parser on its own, so without a limit how deep an event may go would depend
 * on both stacks.
 *
 * @internal
 */
export const MAX_ARRIVAL_JSON_DEPTH = MAX_MEMORY_JSON_DEPTH;

/** An arrival written as JSON, or why it cannot be. */
export type ArrivalJson =
  | { readonly json: string }
  | {
      /** A phrase to follow "cannot be recorded, since", naming the field and the path. */
      readonly problem: string;
      /** What to send instead, such as `send plain JSON values`. */
      readonly fix: string;
      /** The error `JSON.stringify` threw, when it threw one. */
      readonly cause?: unknown;
    };

/** Thrown from the replacer of {@link arrivalJson} to stop the walk at a value past the limit. */
class TooDeep extends Error {
  constructor(
    readonly field: string,
    readonly path: string,
  ) {
    super('nested too deep');
  }
}

/**
 * Writes an arrival as JSON, refusing a field that nests deeper than
 * {@link MAX_ARRIVAL_JSON_DEPTH} (checked as the value is written, so the walk never goes deeper
 * into the stack than the limit) and a value with no JSON form (a cycle, a `BigInt`).
 *
 * @param arrival - The task's arrival.
 * @returns Its JSON text, or the problem, such as `"data" nests objects and arrays deeper than
 * the limit of 100 levels: data.a.a… is at level 101`.
 * @internal
 */
export function arrivalJson(arrival: object): ArrivalJson {
  let top: unknown;
  let field = '';
  let walk = new JsonWalk(field);
  let started = false;
  try {
    const json = JSON.stringify(arrival, function check(this: unknown, key: string, item: unknown) {
      // The first call hands the arrival itself (after any toJSON()); each field starts a walk
      // of its own, named for it, in which its value counts as level 1.
      if (!started) {
        started = true;
        top = item;
        return item;
      }
      if (this === top) {
        field = key;
        walk = new JsonWalk(key);
      }
      const { depth } = walk.visit(this, key, item);
      if (depth > MAX_ARRIVAL_JSON_DEPTH) throw new TooDeep(field, walk.path());
      return item;
    }) as string | undefined;
    if (json !== undefined) return { json };
    return { problem: 'it has no JSON form', fix: 'send plain JSON values' };
  } catch (error) {
    if (error instanceof TooDeep) {
      return {
        problem: `"${error.field}" nests objects and arrays deeper than the limit of ${MAX_ARRIVAL_JSON_DEPTH} levels: ${shownJsonPath(error.path)} is at level ${MAX_ARRIVAL_JSON_DEPTH + 1}`,
        fix: 'send flatter data',
      };
    }
    return { problem: describeUnwritable(arrival), fix: 'send plain JSON values', cause: error };
  }
}

/**
 * Says which field of an arrival `JSON.stringify` could not write, and why.
 *
 * @param arrival - The arrival `JSON.stringify` refused.
 * @returns A phrase to follow "cannot be recorded, since", such as `"data" holds a circular
 * reference: data.self refers back to an object that contains it`.
 * @internal
 */
export function describeUnwritable(arrival: object): string {
  let fields: [string, unknown][];
  try {
    fields = Object.entries(arrival);
  } catch {
    // A getter of the arrival itself threw.
    return 'it could not be written as JSON (the error is the cause)';
  }
  for (const [field, value] of fields) {
    const found = firstProblem(field, value);
    if (found !== undefined) return `"${field}" ${found}`;
  }
  return 'it has no JSON form';
}

/**
 * Writes one field as `JSON.stringify` would, following the walk with the core's `JsonWalk`, and
 * stops at the first value it cannot write.
 */
function firstProblem(field: string, value: unknown): string | undefined {
  const walk = new JsonWalk(field);
  let problem: string | undefined;
  const marker = new Error('unwritable');
  try {
    JSON.stringify(value, function check(this: unknown, key: string, item: unknown) {
      const { circular } = walk.visit(this, key, item);
      if (typeof item === 'bigint') problem = bigIntProblem(walk.path(), field);
      else if (circular) problem = circularReferenceProblem(walk.path());
      if (problem !== undefined) throw marker;
      return item;
    });
  } catch (error) {
    return error === marker && problem !== undefined
      ? problem
      : 'could not be written as JSON: a toJSON() method or a getter in it threw (the error is the cause)';
  }
  return undefined;
}
