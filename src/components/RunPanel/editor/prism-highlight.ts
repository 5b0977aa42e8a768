/**
 * The editor's token colours, taken from the site's code-block theme (src/config/prism.ts, read
 * through `usePrismTheme`), so the editor and the code block above it colour TypeScript alike and
 * keep the contrast that theme was tuned to.
 */
import { HighlightStyle } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags, type Tag } from '@lezer/highlight';
import type { Extension } from '@codemirror/state';
import type { PrismTheme } from 'prism-react-renderer';

/** Prism's token types and the CodeMirror tags that mark the same TypeScript. */
const PRISM_TAGS: Readonly<Record<string, readonly Tag[]>> = {
  comment: [tags.comment],
  keyword: [tags.keyword, tags.modifier, tags.self],
  string: [tags.string],
  number: [tags.number],
  boolean: [tags.bool, tags.null],
  function: [tags.function(tags.variableName), tags.function(tags.propertyName)],
  'class-name': [tags.className, tags.typeName],
  property: [tags.propertyName],
  operator: [tags.operator],
  punctuation: [tags.punctuation, tags.bracket],
};

export function highlightFromPrism(theme: PrismTheme): HighlightStyle {
  return HighlightStyle.define(
    Object.entries(PRISM_TAGS).flatMap(([type, tag]) => {
      const style = theme.styles.find(
        (entry) => entry.types.includes(type) && entry.languages === undefined,
      )?.style;
      if (style?.color === undefined) return [];
      return [{ tag: [...tag], color: style.color, fontStyle: style.fontStyle }];
    }),
  );
}

/** The editor's frame in the code block's colours; long lines scroll inside it, not the page. */
export function frameFromPrism(theme: PrismTheme): Extension {
  const color = theme.plain.color ?? 'inherit';
  const backgroundColor = theme.plain.backgroundColor ?? 'transparent';
  return EditorView.theme(
    {
      '&': {
        color,
        backgroundColor,
        maxHeight: '28rem',
        fontSize: '.8125rem',
        border: '1px solid var(--ifm-color-emphasis-500)',
        borderRadius: 'var(--ifm-global-radius)',
      },
      '&.cm-focused': { outline: '2px solid var(--ifm-color-primary)', outlineOffset: '2px' },
      '.cm-scroller': { overflow: 'auto', fontFamily: 'var(--ifm-font-family-monospace)' },
      '.cm-content': { caretColor: color },
      '.cm-cursor, .cm-dropCursor': { borderLeftColor: color },
      '.cm-gutters': {
        backgroundColor,
        color: 'var(--ifm-color-emphasis-700)',
        border: 'none',
      },
      '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground':
        { backgroundColor: 'hsl(220, 13%, 30%)' },
    },
    { dark: true },
  );
}
