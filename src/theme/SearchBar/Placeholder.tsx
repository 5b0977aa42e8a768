/**
 * The search box as the search plugin draws it, without the plugin's code: what the server
 * renders and what the reader sees and types into until the plugin's client has loaded. It uses
 * the plugin's own class names (its CSS module) and icon, so the swap is invisible.
 */
import React, { forwardRef, type ReactNode } from 'react';
import clsx from 'clsx';
import { translate } from '@docusaurus/Translate';
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css';

/** The input's class, which the early shortcut (./index.tsx) finds it by. */
export const PLACEHOLDER_INPUT_CLASS = 'navbar__search-input';

export interface PlaceholderProps {
  focused: boolean;
  /** Keyboard shortcut hint, e.g. ["ctrl", "K"]; empty before hydration, as the plugin does. */
  hints: string[];
  onFocus: () => void;
  onBlur: () => void;
  onInput: () => void;
  onPointerEnter: () => void;
}

const Placeholder = forwardRef<HTMLInputElement, PlaceholderProps>(function Placeholder(
  { focused, hints, onFocus, onBlur, onInput, onPointerEnter },
  inputRef,
): ReactNode {
  const label = translate({
    id: 'theme.SearchBar.label',
    message: 'Search',
    description: 'The ARIA label and placeholder for search button',
  });
  return (
    <div
      className={clsx('navbar__search', styles.searchBarContainer, focused && styles.focused)}
      dir="ltr"
    >
      <svg aria-hidden="true" className={styles.searchIcon} focusable="false" viewBox="0 0 16 16">
        <path
          fill="currentColor"
          d="M6.02945 10.20327a4.17382 4.17382 0 1 1 4.17382-4.17382 4.15609 4.15609 0 0 1-4.17382 4.17382Zm9.69195 4.2199-4.8225-4.82338A5.88021 5.88021 0 0 0 12.058 6.02856 6.00467 6.00467 0 1 0 9.59979 10.8989l4.82338 4.82338a.89729.89729 0 0 0 1.29912 0 .89749.89749 0 0 0-.00087-1.29909Z"
        />
      </svg>
      <input
        ref={inputRef}
        placeholder={label}
        aria-label={label}
        className={`${PLACEHOLDER_INPUT_CLASS} ${styles.searchInput}`}
        onFocus={onFocus}
        onBlur={onBlur}
        onInput={onInput}
        onPointerEnter={onPointerEnter}
      />
      {hints.length > 0 && (
        <div className={styles.searchHintContainer}>
          {hints.map((hint) => (
            <kbd key={hint} className={styles.searchHint}>
              {hint}
            </kbd>
          ))}
        </div>
      )}
    </div>
  );
});

export default Placeholder;
