/**
 * The loaded part of a Run panel, the same for every example: the reader's message and the
 * scripted model's answers, the example's presets (one makes a step fail), and the run's events
 * as they happen. What it runs is the example's `RunDefinition` (./examples/<id>/run.ts); the
 * run's state is the `useRun` hook's (./use-run.ts). Loaded on demand by ./index.tsx, with the
 * example's run and the Weft core, through ./examples/<id>/load.ts.
 */
// First, before the run's modules bring in the core: zod reads this setting as schemas are
// created. Each ./examples/<id>/load.ts exports the Panel before the example's run, so this runs
// first there.
import './zod-jitless';
import { useEffect, useEffectEvent, useId, useRef, useState, type ReactNode } from 'react';
import { checkAnswers } from './run/answers';
import {
  editableFor,
  type AnswerField,
  type AnswerProblem,
  type EditablePlugin,
  type PluginClass,
  type RunDefinition,
  type RunEvent,
  type RunInput,
  type RunSession,
} from './run/definition';
import { useRun } from './use-run';
import type { EditorChunk } from './editor/chunk';
import type { SourceProblem } from './editor/load-plugin-source';

/**
 * The mark read by `npm run bench -- run-panel` when this chunk has loaded (./use-run.ts marks each
 * run's end; the run's time after the chunk loads is the distance between the two).
 */
export const PANEL_LOADED_MARK = 'weft:run-panel-loaded';
performance.mark(PANEL_LOADED_MARK);

export interface PanelProps {
  /** The example's run: its inputs, presets and answers. */
  definition: RunDefinition;
  /** The preset the panel starts with; default the first. */
  initialPreset?: string | undefined;
  /** How many times the reader has pressed Run; each increase starts a run. */
  runs: number;
  /** Says something through the shell's live region. */
  onAnnounce: (text: string) => void;
  /** Tells the shell whether a run is going on. */
  onBusy: (busy: boolean) => void;
}

/**
 * The panel's styles travel with its chunk: a CSS module would join the site's one stylesheet,
 * which every page loads first (tests/build/javascript-budget.test.ts budgets it). Long prompts
 * and answers wrap inside the panel, so it never makes the page scroll sideways.
 */
const PANEL_CSS = `
.weft-run-body{margin-top:.5rem}
.weft-run-details{margin:.25rem 0}
.weft-run-details summary{cursor:pointer}
.weft-run-field{display:flex;flex-direction:column;gap:.25rem;margin:.5rem 0}
.weft-run-input,.weft-run-editor{width:100%;max-width:100%;box-sizing:border-box;font:inherit;padding:.375rem .5rem;border:1px solid var(--ifm-color-emphasis-500);border-radius:var(--ifm-global-radius);background:var(--ifm-background-color);color:var(--ifm-font-color-base)}
.weft-run-editor{font-family:var(--ifm-font-family-monospace);font-size:.875rem}
.weft-run-editor[aria-invalid=true]{border-color:var(--ifm-color-danger-dark)}
.weft-run-error,.weft-run-failed{color:var(--ifm-color-danger-lightest);font-weight:600}
.weft-run-error{margin:0}
.weft-run-events{margin:.5rem 0 0;padding-left:1.25rem}
.weft-run-event{margin:.375rem 0;overflow-wrap:anywhere}
.weft-run-time{font-family:var(--ifm-font-family-monospace);font-size:.8125rem}
.weft-run-code-note{margin:.25rem 0}
.weft-run-code-editor{max-width:100%}
.weft-run-pre{margin:.25rem 0;padding:.375rem .5rem;max-height:12rem;overflow:auto;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.8125rem}
`;

/**
 * A prompt or an answer, scrolled inside its box when long: the box takes keyboard focus so a
 * reader without a mouse can scroll it too, and is named for a screen reader.
 */
function ScrollableText({ label, text }: { label: string; text: string }): ReactNode {
  return (
    <pre className="weft-run-pre" tabIndex={0} role="region" aria-label={label}>
      {text}
    </pre>
  );
}

