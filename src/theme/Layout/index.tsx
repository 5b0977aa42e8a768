import type { ReactNode } from 'react';
import Head from '@docusaurus/Head';
import { useLocation } from '@docusaurus/router';
import useDocusaurusContext from '@docusaurus/useDocusaurusContext';
import Layout from '@theme-original/Layout';
import type LayoutType from '@theme/Layout';
import type { WrapperProps } from '@docusaurus/types';

type Props = WrapperProps<typeof LayoutType>;

/** The local search plugin's page (its default route, /search/). */
const SEARCH_PAGE_PATH = '/search/';

/**
 * The search plugin's page renders its content straight into the layout, with no main landmark
 * and an unnamed section picker (`#context-selector`), which screen readers announce as "combo
 * box" alone, and it writes its document title without the site's name. Here it gets all three;
 * every other page passes through unchanged.
 */
export default function LayoutWrapper(props: Props): ReactNode {
  const { pathname } = useLocation();
  const { siteConfig } = useDocusaurusContext();
  if (!pathname.startsWith(SEARCH_PAGE_PATH)) {
    return <Layout {...props} />;
  }
  return (
    <Layout {...props}>
      <Head titleTemplate={`%s ${siteConfig.titleDelimiter} ${siteConfig.title}`}>{null}</Head>
      <main>
        <label htmlFor="context-selector" className="weft-visually-hidden">
          Search in
        </label>
        {props.children}
      </main>
    </Layout>
  );
}
