/**
 * The parts of @easyops-cn/docusaurus-search-local's client that src/theme/SearchBar and the search
 * worker (src/plugins/local-search/ranking-worker.ts) reuse
 * (the package ships them without type declarations).
 */
declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGenerated' {
  export const searchBarShortcut: boolean;
  export const searchBarShortcutHint: boolean;
  export const searchBarShortcutKeymap: string;
  export const searchBarPosition: 'left' | 'right';
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/proxiedGeneratedConstants' {
  /** The index file's path below the base URL, with `{dir}` where a search context goes. */
  export const searchIndexUrl: string;
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/keymap' {
  export interface ParsedKeymap {
    key: string;
    ctrl: boolean;
    alt: boolean;
    shift: boolean;
    meta: boolean;
  }
  export function parseKeymap(keymap: string): ParsedKeymap;
  export function matchesKeymap(event: KeyboardEvent, keymap: ParsedKeymap): boolean;
  export function getKeymapHints(keymap: string, isMac: boolean): string[];
}

declare module '@easyops-cn/docusaurus-search-local/dist/client/client/utils/platform' {
  export function isMacPlatform(): boolean;
}

declare module '@theme-original/SearchBar' {
  import type { ComponentType } from 'react';
  const SearchBar: ComponentType<{ handleSearchBarToggle?: (expanded: boolean) => void }>;
  export default SearchBar;
}
