/**
 * The theme's tabs, without their remount after hydration.
 *
 * Docusaurus's Tabs key their content on "is this the browser?", so once a page has hydrated
 * every tab set is taken out of the page and built again: its code blocks render a second time,
 * and on a docs page the removal makes the browser recompute the style of the whole article
 * (the theme's `.docItemContainer header + *` rule depends on the article's children): 4,500
 * elements and 35–50 ms of main-thread work on Getting started, measured with a 4x CPU slowdown.
 * The remount dates from before the reader's choice (query string, then storage) was applied by
 * `useTabsContextValue` in a layout effect after hydration, which is where it is applied now.
 *
 * Same markup, class names, context and choice syncing as the theme's Tabs; built on the same
 * theme-common hooks. Keyboard, as in the WAI-ARIA tabs pattern with manual activation: the arrow
 * keys, Home and End move the focus between tabs, Enter or Space selects the focused one.
 * Ejected with: npm run swizzle @docusaurus/theme-classic Tabs -- --eject
 */
import React, { useRef, type KeyboardEvent, type ReactNode } from 'react';
import clsx from 'clsx';
import { ThemeClassNames } from '@docusaurus/theme-common';
import {
  sanitizeTabsChildren,
  TabsProvider,
  useScrollPositionBlocker,
  useTabs,
  useTabsContextValue,
} from '@docusaurus/theme-common/internal';
import type { Props } from '@theme/Tabs';
import styles from '@docusaurus/theme-classic/lib/theme/Tabs/styles.module.css';

/** Where each key moves the focus, given the focused tab's index and the number of tabs. */
const FOCUS_MOVES: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_index, count) => count - 1,
};

function TabList({ className }: { className?: string }): ReactNode {
  const { selectedValue, selectValue, tabValues, block } = useTabs();
  const tabs = useRef<(HTMLLIElement | null)[]>([]);
  const { blockElementScrollPositionUntilNextRender } = useScrollPositionBlocker();

  const select = (index: number) => {
    const tab = tabs.current[index];
    const value = tabValues[index]?.value;
    if (tab && value !== undefined && value !== selectedValue) {
      // Tabs of the same group elsewhere on the page change too; keep this one where it is.
      blockElementScrollPositionUntilNextRender(tab);
      selectValue(value);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLLIElement>, index: number) => {
    if (event.key === 'Enter' || event.key === ' ') {
      event.preventDefault();
      select(index);
      return;
    }
    const move = FOCUS_MOVES[event.key];
    if (move) {
      event.preventDefault();
      tabs.current[move(index, tabValues.length)]?.focus();
    }
  };

  return (
    <ul
      role="tablist"
      aria-orientation="horizontal"
      className={clsx('tabs', { 'tabs--block': block }, className)}
    >
      {tabValues.map(({ value, label, attributes }, index) => (
        <li
          role="tab"
          key={value}
          tabIndex={selectedValue === value ? 0 : -1}
          aria-selected={selectedValue === value}
          ref={(tab) => {
            tabs.current[index] = tab;
          }}
          onKeyDown={(event) => onKeyDown(event, index)}
          onClick={() => select(index)}
          {...attributes}
          className={clsx('tabs__item', styles.tabItem, attributes?.className as string, {
            'tabs__item--active': selectedValue === value,
          })}
        >
          {label ?? value}
        </li>
      ))}
    </ul>
  );
}

export default function Tabs(props: Props): ReactNode {
  const value = useTabsContextValue(props);
  return (
    <TabsProvider value={value}>
      <div className={clsx(ThemeClassNames.tabs.container, 'tabs-container', styles.tabList)}>
        {/* The theme puts the className on the tab list, not on the container. */}
        <TabList className={props.className} />
        <div className="margin-top--md">{sanitizeTabsChildren(props.children)}</div>
      </div>
    </TabsProvider>
  );
}
