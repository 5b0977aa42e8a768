/**
 * A tool's JSON Schema input, as the server wrote it, made into the zod schema the model's
 * arguments are checked against, with two changes that keep a server's schema from working
 * against the agent: only declared arguments are accepted, and the server's regular expressions
 * run with a time limit.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { createContext, Script } from 'node:vm';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { bounded } from './connection.js';
import { McpPluginError } from './errors.js';

/**
 * The longest one `pattern` of a tool's schema may run against one value. JavaScript's regular
 * expressions backtrack, so a pattern such as `^(a+)+$` takes exponential time on a value
 * shaped for it, and the check runs on the agent's only thread; past this it counts as failed.
 * @claim tsdoc-mcp-pattern-time
 */
export const PATTERN_TIME_MS = 100;

/**
 * The longest all the pattern checks of one executor's call may take together, across the
 * model's attempts: a schema with many patterns cannot stack their limits up.
 * @claim tsdoc-mcp-pattern-budget
 */
export const PATTERN_BUDGET_MS = 500;

/** The keywords whose value is a map of schemas, a list of them, or one. */
const SCHEMA_MAPS = ['properties', '$defs', 'definitions', 'dependentSchemas'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;
const SCHEMA_ONE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'not',
  'if',
  'then',
  'else',
  'contains',
  'unevaluatedProperties',
  'unevaluatedItems',
] as const;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isObjectSchema(schema: JsonObject): boolean {
  const type = schema.type;
  return (
    type === 'object' ||
    (Array.isArray(type) && type.includes('object')) ||
    isObject(schema.properties)
  );
}

/**
 * A copy of a JSON Schema in which every object accepts only the properties it names: its
 * `type` becomes `object` when it lists properties without one (zod ignores them otherwise),
 * its `additionalProperties` becomes `false` unless it is a (non-empty) schema for them, and
 * `patternProperties` and `propertyNames` are dropped, as they admit names the schema does not
 * list (and their patterns would run unbounded inside zod). An undeclared argument is then
 * refused like a wrong one, and the model is asked again with the key named. A name in an
 * object's `required` that it does not list is declared with any value, and the branches of its
 * `anyOf` and `oneOf` that name some of its properties take the others ({@link declareNames}).
 *
 * The members of an `allOf` that each describe part of one object (properties, required ones
 * and nothing else) are merged into the object holding them first, so the object is closed over
 * the properties of all its parts. Other `allOf` members are left open: closing one on its own
 * would refuse the others' properties, so such a tool keeps working but its undeclared
 * arguments are not refused.
 * @claim tsdoc-mcp-declared-only
 */
export function declaredOnly(schema: unknown): unknown {
  return closeObjects(schema, true);
}

/** The keys of an `allOf` member that can be merged into the object holding it. */
const MERGEABLE = new Set(['type', 'properties', 'required', 'title', 'description']);

function isPlainObjectPart(part: unknown): part is JsonObject {
  return (
    isObject(part) &&
    (part.type === undefined || part.type === 'object') &&
    Object.keys(part).every((key) => MERGEABLE.has(key)) &&
    (part.properties === undefined || isObject(part.properties))
  );
}

/**
 * Whether a schema whose `allOf` members are plain parts describes an object: its type is or
 * includes `object`, or, saying no type, it or one of its parts lists properties or says
 * `type: 'object'`. A string
 * whose parts only note a `description` stays a string: merging would make it an empty object,
 * and refuse every string.
 */
function allOfBuildsObject(schema: JsonObject, parts: readonly JsonObject[]): boolean {
  if (schema.type === 'object') return true;
  if (Array.isArray(schema.type)) return schema.type.includes('object');
  if (schema.type !== undefined) return false;
  return (
    isObject(schema.properties) ||
    parts.some((part) => part.type === 'object' || isObject(part.properties))
  );
}

/**
 * `schema` with its `allOf` merged into it, when it describes an object and every member is a
 * plain part of one. An empty `allOf` (which requires nothing) is merged too, so it leaves the
 * object neither open nor taken as declaring an argument.
 */
function mergeAllOf(schema: JsonObject): JsonObject {
  const parts = schema.allOf;
  if (
    !Array.isArray(parts) ||
    !parts.every(isPlainObjectPart) ||
    !allOfBuildsObject(schema, parts)
  ) {
    return schema;
  }
  const properties: JsonObject = isObject(schema.properties) ? { ...schema.properties } : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  for (const part of parts) {
    for (const [name, value] of Object.entries((part.properties as JsonObject | undefined) ?? {})) {
      // Two parts that say different things of one property would need both checks: keep allOf.
      if (name in properties && JSON.stringify(properties[name]) !== JSON.stringify(value)) {
        return schema;
      }
      properties[name] = value;
    }
    for (const name of Array.isArray(part.required) ? part.required : []) required.add(name);
  }
  const { allOf: _merged, ...rest } = schema;
  return {
    ...rest,
    // A nullable object (`type: ['object', 'null']`) stays nullable.
    type: Array.isArray(rest.type) ? rest.type : 'object',
    properties,
    ...(required.size > 0 ? { required: [...required] } : {}),
  };
}

