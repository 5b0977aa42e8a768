/**
 * A code block given as a string: the theme's component, with the block's metadata (its
 * language, title and lines, parsed from the code) computed once per code instead of on every
 * render. Right after hydration each block renders again several times (the word-wrap state
 * checks whether the code scrolls, the tab-visibility state settles), and the theme parsed all
 * of the block's lines each time: on Getting started, 20 blocks, most of those re-renders in one
 * synchronous task.
 * Ejected with: npm run swizzle @docusaurus/theme-classic CodeBlock/Content/String -- --eject
 */
import React, { useMemo, type ReactNode } from 'react';
import { useThemeConfig } from '@docusaurus/theme-common';
import {
  CodeBlockContextProvider,
  createCodeBlockMetadata,
  useCodeWordWrap,
} from '@docusaurus/theme-common/internal';
import CodeBlockLayout from '@theme/CodeBlock/Layout';
import type { Props } from '@theme/CodeBlock/Content/String';

export default function CodeBlockString({
  children: code,
  className,
  metastring,
  language,
  title,
  showLineNumbers,
}: Props): ReactNode {
  const {
    prism: { magicComments, defaultLanguage },
  } = useThemeConfig();
  const metadata = useMemo(
    () =>
      createCodeBlockMetadata({
        code,
        className,
        metastring,
        magicComments,
        defaultLanguage,
        language,
        title,
        showLineNumbers,
      }),
    [code, className, metastring, magicComments, defaultLanguage, language, title, showLineNumbers],
  );
  const wordWrap = useCodeWordWrap();
  return (
    <CodeBlockContextProvider metadata={metadata} wordWrap={wordWrap}>
      <CodeBlockLayout />
    </CodeBlockContextProvider>
  );
}
