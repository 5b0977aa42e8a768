/**
 * The editor of an example's plugin in its Run panel: the file's TypeScript in CodeMirror, a
 * Reset button, and the problem that stopped the last Run, linked to the editor for screen
 * readers.
 */
import { useId, type ReactNode } from 'react';
import CodeEditor from './CodeEditor';
import type { SourceProblem } from './load-plugin-source';

export interface PluginEditorProps {
  /** The file's path, as the page titles it. */
  file: string;
  text: string;
  /** The file's own text, which Reset restores. */
  original: string;
  problem: SourceProblem | undefined;
  onChange: (text: string) => void;
}

export const EDITOR_LABEL = "TypeScript of the example's plugin";

export default function PluginEditor({
  file,
  text,
  original,
  problem,
  onChange,
}: PluginEditorProps): ReactNode {
  const id = useId();
  return (
    <div className="weft-run-field">
      <p className="weft-run-code-note">
        <code>{file}</code>: Run runs this code while the editor is open. Tab leaves the editor.
      </p>
      <CodeEditor
        value={text}
        onChange={onChange}
        label={EDITOR_LABEL}
        describedBy={problem ? `${id}-error` : undefined}
      />
      {problem ? (
        <p id={`${id}-error`} className="weft-run-error">
          {problem.message}
        </p>
      ) : null}
      <p className="weft-run-code-note">
        <button
          type="button"
          className="button button--secondary button--sm"
          onClick={() => onChange(original)}
        >
          Reset
        </button>{' '}
        {text === original ? 'The file as the repository has it.' : 'Edited.'}
      </p>
    </div>
  );
}
