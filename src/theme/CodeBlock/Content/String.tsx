/**
 * A code block given as a string: the theme's component, with two changes.
 * - The block's metadata (its language, title and lines, parsed from the code) is computed once
 *   per code instead of on every render.
 * - The word-wrap state is ./use-word-wrap.ts, which measures a block when the browser has laid
 *   it out (blocks off screen are not, see ./offscreen.module.css) and changes state only when
 *   the answer does. The theme's hook measured every block right after hydration and also
 *   re-rendered every block once for its tab-visibility check: on Getting started, 20 blocks in
 *   one synchronous task.
 * - The block's hover types, when the page gives them (the `typeHovers` prop that
 *   src/remark/type-hovers puts on the block's <code>, passed on by ../index.tsx with the other
 *   props), travel in its metadata to the highlighter (./index.tsx).
 * Ejected with: npm run swizzle @docusaurus/theme-classic CodeBlock/Content/String -- --eject
 */
import React, { useMemo, type ReactNode } from 'react';
import { useThemeConfig } from '@docusaurus/theme-common';
import {
  CodeBlockContextProvider,
  createCodeBlockMetadata,
} from '@docusaurus/theme-common/internal';
import CodeBlockLayout from '@theme/CodeBlock/Layout';
import type { Props } from '@theme/CodeBlock/Content/String';
import { useWordWrap } from './use-word-wrap';
import type { MetadataWithTypeHovers } from './type-hover-tokens';

export default function CodeBlockString({
  children: code,
  className,
  metastring,
  language,
  title,
  showLineNumbers,
  typeHovers,
}: Props & { typeHovers?: string | undefined }): ReactNode {
  const {
    prism: { magicComments, defaultLanguage },
  } = useThemeConfig();
  const metadata = useMemo(
    (): MetadataWithTypeHovers => ({
      ...createCodeBlockMetadata({
        code,
        className,
        metastring,
        magicComments,
        defaultLanguage,
        language,
        title,
        showLineNumbers,
      }),
      typeHovers,
    }),
    [
      code,
      className,
      metastring,
      magicComments,
      defaultLanguage,
      language,
      title,
      showLineNumbers,
      typeHovers,
    ],
  );
  const wordWrap = useWordWrap();
  return (
    <CodeBlockContextProvider metadata={metadata} wordWrap={wordWrap}>
      <CodeBlockLayout />
    </CodeBlockContextProvider>
  );
}