/** The names a schema's `required` lists. */
function requiredNames(schema: JsonObject): string[] {
  return Array.isArray(schema.required)
    ? schema.required.filter((name): name is string => typeof name === 'string')
    : [];
}

/**
 * Whether a member of an object's `anyOf` or `oneOf` constrains that same object by its
 * properties or required names (`{ properties: { kind: { const: 'a' } }, required: ['x'] }`),
 * rather than being a schema of its own (a `$ref`, another type).
 */
function isBranchOfObject(member: unknown): member is JsonObject {
  return (
    isObject(member) &&
    member.$ref === undefined &&
    (member.type === undefined || member.type === 'object') &&
    (isObject(member.properties) || Array.isArray(member.required))
  );
}

/**
 * `schema`, an object about to be closed, with every name it requires declared (a required name
 * it does not list takes any value, as JSON Schema reads it), and each branch of its `anyOf` and
 * `oneOf` given the names the object lists: once closed, a branch must neither refuse the
 * object's other properties nor let its `required` go unchecked, which zod does for a name the
 * branch does not list. Their values are checked by the object itself.
 */
function declareNames(schema: JsonObject): JsonObject {
  const properties: JsonObject = isObject(schema.properties) ? { ...schema.properties } : {};
  for (const name of requiredNames(schema)) if (!(name in properties)) properties[name] = {};
  const out: JsonObject = { ...schema, properties };
  for (const key of ['anyOf', 'oneOf'] as const) {
    const list = out[key];
    if (!Array.isArray(list)) continue;
    out[key] = list.map((member) => {
      if (!isBranchOfObject(member)) return member;
      const own = isObject(member.properties) ? member.properties : {};
      const given = Object.fromEntries(
        Object.keys(properties)
          .filter((name) => !(name in own))
          .map((name) => [name, {}]),
      );
      return { ...member, properties: { ...given, ...own } };
    });
  }
  return out;
}

/** Whether {@link closeObjects} will set `additionalProperties: false` on `schema`. */
function willClose(schema: JsonObject, close: boolean): boolean {
  const extra = schema.additionalProperties;
  const admitsMore = isObject(extra) && Object.keys(extra).length > 0;
  return close && isObjectSchema(schema) && !admitsMore && !Array.isArray(schema.allOf);
}

function closeObjects(schema: unknown, close: boolean): unknown {
  if (!isObject(schema)) return schema;
  let out: JsonObject = mergeAllOf({ ...schema });
  const closing = willClose(out, close);
  if (closing) out = declareNames(out);
  // The branches of an object left open stay open too: closed, they would refuse the properties
  // the object admits.
  const branchesClose = closing || !isObjectSchema(out);
  for (const key of SCHEMA_MAPS) {
    const map = out[key];
    if (isObject(map)) {
      out[key] = Object.fromEntries(
        Object.entries(map).map(([name, value]) => [name, closeObjects(value, true)]),
      );
    }
  }
  for (const key of SCHEMA_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) {
      out[key] = list.map((member) =>
        closeObjects(member, key !== 'allOf' && (branchesClose || !isBranchOfObject(member))),
      );
    }
  }
  for (const key of SCHEMA_ONE) {
    if (!(key in out)) continue;
    const value = out[key];
    out[key] = Array.isArray(value)
      ? value.map((member) => closeObjects(member, true))
      : closeObjects(value, true);
  }
  if (isObjectSchema(out)) {
    // z.fromJSONSchema checks properties and required only where the type says object.
    if (out.type === undefined) out.type = 'object';
    delete out.patternProperties;
    delete out.propertyNames;
    // An object with allOf members left open is left open too: see above.
    if (closing) out.additionalProperties = false;
  }
  return out;
}

/** Where patterns run: a context of their own, so that its timeout can stop them. */
const sandbox = createContext({});
const runTest = new Script('pattern.test(value)');

const runCheck = new Script('check()');

/**
 * Runs `check` for at most `ms`, in the context whose timeout can stop it, as patterns run.
 *
 * @returns What `check` returned, or `'timeout'` when it ran out of time.
 */
