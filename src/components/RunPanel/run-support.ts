/**
 * What every Run panel's run shares: the event vocabulary the panel shows, the description of an
 * example's run (its inputs, presets and answers), the check of the reader's JSON answers against
 * the schemas the runtime parses them with, and `observedRun`, which runs an example's plugins in
 * a runtime built for the page and reports each event as it happens, timed from the start.
 *
 * The runtime is built with `Runtime.init` without `server` or `handleSignals`: both exist only
 * in Node.js. Route triggers are not served in a page; a run dispatches its task as the plugin's
 * route handler would.
 */
import {
  PipelineModificationSchema,
  PipelineSchema,
  Runtime,
  type AgentTask,
  type AnalyticsTracker,
  type Memory,
  type ModelRequestConfig,
  type Plugin,
  type RuntimeOptions,
} from '@weft/core';
import { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';
import { pino } from 'pino';
import type { ZodType } from 'zod';
import type { EditorChunk } from './editor/chunk';

/** One thing that happened during a run, `atMs` after it started. */
export type RunEvent = { atMs: number } & (
  | { kind: 'trigger'; pluginId: string; triggerId: string; space: string; message?: string }
  | {
      kind: 'model-call';
      purpose: string;
      provider: string;
      prompt: string;
      answer: string;
      failed: boolean;
    }
  | { kind: 'plan'; steps: { pluginId: string; action: string; reason?: string }[] }
  | { kind: 'step'; pluginId: string; action: string; success: boolean; text: string }
  | {
      kind: 'review';
      decision: 'continue' | 'replace' | 'stop';
      steps?: { pluginId: string; action: string }[];
      reason?: string;
    }
  | { kind: 'memory'; memoryKind: string; space: string }
  /** What a route trigger's handler answered: its HTTP status and JSON body. */
  | { kind: 'response'; status: number; body: string }
  | { kind: 'status'; status: AgentTask['status']; reply?: string }
);

/** An event as a run reports it, before `observedRun` times it. */
export type UntimedRunEvent = WithoutTime<RunEvent>;
// Distributes over the union, so each kind keeps its own fields.
type WithoutTime<Event> = Event extends unknown ? Omit<Event, 'atMs'> : never;

/** What the reader can change before a run. */
export interface RunInput {
  /** The incoming message (what the trigger dispatches). */
  message: string;
  /** The scripted model's answers, by field, as JSON text. */
  answers: Record<string, string>;
  /** The chosen preset's id. */
  preset: string;
  /** The other inputs of the trigger, by field, such as a chat's room and user. */
  fields?: Record<string, string>;
}

/** An input of the trigger besides the message, edited as one line of text. */
export interface InputField {
  field: string;
  /** The input's label. */
  label: string;
}

/** A reader's answer that cannot be used, naming the field that was wrong. */
export interface AnswerProblem {
  field: string;
  message: string;
}

/** One of the scripted model's answers the reader can edit. */
export interface AnswerField {
  field: string;
  /** The editor's label. */
  label: string;
  /** How the problem message names it, such as "plan answer". */
  name: string;
  /** The schema the runtime or the executor parses the answer with. */
  schema: ZodType;
}

/** A state the run starts from; one per example makes a step fail. */
export interface Preset {
  id: string;
  label: string;
}

/** State a run may keep between runs of one panel, such as a conversation's memory. */
export interface RunSession {
  memory: ObservedMemory;
}

/**
 * A class whose instances are the example's plugin, such as the reader's edited one; the run
 * constructs it with the arguments the file's class takes (`EditablePlugin.constructorArgs`).
 */
export type PluginClass = new (...args: never[]) => Plugin;

/**
 * The example's plugin file, offered for editing in the panel: the editor shows the file the page
 * shows, and Run runs the reader's edited class in place of the file's own.
 */
export interface EditablePlugin {
  /** The file's path, as the page's code block titles it. */
  file: string;
  /** The file's export the run uses, such as `AssistantPlugin`: a string, since builds shorten class names. */
  exportName: string;
  /** The edit button's text, when "Edit the executor’s TypeScript" does not say what is edited. */
  editLabel?: string;
  /**
   * What the run constructs the class with, when it takes arguments; the editor's check
   * constructs the reader's class with them too. None by default.
   */
  constructorArgs?: readonly unknown[];
  /**
   * Loads the editor with the file's text (./editor/load/<example>.ts): a dynamic import of its
   * own, so neither a page nor a Run press loads the editor.
   */
  load(): Promise<EditorChunk>;
}

/** The edit button's text for a plugin whose triggers the reader edits too, not only an executor. */
export const PLUGIN_EDIT_LABEL = 'Edit the plugin’s TypeScript';

/**
 * The plugin an example offers for editing: one for the whole example, or one per preset when
 * the presets run different plugins (Triggers: the issues plugin, or the heartbeat).
 */
export type EditableChoice = EditablePlugin | ((preset: string) => EditablePlugin | undefined);

/** The plugin `definition` offers for editing under `preset`, if any. */
export function editableFor(definition: RunDefinition, preset: string): EditablePlugin | undefined {
  const { editable } = definition;
  return typeof editable === 'function' ? editable(preset) : editable;
}

/** An example's run, as its panel drives it. */
export interface RunDefinition {
  /** The example's id, as the shell's `example` prop names it. */
  id: string;
  /** The label of the message field (an issue title, a chat message...). */
  messageLabel: string;
  presets: readonly Preset[];
  /** The preset whose step fails. */
  failingPreset: string;
  answerFields: readonly AnswerField[];
  /** Inputs besides the message, whose values are in `RunInput.fields`. */
  inputFields?: readonly InputField[];
  /**
   * Checks the message and `fields` as the example's trigger would before it dispatches,
   * naming the field (`message` or an input field) that is wrong; a problem stops the run.
   */
  checkInput?(input: RunInput): AnswerProblem[];
  /** The message and answers a preset starts from. */
  initialInput(preset: string): Promise<RunInput>;
  /** Keeps memories from one run to the next when present (a conversation). */
  newSession?(): RunSession;
  /** The plugin the reader may edit; without it the panel offers no editor. */
  editable?: EditableChoice;
  /**
   * Runs the task. `plugin`, given only with `editable`, is the reader's edited class, run in
   * place of the file's `exportName` (the one `editableFor` gives for `input.preset`).
   */
  run(
    input: RunInput,
    onEvent: (event: RunEvent) => void,
    session?: RunSession,
    plugin?: PluginClass,
  ): Promise<AgentTask>;
}

/** The plan and review answers most examples let the reader edit. */
export const PLAN_FIELD: AnswerField = {
  field: 'plan',
  label: "The model's plan answer (JSON)",
  name: 'plan answer',
  schema: PipelineSchema,
};
export const REVIEW_FIELD: AnswerField = {
  field: 'review',
  label: "The model's review answer (JSON, asked for after a failed step)",
  name: 'review answer',
  schema: PipelineModificationSchema,
};

/** An object as the panel's editors show it. */
export const asJson = (value: unknown): string => JSON.stringify(value, null, 2);

function describeIssuePath(path: readonly PropertyKey[]): string {
  return path.length === 0 ? '(the answer itself)' : path.map(String).join('.');
}

/**
 * Checks the reader's answers against the schemas they will be parsed with.
 *
 * @returns The problems found, one per field at most; empty when every answer can be used.
 */
export function checkAnswers(fields: readonly AnswerField[], input: RunInput): AnswerProblem[] {
  const problems: AnswerProblem[] = [];
  for (const { field, name, schema } of fields) {
    let value: unknown;
    try {
      value = JSON.parse(input.answers[field] ?? '');
    } catch (error) {
      problems.push({ field, message: `${name}: not valid JSON (${(error as Error).message})` });
      continue;
    }
    const parsed = schema.safeParse(value);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    problems.push({
      field,
      message: `${name}: ${describeIssuePath(issue?.path ?? [])}: ${issue?.message ?? 'invalid'}`,
    });
  }
  return problems;
}

/** The prompt of a model call as one text: each message's role, then its content. */
function promptText(messages: readonly { role: string; content: string }[]): string {
  return messages.map((message) => `[${message.role}] ${message.content}`).join('\n\n');
}

/**
 * The in-memory provider, reporting each memory it stores to whoever listens now: a session's
 * memory outlives the run that created it.
 */
export class ObservedMemory extends InMemoryMemoryProvider {
  listener: ((stored: Memory) => void) | undefined;

  override async store(memory: Omit<Memory, 'id' | 'createdAt'>): Promise<Memory> {
    const stored = await super.store(memory);
    this.listener?.(stored);
    return stored;
  }
}

/** A message of a model call's prompt. */
type Message = { role: 'system' | 'user' | 'assistant'; content: string };

/** Answers one model call: a text, or a throw that the call reports as failed. */
export type Answerer = (
  provider: string,
  messages: readonly Message[],
  request: ModelRequestConfig,
) => string | Promise<string>;

export interface ObservedRunConfig {
  plugins: Plugin[];
  /** The scripted providers' ids; the first is the default. Default `['scripted']`. */
  providers?: readonly string[];
  answer: Answerer;
  /** Runtime options besides the logger and analytics, as the example's agent sets them. */
  options?: Omit<RuntimeOptions, 'logger' | 'analytics' | 'server'>;
  memory?: ObservedMemory;
  /**
   * Starts the task and resolves with it when it has finished: by `runtime.dispatch`, as a
   * route handler does, or by waiting for `firstTaskEnded` when a start trigger dispatches.
   * `report` adds an event of its own, such as what a route handler answered.
   */
  dispatch(
    runtime: Runtime,
    firstTaskEnded: Promise<AgentTask>,
    report: (event: UntimedRunEvent) => void,
  ): Promise<AgentTask>;
  onEvent(event: RunEvent): void;
  /**
   * The reply the status event shows, when the example's reply is not the last result's
   * `message` (the default), such as the chat plugin's `data.text`.
   */
  replyOf?(task: AgentTask): string | undefined;
}

/**
 * Runs an example's plugins with scripted models and in-memory memory, reporting every event of
 * its first task: the trigger, each model call (with the plan and each review it decided), each
 * step's result or error, each memory written, and the status with the reply.
 */
export async function observedRun(config: ObservedRunConfig): Promise<AgentTask> {
  const started = performance.now();
  const at = (): number => Math.round((performance.now() - started) * 10) / 10;
  // Only the first task is reported: a timer trigger may start another before the runtime stops.
  let firstTaskId: string | undefined;
  let finished = false;
  const emit = (event: RunEvent): void => {
    if (!finished) config.onEvent(event);
  };

  const models = (config.providers ?? ['scripted']).map(
    (id) =>
      new ScriptedModelProvider({
        id,
        fallback: async (messages, request) => {
          const purpose = request.purpose ?? 'reply';
          const prompt = promptText(messages);
          let text: string;
          try {
            text = await config.answer(id, messages, request);
          } catch (error) {
            const answer = (error as Error).message;
            emit({
              atMs: at(),
              kind: 'model-call',
              purpose,
              provider: id,
              prompt,
              answer,
              failed: true,
            });
            throw error;
          }
          emit({
            atMs: at(),
            kind: 'model-call',
            purpose,
            provider: id,
            prompt,
            answer: text,
            failed: false,
          });
          reportDecision(purpose, text);
          return text;
        },
      }),
  );

  function reportDecision(purpose: string, text: string): void {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return;
    }
    if (purpose === 'plan') {
      const plan = PipelineSchema.safeParse(value);
      if (plan.success) emit({ atMs: at(), kind: 'plan', steps: plan.data.steps });
    } else if (purpose === 'review') {
      const review = PipelineModificationSchema.safeParse(value);
      if (!review.success) return;
      const { data } = review;
      emit({
        atMs: at(),
        kind: 'review',
        decision: data.type,
        ...(data.type === 'replace' ? { steps: data.steps } : {}),
        ...('reason' in data && typeof data.reason === 'string' ? { reason: data.reason } : {}),
      });
    }
  }

  const memory = config.memory ?? new ObservedMemory();
  memory.listener = (stored) =>
    emit({ atMs: at(), kind: 'memory', memoryKind: stored.kind, space: stored.space });

  let resolveFirstEnd!: (task: AgentTask) => void;
  const firstTaskEnded = new Promise<AgentTask>((resolve) => (resolveFirstEnd = resolve));

  // The executors, observed: what each returned or threw is the text of its step event.
  let lastOutcome: string | undefined;
  for (const plugin of config.plugins) {
    for (const executor of plugin.executors) {
      const execute = executor.execute.bind(executor);
      executor.execute = async (task, context) => {
        try {
          const result = await execute(task, context);
          lastOutcome =
            (result.success ? result.message : (result.error ?? result.message)) ??
            (result.data === undefined ? '' : JSON.stringify(result.data));
          return result;
        } catch (error) {
          lastOutcome = error instanceof Error ? error.message : String(error);
          throw error;
        }
      };
    }
  }

  const tracker: AnalyticsTracker = {
    onTaskStart(task) {
      if (firstTaskId !== undefined) return;
      firstTaskId = task.id;
      emit({
        atMs: at(),
        kind: 'trigger',
        pluginId: task.trigger.pluginId,
        triggerId: task.trigger.action,
        space: task.space.id,
        ...(task.trigger.message !== undefined ? { message: task.trigger.message } : {}),
      });
    },
    // Called before the step's item joins the chain; an unknown step has no executor to observe.
    onStep({ task, step, success }) {
      if (task.id !== firstTaskId) return;
      emit({
        atMs: at(),
        kind: 'step',
        pluginId: step.pluginId,
        action: step.action,
        success,
        text: lastOutcome ?? unknownStep(step.pluginId, step.action),
      });
      lastOutcome = undefined;
    },
    onTaskEnd(task) {
      if (task.id === firstTaskId) resolveFirstEnd(task);
    },
  };

  // The words of the runtime's error item for a step no executor runs (task-runner.ts).
  function unknownStep(pluginId: string, action: string): string {
    return config.plugins.some((plugin) => plugin.id === pluginId)
      ? `unknown step: plugin "${pluginId}" has no action "${action}"`
      : `unknown step: no plugin "${pluginId}" is registered`;
  }

  const runtime = await Runtime.init({
    models,
    memory,
    plugins: config.plugins,
    options: {
      ...config.options,
      analytics: { trackers: [tracker] },
      logger: pino({ level: 'silent' }),
    },
  });
  await runtime.start();
  try {
    const task = await config.dispatch(runtime, firstTaskEnded, (event) =>
      emit({ ...event, atMs: at() } as RunEvent),
    );
    const last = task.chain.at(-1);
    const reply = config.replyOf
      ? config.replyOf(task)
      : last?.type === 'result'
        ? last.message
        : undefined;
    emit({
      atMs: at(),
      kind: 'status',
      status: task.status,
      ...(task.status === 'completed' && reply !== undefined ? { reply } : {}),
    });
    return task;
  } finally {
    finished = true;
    memory.listener = undefined;
    await runtime.stop();
  }
}

/**
 * Waits for a promise, or fails after `ms`: a timer trigger that never fires must not leave the
 * panel running forever.
 */
export async function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, deadline]);
  } finally {
    clearTimeout(timer);
  }
}
