/**
 * The checks a plugin passes before the registry keeps it. They read plugins by shape, not as
 * the Plugin class: a plugin is handed the runtime, so naming the class would draw this file
 * into the runtime–plugin circle that tests/unit/core-import-graph.test.ts keeps to three files.
 */
import { HTTP_METHODS } from '../server/http-methods.js';
import type { Executor } from './executor.js';

/** What the checks read of a plugin; every Plugin has this shape. */
export interface CheckedPlugin {
  readonly id: string;
  readonly executors: readonly Executor[];
  readonly triggers: readonly CheckedTrigger[];
  readonly requiredCapabilities?: readonly string[];
  readonly templates?: Readonly<Record<string, unknown>>;
}

/**
 * The templates of a plugin by name, read by shape: none when `templates` is not an object of
 * them (a string or a list, from JavaScript), which {@link pluginProblems} names, so that its
 * characters or items are not taken for templates named `0`, `1` and so on.
 *
 * @param templates - A plugin's `templates`.
 * @returns Its entries, or none.
 */
export function templateEntries<T>(
  templates: Readonly<Record<string, T>> | undefined,
): [string, T][] {
  return isTemplateRecord(templates) ? Object.entries(templates) : [];
}

function isTemplateRecord<T>(value: T): value is T & object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What the checks read of a trigger: TriggerRoute and TriggerStart without their callers' types. */
type CheckedTrigger =
  | {
      readonly type: 'route';
      readonly id: string;
      readonly method: string;
      readonly path: string;
      readonly handler: unknown;
    }
  | { readonly type: 'start'; readonly id: string; readonly start: unknown };

const PLUGIN_ID = /^[a-z][a-z0-9-]*$/;
const RESERVED_IDS = new Set(['core']);
const METHODS = new Set<string>(HTTP_METHODS);

/**
 * Checks a plugin against itself and the plugins already registered: an invalid or duplicate
 * id, required capabilities that are not a list of ids, duplicate executor actions or trigger
 * ids, and invalid or clashing routes.
 *
 * @returns One message per problem, each naming the plugin; empty when the plugin is valid.
 */
export function pluginProblems(
  plugin: CheckedPlugin,
  registered: readonly CheckedPlugin[],
): string[] {
  const problems: string[] = [];
  const id: unknown = plugin?.id;
  const name = typeof id === 'string' ? `plugin "${id}"` : 'a plugin';
  if (typeof id !== 'string' || !PLUGIN_ID.test(id)) {
    problems.push(
      `${name}: id must be lower-case letters, digits and dashes, starting with a letter (got ${JSON.stringify(id)})`,
    );
  } else if (registered.some((other) => other.id === id)) {
    problems.push(`${name}: another plugin already has this id`);
  } else if (RESERVED_IDS.has(id)) {
    problems.push(
      `${name}: the id is reserved for the runtime's own templates and chain items; choose another`,
    );
  }
  // A string or a list would register a template per character or item, named `0`, `1`...,
  // and the plugin's own names would be missing from the first task that renders one.
  const templates: unknown = plugin?.templates;
  if (templates !== undefined && templates !== null && !isTemplateRecord(templates)) {
    const got = Array.isArray(templates) ? 'an array' : typeof templates;
    problems.push(
      `${name}: templates must be an object of templates by name, such as { reply: 'Answer {{ message }}' } (got ${got})`,
    );
  }
  if (!Array.isArray(plugin?.executors) || !Array.isArray(plugin?.triggers)) {
    problems.push(`${name}: executors and triggers must be arrays; does the plugin extend Plugin?`);
    return problems;
  }
  const required: unknown = plugin.requiredCapabilities;
  if (
    required !== undefined &&
    (!Array.isArray(required) ||
      required.some((capability) => typeof capability !== 'string' || capability === ''))
  ) {
    problems.push(
      `${name}: requiredCapabilities must be an array of capability ids, such as ["text-generation"] (got ${JSON.stringify(required)})`,
    );
  }
  const actions = new Set<string>();
  for (const executor of plugin.executors) {
    if (typeof executor?.action !== 'string' || executor.action === '') {
      problems.push(`${name}: an executor has no action name`);
      continue;
    }
    if (actions.has(executor.action))
      problems.push(`${name}: executor action "${executor.action}" is defined twice`);
    actions.add(executor.action);
    if (typeof executor.execute !== 'function')
      problems.push(`${name}: executor "${executor.action}" has no execute function`);
    if (typeof executor.description !== 'string' || executor.description.trim() === '') {
      problems.push(
        `${name}: executor "${executor.action}" needs a description (the model chooses executors by it)`,
      );
    }
  }
  const triggerIds = new Set<string>();
  // An earlier plugin may have problems of its own, such as a trigger that is null (from
  // JavaScript): its routes are read by shape, so that it cannot crash the check of this one.
  const routes = new Set(
    registered.flatMap((other) =>
      other.triggers.flatMap((trigger) =>
        trigger?.type === 'route' ? [`${trigger.method} ${trigger.path}`] : [],
      ),
    ),
  );
  for (const trigger of plugin.triggers) {
    if (typeof trigger?.id !== 'string' || trigger.id === '') {
      problems.push(`${name}: a trigger has no id`);
      continue;
    }
    if (triggerIds.has(trigger.id))
      problems.push(`${name}: trigger id "${trigger.id}" is used twice`);
    triggerIds.add(trigger.id);
    if (trigger.type === 'route') {
      if (!METHODS.has(trigger.method))
        problems.push(
          `${name}: trigger "${trigger.id}" has unsupported method ${JSON.stringify(trigger.method)}`,
        );
      if (typeof trigger.path !== 'string' || !trigger.path.startsWith('/')) {
        problems.push(
          `${name}: trigger "${trigger.id}" path must start with "/" (got ${JSON.stringify(trigger.path)})`,
        );
      }
      const key = `${trigger.method} ${trigger.path}`;
      if (routes.has(key))
        problems.push(`${name}: route ${key} of trigger "${trigger.id}" is already taken`);
      routes.add(key);
      if (typeof trigger.handler !== 'function')
        problems.push(`${name}: trigger "${trigger.id}" has no handler function`);
    } else if (trigger.type === 'start') {
      if (typeof trigger.start !== 'function')
        problems.push(`${name}: trigger "${trigger.id}" has no start function`);
    } else {
      problems.push(
        `${name}: trigger "${trigger.id}" has unknown type ${JSON.stringify((trigger as { type?: unknown }).type)}; use "route" or "start"`,
      );
    }
  }
  return problems;
}
