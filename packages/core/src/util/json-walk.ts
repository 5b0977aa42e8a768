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
 * {@link JsonWalk.visit} with its `this`, key and value, first of all, and
 * {@link JsonWalk.path} when it needs to name the value. It sees each value as it will be
 * written, after `toJSON()`. It keeps only the objects and arrays being written, outermost first
 * (the walk is depth first), so it costs little on a large value: a path is put together only
 * when asked for.
 *
 * @internal
 */
export class JsonWalk {
  /** The objects and arrays being written, outermost first. */
  private readonly open: object[] = [];
  /** The key of each of `open` in the one before it (the first one's is the wrapper's `""`). */
  private readonly keys: string[] = [];
  private lastKey = '';
  private lastHolders = 0;

  /** @param root - The name of the whole value, the first step of every path, such as `data`. */
  constructor(private readonly root: string) {}

  /**
   * Records one value of the walk. A value that closes a cycle is not recorded:
   * `JSON.stringify` throws once the replacer returns it.
   *
   * @param holder - The replacer's `this`: the object or array that holds the value.
   * @param key - The replacer's key.
   * @param item - The replacer's value.
   * @returns The value's depth, and whether it closes a cycle.
   */
  visit(holder: unknown, key: string, item: unknown): JsonVisit {
    // The holder is one of the open objects, and those after it are written: close them. The
    // first call's holder is the wrapper `JSON.stringify` makes, `{ "": value }`, which is not
    // open, and nothing is then.
    let holders = this.open.length;
    if (holders > 0 && this.open[holders - 1] !== holder) {
      while (holders > 0 && this.open[holders - 1] !== holder) holders -= 1;
      this.open.length = holders;
      this.keys.length = holders;
    }
    this.lastKey = key;
    this.lastHolders = holders;
    if (item === null || typeof item !== 'object') return { depth: holders, circular: false };
    if (this.open.includes(item)) return { depth: holders + 1, circular: true };
    this.open.push(item);
    this.keys.push(key);
    return { depth: holders + 1, circular: false };
  }

  /**
   * The path of the value last given to {@link JsonWalk.visit}.
   *
   * @returns The path from the root name, such as `data.list[1].x`.
   */
  path(): string {
    let path = this.root;
    for (let at = 1; at <= this.lastHolders; at += 1) {
      const key = at < this.lastHolders ? (this.keys[at] ?? '') : this.lastKey;
      path += step(key, this.open[at - 1] as object);
    }
    return path;
  }
}
