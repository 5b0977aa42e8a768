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
import Placeholder from './Placeholder';
import { moveTypedText, type TypedText } from './typedText';

interface Props {
  handleSearchBarToggle?: (expanded: boolean) => void;
}

type SearchBarComponent = ComponentType<Props>;

/** How long after hydration the plugin may wait for an idle moment before loading anyway. */
const IDLE_LOAD_DEADLINE_MS = 3000;

let pluginSearchBar: Promise<SearchBarComponent> | undefined;

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

  const load = useCallback(() => {
    loadPluginSearchBar().then(
      (component) => setLoaded(() => component),
      (error: unknown) => console.error('The search box could not load:', error),
    );
  }, []);

  useEffect(() => {
    if (Loaded) {
      return undefined;
    }
    return whenIdle(load);
  }, [Loaded, load]);

  // The plugin's shortcut only works once it has loaded; until then this one focuses the box.
  useEffect(() => {
    if (Loaded || !searchBarShortcut || !searchBarShortcutKeymap) {
      return undefined;
    }
    const keymap = parseKeymap(searchBarShortcutKeymap);
    const onKeyDown = (event: KeyboardEvent) => {
      if (matchesKeymap(event, keymap)) {
        event.preventDefault();
        placeholderInput.current?.focus();
      }
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [Loaded]);

  const remember = useCallback(() => {
    const input = placeholderInput.current;
    if (input) {
      typed.current = {
        value: input.value,
        focused: document.activeElement === input,
        selection: [
          input.selectionStart ?? input.value.length,
          input.selectionEnd ?? input.value.length,
        ],
      };
    }
  }, []);

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

  // Runs in the commit that swaps the boxes, before the browser handles another key press.
  useLayoutEffect(() => {
    const input = container.current?.querySelector('input');
    if (Loaded && input) {
      return moveTypedText(typed.current, input);
    }
    return undefined;
  }, [Loaded]);

  const hints =
    isBrowser && searchBarShortcut && searchBarShortcutHint && searchBarShortcutKeymap
      ? getKeymapHints(searchBarShortcutKeymap, isMacPlatform())
      : [];

  return (
    <div ref={container} style={{ display: 'contents' }}>
      {Loaded ? (
        <Loaded {...props} />
      ) : (
        <Placeholder
          ref={placeholderInput}
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
