import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import styles from './BuildingBlocks.module.css';

interface Block {
  title: string;
  description: ReactNode;
  links: { label: string; to: string }[];
}

const BLOCKS: Block[] = [
  {
    title: 'Plugins: executors and triggers',
    description:
      'Plugins carry the abilities. Executors do the work of each pipeline step; triggers, such as HTTP routes, turn outside events into agent tasks.',
    links: [
      { label: 'Building plugins', to: '/docs/building-plugins/' },
      { label: 'Executors', to: '/docs/building-plugins/executors/' },
      { label: 'Triggers', to: '/docs/building-plugins/triggers/' },
    ],
  },
  {
    title: 'Model providers and capabilities',
    description:
      'Providers connect Weft to model services. Executors ask for a capability, such as text generation, never for a vendor, and transforms adapt one capability to another.',
    links: [
      { label: 'Model providers', to: '/docs/model-providers/' },
      { label: 'Capabilities', to: '/docs/capabilities/capabilities/' },
      { label: 'Transforms', to: '/docs/capabilities/transforms/' },
    ],
  },
  {
    title: 'Memory providers and spaces',
    description:
      'A memory provider stores what the agent learns. Memories live in hierarchical spaces, which also decide which tasks the scheduler runs one at a time.',
    links: [
      { label: 'Memory providers', to: '/docs/memory-providers/' },
      { label: 'Spaces', to: '/docs/core-utilities/spaces/' },
    ],
  },
  {
    title: 'Pipelines planned by a model',
    description: (
      <>
        A text model plans each task as a pipeline of steps through <code>getObject</code>, and zod
        schemas validate every step before it runs.
      </>
    ),
    links: [
      { label: 'getObject', to: '/docs/core-utilities/getObject/' },
      { label: 'Liquid templates', to: '/docs/core-utilities/liquid-templates/' },
    ],
  },
];

function BlockCard({ title, description, links }: Block): ReactNode {
  return (
    <article className={styles.card}>
      <h3 className={styles.cardTitle}>{title}</h3>
      <p className={styles.cardText}>{description}</p>
      <ul className={styles.links}>
        {links.map((link) => (
          <li key={link.to}>
            <Link to={link.to}>{link.label}</Link>
          </li>
        ))}
      </ul>
    </article>
  );
}

export default function BuildingBlocks(): ReactNode {
  return (
    <section className={styles.section} aria-labelledby="building-blocks">
      <div className="container">
        <h2 id="building-blocks" className={styles.heading}>
          The building blocks
        </h2>
        <p className={styles.intro}>
          Each part of an agent has one small, typed interface, so you can add abilities or change
          vendors without touching the rest.
        </p>
        <div className={styles.grid}>
          {BLOCKS.map((block) => (
            <BlockCard key={block.title} {...block} />
          ))}
        </div>
      </div>
    </section>
  );
}