export function withinTime<T>(check: () => T, ms: number): T | 'timeout' {
  sandbox.check = check;
  try {
    return runCheck.runInContext(sandbox, { timeout: ms }) as T;
  } catch (error) {
    if ((error as { code?: unknown } | null)?.code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') {
      return 'timeout';
    }
    throw error;
  } finally {
    sandbox.check = undefined;
  }
}

/** Time the pattern checks of one call still have; see {@link PATTERN_BUDGET_MS}. */
export interface PatternBudget {
  remainingMs: number;
}

/**
 * The budget of the call whose arguments are being checked. Calls of one tool from tasks that
 * run at the same time share its schema, so the budget travels with each call instead: one call
 * can neither use up another's time nor give it more.
 */
const callBudgets = new AsyncLocalStorage<PatternBudget>();

/**
 * Runs `work`, the asking for and checking of one call's arguments, with a pattern budget of its
 * own: {@link PATTERN_BUDGET_MS} for all the pattern checks `work` makes, across the model's
 * attempts.
 *
 * @param work - What to run with the budget.
 * @returns What `work` returns.
 */
export function withPatternBudget<T>(work: () => Promise<T>): Promise<T> {
  return callBudgets.run({ remainingMs: PATTERN_BUDGET_MS }, work);
}

/**
 * Runs `pattern` on `value` for at most {@link PATTERN_TIME_MS} and what is left of `budget`.
 *
 * @returns Whether it matched, or `'timeout'` when it ran out of time.
 */
export function boundedTest(
  pattern: RegExp,
  value: string,
  budget: PatternBudget,
): boolean | 'timeout' {
  // A check the machine starved of processor time (the limit is wall time) used little of it:
  // such a check is tried once more, within what is left of the budget, before it is refused.
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const limit = Math.min(PATTERN_TIME_MS, Math.floor(budget.remainingMs));
    if (limit < 1) return 'timeout';
    const started = performance.now();
    const processorAtStart = process.cpuUsage();
    pattern.lastIndex = 0;
    sandbox.pattern = pattern;
    sandbox.value = value;
    try {
      return runTest.runInContext(sandbox, { timeout: limit }) === true;
    } catch {
      const used = process.cpuUsage(processorAtStart);
      if ((used.user + used.system) / 1000 >= limit / 2) return 'timeout';
    } finally {
      sandbox.pattern = undefined;
      sandbox.value = undefined;
      budget.remainingMs -= performance.now() - started;
    }
  }
  return 'timeout';
}

/** What a zod 4 regex check looks like inside; the test of bounding names it. */
interface RegexCheck {
  _zod: {
    def: { check?: string; format?: string; pattern?: RegExp };
    check: (payload: { value: unknown; issues: unknown[] }) => void;
  };
}

function isRegexCheck(value: unknown): value is RegexCheck {
  const def = (value as { _zod?: { def?: RegexCheck['_zod']['def'] } } | null)?._zod?.def;
  return def?.check === 'string_format' && def.format === 'regex' && def.pattern instanceof RegExp;
}

/**
 * A schema's pattern as JSON Schema reads it, with Unicode semantics (the `u` flag), which
 * `z.fromJSONSchema` leaves off: without it `\p{L}` matches the letter p and a brace, not a
 * letter, so a correct value would be refused at every attempt. A pattern that is not valid
 * with the flag (an identity escape such as `\_`, which the older dialect accepts) is kept as
 * zod compiled it.
 */
function unicodePattern(pattern: RegExp): RegExp {
  if (/[uv]/.test(pattern.flags)) return pattern;
  try {
    return new RegExp(pattern.source, `${pattern.flags}u`);
  } catch {
    return pattern;
  }
}

/**
 * Replaces the test of every regex check in a zod schema made by `z.fromJSONSchema` with
 * {@link boundedTest}. Reaches into zod's internals (`_zod.def.checks`, `_zod.check`): the
 * package's test of hostile patterns fails if they move.
 */
function boundPatterns(schema: z.ZodType, budget: PatternBudget): void {
  const seen = new Set<unknown>();
  const visit = (node: unknown): void => {
    if (typeof node !== 'object' || node === null || seen.has(node)) return;
    seen.add(node);
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (isRegexCheck(node)) {
      bound(node);
      return;
    }
    if (node instanceof RegExp) return;
    const def = (node as { _zod?: { def?: JsonObject } })._zod?.def;
    if (def !== undefined) {
      if (def.type === 'lazy' && typeof def.getter === 'function') visit(def.getter());
      for (const value of Object.values(def)) visit(value);
      return;
    }
    for (const value of Object.values(node)) visit(value);
  };
  const bound = (check: RegexCheck): void => {
    const pattern = unicodePattern(check._zod.def.pattern as RegExp);
    check._zod.check = (payload) => {
      if (typeof payload.value !== 'string') return;
      const result = boundedTest(pattern, payload.value, callBudgets.getStore() ?? budget);
      if (result === true) return;
      payload.issues.push({
        code: 'custom',
        input: payload.value,
        message:
          result === 'timeout'
            ? `could not be checked against the pattern ${pattern.source} within ${PATTERN_TIME_MS} ms; write a shorter or plainer value`
            : `must match the pattern ${pattern.source}`,
      });
    };
  };
  visit(schema);
}

