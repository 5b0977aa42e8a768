/**
 * Follows the walk `JSON.stringify` makes through a value, from inside its replacer: the path of
 * each value it writes, how deep in objects and arrays the value sits, and whether it closes a
 * cycle. The checks that refuse a value with no JSON form (a memory's content and metadata, a
 * coordinator's task arrival) use it to name the place at fault in one line, where
 * `JSON.stringify`'s own message for a cycle spans several.
 */

/** The longest path a message shows; a longer one is cut, with its length given. */
const MAX_PATH_LENGTH = 200;

/** A property key as it follows a path: `.name` when it is a plain name, else `["key"]`. */
function step(key: string, holder: object): string {
  if (Array.isArray(holder)) return `[${key}]`;
  return /^[A-Za-z_$][\w$]*$/.test(key) ? `.${key}` : `[${JSON.stringify(key)}]`;
}

/**
 * A path as a message shows it: whole up to 200 characters, else cut there with its length given.
 *
 * @param path - The path, such as `data.list[1].x`.
 * @returns The path to show.
 * @internal
 */
export function shownJsonPath(path: string): string {
  return path.length <= MAX_PATH_LENGTH
    ? path
    : `${path.slice(0, MAX_PATH_LENGTH)}… (${path.length} characters)`;
}

/**
 * Why a value that refers back to an object containing it has no JSON form.
 *
 * @param path - The path of the value that closes the cycle.
 * @returns A phrase such as `holds a circular reference: data.self refers back to an object that
 * contains it`.
 * @internal
 */
export function circularReferenceProblem(path: string): string {
  return `holds a circular reference: ${shownJsonPath(path)} refers back to an object that contains it`;
}

/**
 * Why a value holding a `BigInt` has no JSON form.
 *
 * @param path - The path of the `BigInt`.
 * @param root - The name of the whole value, the first step of every path.
 * @returns `is a BigInt, …` when the whole value is one, else `holds a BigInt at <path>, …`.
 * @internal
 */
export function bigIntProblem(path: string, root: string): string {
  return path === root
    ? 'is a BigInt, which JSON cannot write'
    : `holds a BigInt at ${shownJsonPath(path)}, which JSON cannot write`;
}

/** Where the replacer of `JSON.stringify` is in its walk, as {@link JsonWalk.visit} tells it. */
export interface JsonVisit {
  /** The path of the value, starting with the walk's root name, such as `data.list[1]`. */
  readonly path: string;
  /**
   * How many objects and arrays hold the value, itself included when it is one: 1 for the whole
   * value when it is an object or array, 0 when it is not.
   */
  readonly depth: number;
  /** Whether the value is an object that contains the object holding it, so closes a cycle. */
  readonly circular: boolean;
}

/**
 * Tracks the walk of one `JSON.stringify(value, replacer)` call: the replacer calls
 * {@link JsonWalk.visit} with its `this`, key and value, first of all. It sees each value as it
 * will be written, after `toJSON()`. The walk is depth first, so an object met again elsewhere,
 * not in a cycle, is given its new path before its own values are written.
 *
 * @internal
 */
export class JsonWalk {
  private readonly paths = new Map<object, string>();
  private readonly parents = new Map<object, object | undefined>();
  private readonly depths = new Map<object, number>();

  /** @param root - The name of the whole value, the first step of every path, such as `data`. */
  constructor(private readonly root: string) {}

  /**
   * Records one value of the walk. A value that closes a cycle is not recorded:
   * `JSON.stringify` throws once the replacer returns it.
   *
   * @param holder - The replacer's `this`: the object or array that holds the value.
   * @param key - The replacer's key.
   * @param item - The replacer's value.
   * @returns The value's path and depth, and whether it closes a cycle.
   */
  visit(holder: unknown, key: string, item: unknown): JsonVisit {
    // The first call's holder is the wrapper `JSON.stringify` makes, `{ "": value }`: every later
    // holder is an object or array recorded here.
    const known = holder !== null && typeof holder === 'object' && this.paths.has(holder);
    const parent = known ? (holder as object) : undefined;
    const path = parent === undefined ? this.root : `${this.paths.get(parent)}${step(key, parent)}`;
    const outer = parent === undefined ? 0 : (this.depths.get(parent) ?? 0);
    if (item === null || typeof item !== 'object') return { path, depth: outer, circular: false };
    for (let at = parent; at !== undefined; at = this.parents.get(at)) {
      if (at === item) return { path, depth: outer + 1, circular: true };
    }
    this.paths.set(item, path);
    this.parents.set(item, parent);
    this.depths.set(item, outer + 1);
    return { path, depth: outer + 1, circular: false };
  }
}
