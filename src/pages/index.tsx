import type { ReactNode } from 'react';
import Layout from '@theme/Layout';
import { site } from '@site/src/data/site';
import Hero from './_components/Hero';
import BuildingBlocks from './_components/BuildingBlocks';
import Snippet from './_components/Snippet';

export default function Home(): ReactNode {
  return (
    <Layout title={site.tagline} description={site.description}>
      <Hero title={site.title} tagline={site.tagline} />
      <main>
        <BuildingBlocks />
        <Snippet />
      </main>
    </Layout>
  );
}
