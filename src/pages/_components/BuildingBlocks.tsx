import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { buildingBlocks, type BuildingBlock } from '@site/src/data/building-blocks';
import styles from './BuildingBlocks.module.css';

function BlockCard({ title, description, links }: BuildingBlock): ReactNode {
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
          {buildingBlocks.map((block) => (
            <BlockCard key={block.title} {...block} />
          ))}
        </div>
      </div>
    </section>
  );
}