function EventItem({ event }: { event: RunEvent }): ReactNode {
  const time = <span className="weft-run-time">+{event.atMs.toFixed(1)} ms</span>;
  switch (event.kind) {
    case 'trigger':
      return (
        <>
          {time} <strong>Trigger</strong>{' '}
          <code>
            {event.pluginId}.{event.triggerId}
          </code>{' '}
          in space <code>{event.space}</code>
          {event.message !== undefined ? <>: “{event.message}”</> : null}
        </>
      );
    case 'plan':
      return (
        <>
          {time} <strong>Plan</strong>:{' '}
          {event.steps.map((step) => `${step.pluginId}.${step.action}`).join(', ') || 'no steps'}
        </>
      );
    case 'model-call':
      return (
        <>
          {time} <strong>Model call</strong> <code>{event.purpose}</code>
          {event.provider === 'scripted' ? null : (
            <>
              {' '}
              to <code>{event.provider}</code>
            </>
          )}
          {event.failed ? ' failed' : ''}
          <details className="weft-run-details">
            <summary>Prompt</summary>
            <ScrollableText label={`Prompt for ${event.purpose}`} text={event.prompt} />
          </details>
          {/* Open by default: the answer is what the reader came to see; the prompt is a detail. */}
          <details className="weft-run-details" open>
            <summary>Answer</summary>
            <ScrollableText label={`Answer to ${event.purpose}`} text={event.answer} />
          </details>
        </>
      );
    case 'step':
      return (
        <>
          {time} <strong>Step</strong>{' '}
          <code>
            {event.pluginId}.{event.action}
          </code>{' '}
          {event.success ? 'result' : <span className="weft-run-failed">error</span>}: {event.text}
        </>
      );
    case 'review':
      return (
        <>
          {time} <strong>Review</strong>: {event.decision}
          {event.steps ? (
            <>
              {' '}
              with{' '}
              {event.steps.map((step) => `${step.pluginId}.${step.action}`).join(', ') ||
                'no steps'}
            </>
          ) : null}
          {event.reason !== undefined ? <> (“{event.reason}”)</> : null}
        </>
      );
    case 'memory':
      return (
        <>
          {time} <strong>Memory written</strong>: <code>{event.memoryKind}</code> in{' '}
          <code>{event.space}</code>
        </>
      );
    case 'response':
      return (
        <>
          {time} <strong>Route answered</strong> <code>HTTP {event.status}</code>
          <ScrollableText label={`Body of the HTTP ${event.status} answer`} text={event.body} />
        </>
      );
    case 'status':
      return (
        <>
          {time} <strong>Task {event.status}</strong>
          {event.reply !== undefined ? <>: reply “{event.reply}”</> : null}
        </>
      );
  }
}

