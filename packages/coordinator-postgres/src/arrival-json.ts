/**
 * Why a task's arrival has no JSON form, in one line that names the value at fault, for the
 * 400 that refuses it. `JSON.stringify`'s own message for a circular structure spans several
 * lines, and a thrown `toJSON()` may say anything, so neither is quoted: the error keeps the
 * original as its cause. The walk and its phrases are the core's, which memory stores share.
 */
import { bigIntProblem, circularReferenceProblem, JsonWalk } from '@weft/core/internal';

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
