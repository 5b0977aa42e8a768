import type { ReactNode } from 'react';
import { useLocation } from '@docusaurus/router';
import Layout from '@theme-original/Layout';
import type LayoutType from '@theme/Layout';
import type { WrapperProps } from '@docusaurus/types';
import { SEARCH_PAGE_PATH } from '@site/src/data/search-page';

type Props = WrapperProps<typeof LayoutType>;

/**
 * The search plugin's page renders its content straight into the layout, with no main landmark
 * and an unnamed section picker (`#context-selector`), which screen readers announce as "combo
 * box" alone. Here it gets both; every other page passes through unchanged.
 */
export default function LayoutWrapper(props: Props): ReactNode {
  const { pathname } = useLocation();
  if (!pathname.startsWith(SEARCH_PAGE_PATH)) {
    return <Layout {...props} />;
  }
  return (
    <Layout {...props}>
      <main>
        <label htmlFor="context-selector" className="weft-visually-hidden">
          Search in
        </label>
        {props.children}
      </main>
    </Layout>
  );
}
