/**
 * The local search box, with the search plugin's client (about 10 KB gzipped: the box, its
 * worker bridge and suggestion templates) out of the bundle every page loads.
 *
 * Until the plugin's SearchBar has loaded, a look-alike box (./Placeholder) stands in. The
 * plugin loads when the browser is idle after hydration, or at once when the reader points at,
 * focuses or types into the box or presses the shortcut. Nothing typed in the meantime is lost:
 * the text, the caret and the focus move to the plugin's box when it appears, and are put back
 * after the plugin's first effects, which reset the box on mount.
 * Swizzled with: npm run swizzle @easyops-cn/docusaurus-search-local SearchBar -- --wrap
 */
import React, {
  useCallback,
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type ComponentType,
  type ReactNode,
} from 'react';
import useIsBrowser from '@docusaurus/useIsBrowser';
import {
  searchBarShortcut,
  searchBarShortcutHint,
  searchBarShortcutKeymap,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGenerated';
import {
  getKeymapHints,
  matchesKeymap,
  parseKeymap,
} from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap';
import { isMacPlatform } from '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform';
import Placeholder, { PLACEHOLDER_INPUT_CLASS } from './Placeholder';
import { moveTypedText, readTypedText, type TypedText } from './typedText';

interface Props {
  handleSearchBarToggle?: (expanded: boolean) => void;
}

type SearchBarComponent = ComponentType<Props>;

/** How long after hydration the plugin may wait for an idle moment before loading anyway. */
const IDLE_LOAD_DEADLINE_MS = 3000;

let pluginSearchBar: Promise<SearchBarComponent> | undefined;
/**
 * Set once the plugin's box is on the page and its effects, which listen for the shortcut, have
 * run: from then on the plugin handles the shortcut itself.
 */
let pluginSearchBarShown = false;
/** The box's wrapper once React has rendered it, so the shortcut finds whichever box is there. */
let searchBarContainer: HTMLElement | null = null;

/**
 * The shortcut, until the plugin's box is there: it focuses the look-alike box. Installed when
 * this module is evaluated (with the page's chunks, before React starts), not in an effect, so
 * a shortcut pressed before hydration has finished is not lost; the box's focus is picked up
 * when it hydrates.
 */
function listenForShortcutEarly(): void {
  if (typeof document === 'undefined' || !searchBarShortcut || !searchBarShortcutKeymap) {
    return;
  }
  const keymap = parseKeymap(searchBarShortcutKeymap);
  document.addEventListener('keydown', (event) => {
    if (!pluginSearchBarShown && matchesKeymap(event, keymap)) {
      event.preventDefault();
      // Before hydration only the server's placeholder is there; between the commit that shows
      // the plugin's box and the plugin's own listener, that box is.
      const input =
        searchBarContainer?.querySelector('input') ??
        document.querySelector<HTMLInputElement>(`input.${PLACEHOLDER_INPUT_CLASS}`);
      input?.focus();
    }
  });
}
listenForShortcutEarly();

function loadPluginSearchBar(): Promise<SearchBarComponent> {
  pluginSearchBar ??= import('@theme-original/SearchBar').then((module) => module.default);
  return pluginSearchBar;
}

function whenIdle(callback: () => void): () => void {
  // Safari has no requestIdleCallback.
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(callback, { timeout: IDLE_LOAD_DEADLINE_MS });
    return () => window.cancelIdleCallback(handle);
  }
  const handle = setTimeout(callback, IDLE_LOAD_DEADLINE_MS);
  return () => clearTimeout(handle);
}

export default function SearchBar(props: Props): ReactNode {
  const isBrowser = useIsBrowser();
  const [Loaded, setLoaded] = useState<SearchBarComponent | null>(null);
  const [focused, setFocused] = useState(false);
  const placeholderInput = useRef<HTMLInputElement>(null);
  const container = useRef<HTMLDivElement>(null);
  /** What the reader did in the placeholder, carried over to the plugin's box. */
  const typed = useRef<TypedText>({ value: '', focused: false, selection: null });
  const { handleSearchBarToggle } = props;

  const remember = useCallback(() => {
    if (placeholderInput.current) {
      typed.current = readTypedText(placeholderInput.current);
    }
  }, []);

  const load = useCallback(() => {
    loadPluginSearchBar().then(
      (component) => setLoaded(() => component),
      (error: unknown) => console.error('The search box could not load:', error),
    );
  }, []);

  // The cleanup runs in the commit that swaps the boxes, while the placeholder is still in the
  // document: what was typed and whether it has the focus are read at that moment, including
  // what the reader did before hydration (which fired no onInput or onFocus).
  const placeholderRef = useCallback((input: HTMLInputElement | null) => {
    placeholderInput.current = input;
    if (!input) {
      return undefined;
    }
    return () => {
      typed.current = readTypedText(input);
      placeholderInput.current = null;
    };
  }, []);

  useEffect(() => {
    if (Loaded) {
      return undefined;
    }
    return whenIdle(load);
  }, [Loaded, load]);

  const onFocus = useCallback(() => {
    setFocused(true);
    handleSearchBarToggle?.(true);
    remember();
    load();
  }, [handleSearchBarToggle, load, remember]);

  const onBlur = useCallback(() => {
    setFocused(false);
    handleSearchBarToggle?.(false);
    remember();
  }, [handleSearchBarToggle, remember]);

  // A reader who focused the box before hydration (a tap, or the shortcut above) gets what
  // onFocus would have done.
  useEffect(() => {
    if (document.activeElement === placeholderInput.current) {
      onFocus();
    }
    // Only on mount: later focus changes go through onFocus and onBlur.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  // Runs in the commit that swaps the boxes, before the browser handles another key press.
  useLayoutEffect(() => {
    const input = container.current?.querySelector('input');
    if (Loaded && input) {
      return moveTypedText(typed.current, input);
    }
    return undefined;
  }, [Loaded]);

  // A passive effect runs after its children's, so the plugin listens for the shortcut by the
  // time this hands the shortcut over: a key pressed in between still focuses the box.
  useEffect(() => {
    pluginSearchBarShown = Loaded !== null;
  }, [Loaded]);

  const containerRef = useCallback((element: HTMLDivElement | null) => {
    container.current = element;
    searchBarContainer = element;
  }, []);

  const hints =
    isBrowser && searchBarShortcut && searchBarShortcutHint && searchBarShortcutKeymap
      ? getKeymapHints(searchBarShortcutKeymap, isMacPlatform())
      : [];

  return (
    <div ref={containerRef} style={{ display: 'contents' }}>
      {Loaded ? (
        <Loaded {...props} />
      ) : (
        <Placeholder
          ref={placeholderRef}
          focused={focused}
          hints={hints}
          onFocus={onFocus}
          onBlur={onBlur}
          onInput={remember}
          onPointerEnter={load}
        />
      )}
    </div>
  );
}
