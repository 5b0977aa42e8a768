/**
 * A CodeMirror 6 editor for TypeScript, as a controlled React component. Tab is left to the
 * browser, so a keyboard user leaves the editor with Tab as from any field (indenting is Mod-]).
 */
import { useEffect, useEffectEvent, useMemo, useRef, type ReactNode } from 'react';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { javascript } from '@codemirror/lang-javascript';
import { bracketMatching, indentOnInput, syntaxHighlighting } from '@codemirror/language';
import { Compartment, EditorState, type Extension } from '@codemirror/state';
import { EditorView, drawSelection, keymap, lineNumbers } from '@codemirror/view';
import { usePrismTheme } from '@docusaurus/theme-common';
import { frameFromPrism, highlightFromPrism } from './prism-highlight';

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  /** The accessible name of the editable content. */
  label: string;
  /** The id of the element that describes a problem with the code, when there is one. */
  describedBy?: string | undefined;
}

/**
 * The content's ARIA attributes; CodeMirror owns the element, so they go through its facet. An
 * explicit tabindex changes no tab order (the content is editable, so focusable), but lets axe see
 * that the scrolling region around it is reached with the keyboard.
 */
function ariaOf(label: string, describedBy: string | undefined): Extension {
  return EditorView.contentAttributes.of({
    tabindex: '0',
    'aria-label': label,
    ...(describedBy ? { 'aria-describedby': describedBy, 'aria-invalid': 'true' } : {}),
  });
}

export default function CodeEditor({
  value,
  onChange,
  label,
  describedBy,
}: CodeEditorProps): ReactNode {
  const parent = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | undefined>(undefined);
  const aria = useRef(new Compartment());
  const colours = useRef(new Compartment());
  const prism = usePrismTheme();
  const look = useMemo(
    () => [syntaxHighlighting(highlightFromPrism(prism)), frameFromPrism(prism)],
    [prism],
  );
  const changed = useEffectEvent((text: string) => onChange(text));
  // Read once when the editor is made; later values reach it through the effect below.
  const initial = useRef({ value, label, describedBy, look });

  useEffect(() => {
    if (!parent.current) return undefined;
    const editor = new EditorView({
      parent: parent.current,
      state: EditorState.create({
        doc: initial.current.value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          indentOnInput(),
          bracketMatching(),
          javascript({ typescript: true }),
          keymap.of([...defaultKeymap, ...historyKeymap]),
          colours.current.of(initial.current.look),
          aria.current.of(ariaOf(initial.current.label, initial.current.describedBy)),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed(update.state.doc.toString());
          }),
        ],
      }),
    });
    view.current = editor;
    return () => {
      view.current = undefined;
      editor.destroy();
    };
  }, []);

  // A value set from outside, such as Reset, replaces the text; the reader's own edits already
  // match it.
  useEffect(() => {
    const editor = view.current;
    if (!editor || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: colours.current.reconfigure(look) });
  }, [look]);

  useEffect(() => {
    view.current?.dispatch({ effects: aria.current.reconfigure(ariaOf(label, describedBy)) });
  }, [label, describedBy]);

  return <div ref={parent} className="weft-run-code-editor" />;
}
