/**
 * Why a task's arrival has no JSON form, in one line that names the value at fault, for the
 * 400 that refuses it. `JSON.stringify`'s own message for a circular structure spans several
 * lines, and a thrown `toJSON()` may say anything, so neither is quoted: the error keeps the
 * original as its cause.
 */

/** The longest path the message shows; a longer one is cut, with its length given. */
const MAX_PATH_LENGTH = 200;

/** A property key as it follows a path: `.name` when it is a plain name, else `["key"]`. */
function step(key: string, holder: unknown): string {
  if (Array.isArray(holder)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

function shown(path: string): string {
  return path.length <= MAX_PATH_LENGTH
    ? path
    : `${path.slice(0, MAX_PATH_LENGTH)}… (${path.length} characters)`;
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
 * Writes one field as `JSON.stringify` would, keeping the path of each object being written,
 * and stops at the first value it cannot write.
 */
function firstProblem(field: string, value: unknown): string | undefined {
  // The path of each object being written and the object holding it; depth first, so an object
  // met again elsewhere (not a cycle) is given its new path before its own values are written.
  const paths = new Map<object, string>();
  const parents = new Map<object, object | undefined>();
  let problem: string | undefined;
  const marker = new Error('unwritable');
  try {
    JSON.stringify({ [field]: value }, function check(this: unknown, key: string, item: unknown) {
      if (key === '' && this !== null && typeof this === 'object' && !paths.has(this)) {
        // The wrapper: its one value is the field itself.
        return item;
      }
      const holder = this as object;
      const path = `${paths.get(holder) ?? ''}${paths.has(holder) ? step(key, holder) : key}`;
      if (typeof item === 'bigint') {
        problem =
          path === field
            ? 'is a BigInt, which JSON cannot write'
            : `holds a BigInt at ${shown(path)}, which JSON cannot write`;
        throw marker;
      }
      if (item !== null && typeof item === 'object') {
        for (let at: object | undefined = holder; at !== undefined; at = parents.get(at)) {
          if (at === item) {
            problem = `holds a circular reference: ${shown(path)} refers back to an object that contains it`;
            throw marker;
          }
        }
        paths.set(item, path);
        parents.set(item, paths.has(holder) ? holder : undefined);
      }
      return item;
    });
  } catch (error) {
    return error === marker && problem !== undefined
      ? problem
      : 'could not be written as JSON: a toJSON() method or a getter in it threw (the error is the cause)';
  }
  return undefined;
}
