/**
 * The core's own prompt templates, registered under the `core/` namespace of every runtime's
 * PromptRegistry and rendered by name like any other. They are functions rather than liquid
 * sources: every task renders two or more of them, and liquid parsing and rendering them was, in
 * a fresh page at a 4x CPU slowdown, about 18 ms of a run whose whole budget is 100 ms; as
 * functions they cost microseconds, and the compiler checks each field they read against the
 * runtime's own types. Plugins' templates stay liquid: their text is theirs to edit.
 *
 * Rendering keeps the registry's contract: a variable a template reads but the caller did not
 * pass is an error that names it. Optional fields may be absent, `undefined` or `null`.
 */
import type { PipelineStep } from '../pipeline/schemas.js';
import type {
  PipelineGenerationContext,
  PipelineModificationContext,
} from '../pipeline/contexts.js';
import type { Context } from '../tasks/task.js';
import { cutText } from '../util/cut-text.js';
import { jsonOf, NO_JSON_FORM } from '../util/json-text.js';

/** One core template: the variables it reads, and how it makes its text from them. */
export interface CoreTemplate {
  /** The variables the template reads; rendering without one of them is an error naming it. */
  readonly variables: readonly string[];
  /** Makes the text; called only with every name of `variables` present. */
  readonly render: (variables: Readonly<Record<string, unknown>>) => string;
}

type ExecutorLine = PipelineGenerationContext['executors'][number];

interface GetObjectVariables {
  readonly system: string;
  readonly schemaName: string;
  readonly schema: string;
}

interface GetObjectRetryVariables {
  readonly schemaName: string;
  readonly error: string;
}

/** How long a step's data may be in the review prompt before it is cut, in characters. */
const ITEM_DATA_CHARS = 400;

/**
 * Declares a core template. The cast is checked by `render`'s caller, the registry, which calls
 * `render` only when every name of `variables` is present.
 */
function template<Variables>(
  variables: readonly (keyof Variables & string)[],
  render: (variables: Variables) => string,
): CoreTemplate {
  return { variables, render: render as (variables: Readonly<Record<string, unknown>>) => string };
}

/** A value is shown when it is neither absent nor `null` (an empty string is shown). */
function present<T>(value: T | null | undefined): value is T {
  return value !== undefined && value !== null;
}

function triggerLines(trigger: Context): string {
  let lines = `Trigger: ${trigger.pluginId}/${trigger.action}\n`;
  if (present(trigger.message)) lines += `Message: ${trigger.message}\n`;
  // Data with no JSON form is named, as in the review prompt: it must not fail the planning.
  if (present(trigger.data)) lines += `Data: ${jsonOf(trigger.data) ?? NO_JSON_FORM}\n`;
  return lines;
}

function executorLines(executors: readonly ExecutorLine[]): string {
  return executors
    .map(
      (executor) =>
        `- pluginId "${executor.pluginId}", action "${executor.action}": ${executor.description}\n`,
    )
    .join('');
}

/**
 * What a chain item says in the review prompt: its error, its data as JSON, or its message. Data
 * with no JSON form (a bigint, a function, a circular object) is named as such: it stays in the
 * task, and must not make the review fail, which would skip it.
 */
function itemSummary(item: Context): string {
  if (item.type === 'error') return item.error ?? '';
  if (present(item.data)) {
    const json = jsonOf(item.data);
    if (json === undefined) return NO_JSON_FORM;
    return cutText(json, ITEM_DATA_CHARS);
  }
  return item.message || 'no data';
}

function stepLine(step: PipelineStep): string {
  return `- ${step.pluginId}/${step.action}${step.reason ? ` (${step.reason})` : ''}\n`;
}

export const coreTemplates: Readonly<Record<string, CoreTemplate>> = {
  'pipeline-generation': template<PipelineGenerationContext>(
    ['task', 'space', 'executors', 'relatedText', 'maxSteps'],
    ({ task, space, executors, relatedText, maxSteps }) =>
      `You plan the work of an AI agent. A trigger produced the task below; choose which executors to run, in order, to handle it.

## Task
Space: ${space.id}${space.description ? ` (${space.description})` : ''}
${triggerLines(task.trigger)}
## Executors you may use
${executorLines(executors)}
## Earlier tasks and related memories, newest first
${relatedText}

Answer with at most ${maxSteps} steps, using only the executors listed. Return an empty "steps" list when nothing needs doing.`,
  ),

  'pipeline-modification': template<PipelineModificationContext>(
    ['task', 'space', 'chain', 'remaining', 'executors', 'stepsLeft'],
    ({ task, space, chain, remaining, executors, stepsLeft }) => {
      const trigger = task.trigger;
      const message = present(trigger.message) ? `Message: ${trigger.message}\n` : '';
      const items = chain
        .map(
          (item) =>
            `- ${item.type} from ${item.pluginId}${item.action ? `/${item.action}` : ''}: ${itemSummary(item)}\n`,
        )
        .join('');
      const steps = remaining.length > 0 ? remaining.map(stepLine).join('') : 'None.\n';
      return `You supervise the pipeline of an AI agent. A step has just run; decide whether the remaining steps still make sense.

## Task
Space: ${space.id}
Trigger: ${trigger.pluginId}/${trigger.action}
${message}
## What happened so far
${items}
## Remaining steps
${steps}
## Executors you may use
${executorLines(executors)}
${stepsLeft} more steps may run. Answer {"type": "continue"} to keep the remaining steps, {"type": "replace", "steps": [...]} to replace them, or {"type": "stop"} when the task is done or cannot be done.`;
    },
  ),

  'get-object': template<GetObjectVariables>(
    ['system', 'schemaName', 'schema'],
    ({ system, schemaName, schema }) =>
      `${system === '' ? '' : `${system}\n\n`}Answer with one JSON value and nothing else: no prose, no code fences. It must match this JSON Schema (${schemaName}):
${schema}`,
  ),

  'get-object-retry': template<GetObjectRetryVariables>(
    ['schemaName', 'error'],
    ({ schemaName, error }) => `Your previous answer was not valid for the schema ${schemaName}:
${error}

Answer again with one corrected JSON value that matches the schema, and nothing else.`,
  ),
};
