/**
 * The description of an example's run, as the Run panel drives it: the events the panel shows,
 * what the reader can change before a run (message, inputs, presets, the scripted model's
 * answers), and the plugin the reader may edit.
 */
import type { AgentTask, Plugin } from '@weft/core';
import type { ZodType } from 'zod';
import type { EditorChunk } from '../editor/chunk';
import type { ObservedMemory } from './observed-memory';

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
   * Loads the editor with the file's text (../examples/<id>/editor*.ts): a dynamic import of its
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
