/**
 * Wraps the content of every docs and API page to put the "Copy page" control above it.
 * Swizzled with: npm run swizzle @docusaurus/theme-classic DocItem/Content -- --wrap --typescript
 */
import type { ReactNode } from 'react';
import Content from '@theme-original/DocItem/Content';
import type ContentType from '@theme/DocItem/Content';
import type { WrapperProps } from '@docusaurus/types';
import CopyPage from '@site/src/components/CopyPage';

type Props = WrapperProps<typeof ContentType>;

export default function ContentWithCopyPage(props: Props): ReactNode {
  return (
    <>
      <CopyPage />
      <Content {...props} />
    </>
  );
}
