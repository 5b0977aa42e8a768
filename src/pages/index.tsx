import type { ReactNode } from 'react';
import Layout from '@theme/Layout';
import { site } from '@weft-internal/docs-model/site';
import Hero from './_components/Hero';
import BuildingBlocks from './_components/BuildingBlocks';
import Snippet from './_components/Snippet';

export default function Home(): ReactNode {
  return (
    <Layout title={site.tagline} description={site.description}>
      {/* The hero is the page's own header, inside main: the announcement bar is the banner. */}
      <main>
        <Hero title={site.title} tagline={site.tagline} />
        <BuildingBlocks />
        <Snippet />
      </main>
    </Layout>
  );
}