/** A one-line input of the trigger (the message, a room...), with its problem beside it. */
function TextInput(props: {
  id: string;
  label: string;
  value: string;
  problem: AnswerProblem | undefined;
  onChange: (value: string) => void;
}): ReactNode {
  return (
    <div className="weft-run-field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        className="weft-run-input"
        value={props.value}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? `${props.id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.problem ? (
        <p id={`${props.id}-error`} className="weft-run-error">
          {props.problem.message}
        </p>
      ) : null}
    </div>
  );
}

function AnswerEditor(props: {
  field: AnswerField;
  value: string;
  problem: AnswerProblem | undefined;
  onChange: (value: string) => void;
}): ReactNode {
  const id = useId();
  return (
    <div className="weft-run-field">
      <label htmlFor={id}>{props.field.label}</label>
      <textarea
        id={id}
        className="weft-run-editor"
        rows={6}
        spellCheck={false}
        value={props.value}
        aria-invalid={props.problem ? true : undefined}
        aria-describedby={props.problem ? `${id}-error` : undefined}
        onChange={(event) => props.onChange(event.target.value)}
      />
      {props.problem ? (
        <p id={`${id}-error`} className="weft-run-error">
          {props.problem.message}
        </p>
      ) : null}
    </div>
  );
}

/** The edit button's text unless the example's `EditablePlugin.editLabel` says otherwise. */
const DEFAULT_EDIT_LABEL = 'Edit the executor’s TypeScript';

/**
 * The button that opens the example's plugin in an editor, and the editor once open. The editor's
 * chunk (CodeMirror, sucrase) loads on the first press, never with the page or with Run.
 */
function EditorToggle(props: {
  editable: EditablePlugin;
  editor: EditorChunk | undefined;
  open: boolean;
  code: string | undefined;
  problem: SourceProblem | undefined;
  onToggle: () => void;
  onChange: (code: string) => void;
}): ReactNode {
  const { editable, editor, open, code } = props;
  return (
    <div className="weft-run-field">
      <p className="weft-run-code-note">
        <button
          type="button"
          className="button button--secondary button--sm"
          aria-expanded={open}
          onClick={props.onToggle}
        >
          {editable.editLabel ?? DEFAULT_EDIT_LABEL}
        </button>
      </p>
      {open && editor && code !== undefined ? (
        <editor.PluginEditor
          // Another file is another document, with its own undo history.
          key={editable.file}
          file={editable.file}
          text={code}
          original={editor.source}
          problem={props.problem}
          onChange={props.onChange}
        />
      ) : null}
    </div>
  );
}

export default function Panel({
  definition,
  initialPreset,
  runs,
  onAnnounce,
  onBusy,
}: PanelProps): ReactNode {
  const ids = useId();
  const [input, setInput] = useState<RunInput>();
  const [presetInputs, setPresetInputs] = useState<ReadonlyMap<string, RunInput>>();
  const [problems, setProblems] = useState<AnswerProblem[]>([]);
  const run = useRun(definition, { onAnnounce, onBusy });
  const { events } = run;
  const session = useRef<RunSession | undefined>(undefined);
  // Per plugin file: an example whose presets run different plugins edits each in turn, and the
  // reader's edits to one stay while another is shown.
  const [editors, setEditors] = useState<ReadonlyMap<string, EditorChunk>>(new Map());
  const [editorOpen, setEditorOpen] = useState(false);
  const [codes, setCodes] = useState<ReadonlyMap<string, string>>(new Map());
  const [codeProblem, setCodeProblem] = useState<SourceProblem>();
  const started = useRef(0);

  // A run starts when the shell's press count grows; the run reads the inputs of that moment.
  const start = useEffectEvent((current: RunInput) => {
    const found = [
      ...(definition.checkInput?.(current) ?? []),
      ...checkAnswers(definition.answerFields, current),
    ];
    setProblems(found);
    // The reader's code runs only while the editor shows it; the file's own class needs no load.
    let plugin: PluginClass | undefined;
    let problem: SourceProblem | undefined;
    const editable = editableFor(definition, current.preset);
    const editor = editable && editors.get(editable.file);
    const code = editable && codes.get(editable.file);
    if (editable && editor && editorOpen && code !== undefined && code !== editor.source) {
      const loaded = editor.loadEditedPlugin(code, editable.exportName, editable.constructorArgs);
      if (loaded.ok) plugin = loaded.plugin;
      else problem = loaded.problem;
    }
    setCodeProblem(problem);
    if (found.length > 0 || problem) {
      const answers = found.map((each) => each.message).join('. ');
      onAnnounce(`Not run. ${[problem?.message, answers].filter(Boolean).join(' ')}`);
      return;
    }
    run.start(current, session.current, plugin);
  });

  // Starts a run if Run was pressed since the last one started. The press that loaded the panel
  // runs as soon as the inputs are ready, without waiting for the panel's first render and paint
  // (at a 4x CPU slowdown that wait was about 80 ms, longer than the run).
  const startPressed = useEffectEvent((current: RunInput) => {
    if (runs === started.current) return;
    started.current = runs;
    start(current);
  });

  useEffect(() => {
    session.current = definition.newSession?.();
    // Every preset's input is ready before the reader can choose one, so that a Run pressed
    // right after choosing runs the chosen preset.
    void Promise.all(
      definition.presets.map(
        async (preset) => [preset.id, await definition.initialInput(preset.id)] as const,
      ),
    ).then((entries) => {
      const inputs = new Map(entries);
      const first = inputs.get(initialPreset ?? '') ?? entries[0]?.[1];
      setPresetInputs(inputs);
      setInput(first);
      if (first) startPressed(first);
    });
  }, [definition, initialPreset]);

  useEffect(() => {
    if (input) startPressed(input);
  }, [runs, input]);

  if (!input || !presetInputs) return null;

  const problemOf = (field: string) => problems.find((problem) => problem.field === field);

  const editable = editableFor(definition, input.preset);

  /** Shows `shown`'s file in the open editor, loading its chunk the first time. */
  function showInEditor(shown: EditablePlugin): void {
    if (editors.has(shown.file)) {
      onAnnounce(`The editor shows ${shown.file}. Run runs your edits while it is open.`);
      return;
    }
    onAnnounce('Loading the editor…');
    shown.load().then(
      (chunk) => {
        setEditors((current) => new Map(current).set(shown.file, chunk));
        setCodes((current) =>
          current.has(shown.file) ? current : new Map(current).set(shown.file, chunk.source),
        );
        onAnnounce(`The editor shows ${shown.file}. Run runs your edits while it is open.`);
      },
      () => {
        setEditorOpen(false);
        onAnnounce('The editor could not be loaded. Reload the page to try again.');
      },
    );
  }

  function toggleEditor(): void {
    if (!editable) return;
    if (editorOpen) {
      setEditorOpen(false);
      return;
    }
    setEditorOpen(true);
    showInEditor(editable);
  }
  const update = (change: Partial<RunInput>) => setInput({ ...input, ...change });

  return (
    <div className="weft-run-body">
      <style>{PANEL_CSS}</style>
      <details className="weft-run-details">
        <summary>Change the message and the model’s answers</summary>
        <TextInput
          id={`${ids}-message`}
          label={definition.messageLabel}
          value={input.message}
          problem={problemOf('message')}
          onChange={(message) => update({ message })}
        />
        {definition.inputFields?.map(({ field, label }) => (
          <TextInput
            key={field}
            id={`${ids}-${field}`}
            label={label}
            value={input.fields?.[field] ?? ''}
            problem={problemOf(field)}
            onChange={(text) => update({ fields: { ...input.fields, [field]: text } })}
          />
        ))}
        <div className="weft-run-field">
          <label htmlFor={`${ids}-preset`}>Preset</label>
          <select
            id={`${ids}-preset`}
            className="weft-run-input"
            value={input.preset}
            onChange={(event) => {
              const fresh = presetInputs.get(event.target.value);
              if (!fresh) return;
              setProblems([]);
              // A preset starts afresh: its answers, and a new session (a new conversation). The
              // reader's message and other inputs stay; a run still going belonged to the old
              // conversation, so what it reports from now on is dropped.
              if (run.status === 'running') run.abort();
              session.current = definition.newSession?.();
              setInput({
                ...fresh,
                message: input.message,
                ...(input.fields ? { fields: input.fields } : {}),
              });
              // A preset that runs another plugin shows that plugin's file in the open editor.
              const next = editableFor(definition, fresh.preset);
              setCodeProblem(undefined);
              if (editorOpen && next && next.file !== editable?.file) showInEditor(next);
            }}
          >
            {definition.presets.map((preset) => (
              <option key={preset.id} value={preset.id}>
                {preset.label}
              </option>
            ))}
          </select>
        </div>
        {definition.answerFields.map((field) => (
          <AnswerEditor
            key={field.field}
            field={field}
            value={input.answers[field.field] ?? ''}
            problem={problemOf(field.field)}
            onChange={(text) => update({ answers: { ...input.answers, [field.field]: text } })}
          />
        ))}
      </details>
      {editable ? (
        <EditorToggle
          editable={editable}
          editor={editors.get(editable.file)}
          open={editorOpen}
          code={codes.get(editable.file)}
          problem={codeProblem}
          onToggle={toggleEditor}
          onChange={(text) => {
            setCodes((current) => new Map(current).set(editable.file, text));
            setCodeProblem(undefined);
          }}
        />
      ) : null}
      {events.length > 0 ? (
        <ol className="weft-run-events" aria-label="What happened in the run">
          {events.map((event, index) => (
            <li key={index} className="weft-run-event" data-kind={event.kind}>
              <EventItem event={event} />
            </li>
          ))}
        </ol>
      ) : null}
    </div>
  );
}