/**
 * Most parts (objects and arrays) an allowed tool's input schema may have once its `$ref`s are
 * followed. The model is shown the schema with every reference written out, so a few
 * definitions that each refer twice to the next (a schema bomb of a few hundred bytes) would
 * grow the prompt, and the agent's memory, exponentially on the tool's first call.
 */
export const MAX_SCHEMA_PARTS = 5_000;

/**
 * Counts the parts of a JSON Schema with its local `$ref`s (`#/...`) written out, stopping
 * past `limit`. A reference back into itself counts as one part, as a recursive schema is shown
 * with a reference, not expanded.
 *
 * @returns The count, or `limit + 1` when there are more.
 */
export function expandedSchemaParts(schema: unknown, limit = MAX_SCHEMA_PARTS): number {
  const counted = new Map<object, number>();
  const open = new Set<object>();
  const resolve = (ref: string): unknown => {
    let node: unknown = schema;
    for (const raw of ref.slice(2).split('/')) {
      if (raw === '') continue;
      let key: string;
      try {
        key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
      } catch {
        return undefined;
      }
      node = typeof node === 'object' && node !== null ? (node as JsonObject)[key] : undefined;
    }
    return node;
  };
  const count = (node: unknown): number => {
    if (typeof node !== 'object' || node === null) return 0;
    const known = counted.get(node);
    if (known !== undefined) return known;
    if (open.has(node)) return 1;
    open.add(node);
    let total = 1;
    const ref = (node as JsonObject).$ref;
    if (typeof ref === 'string' && ref.startsWith('#')) total += count(resolve(ref));
    for (const value of Object.values(node)) {
      if (total > limit) break;
      total += count(value);
    }
    open.delete(node);
    const capped = Math.min(total, limit + 1);
    counted.set(node, capped);
    return capped;
  };
  return count(schema);
}

/** A tool's input schema and the time its patterns have for checks made outside a call. */
export interface ToolInput {
  readonly schema: z.ZodType<Record<string, unknown>>;
  /**
   * The budget of checks made outside {@link withPatternBudget}, such as a direct `safeParse`;
   * a call's checks use the call's own.
   */
  readonly budget: PatternBudget;
}

/**
 * Converts a tool's JSON Schema input into a zod schema, so that the arguments the model writes
 * are checked (and retried) by `getObject` exactly as a hand-written executor's zod input is;
 * only declared arguments pass ({@link declaredOnly}) and patterns run bounded.
 *
 * @throws {@link McpPluginError} `WEFT_MCP_UNSUPPORTED_SCHEMA` when zod cannot convert it.
 */
export function toolInput(server: string, tool: Tool): ToolInput {
  const budget: PatternBudget = { remainingMs: PATTERN_BUDGET_MS };
  if (expandedSchemaParts(tool.inputSchema) > MAX_SCHEMA_PARTS) {
    throw new McpPluginError(
      'WEFT_MCP_UNSUPPORTED_SCHEMA',
      `McpPlugin: the input schema of tool "${tool.name}" on server "${server}" has more than ${MAX_SCHEMA_PARTS} parts once its $refs are followed, too many to show the model; leave the tool out of the allow-list.`,
    );
  }
  let schema: z.ZodType<Record<string, unknown>>;
  try {
    schema = z.fromJSONSchema(
      declaredOnly(tool.inputSchema) as Parameters<typeof z.fromJSONSchema>[0],
    ) as z.ZodType<Record<string, unknown>>;
  } catch (error) {
    throw new McpPluginError(
      'WEFT_MCP_UNSUPPORTED_SCHEMA',
      `McpPlugin: the input schema of tool "${tool.name}" on server "${server}" cannot be checked (${bounded(error instanceof Error ? error.message : String(error), 200)}); leave the tool out of the allow-list.`,
    );
  }
  boundPatterns(schema, budget);
  return { schema, budget };
}

/** {@link toolInput}'s schema alone. */
export function inputSchemaOf(server: string, tool: Tool): z.ZodType<Record<string, unknown>> {
  return toolInput(server, tool).schema;
}
