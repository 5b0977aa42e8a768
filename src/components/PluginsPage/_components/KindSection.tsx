import type { ReactNode } from 'react';
import type { CatalogueEntry, PackageKind } from '@site/src/plugins/plugin-catalogue/model';
import PackageCard from './PackageCard';
import styles from './KindSection.module.css';

interface KindSectionProps {
  kind: PackageKind;
  title: string;
  entries: CatalogueEntry[];
}

export default function KindSection({ kind, title, entries }: KindSectionProps): ReactNode {
  const headingId = `kind-${kind}`;
  return (
    <section className={styles.section} aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <div className={styles.grid}>
        {entries.map((entry) => (
          <PackageCard key={entry.name} entry={entry} />
        ))}
      </div>
    </section>
  );
}
