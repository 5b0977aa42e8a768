import type { ReactNode } from 'react';
import type { CommandsByManager } from '@weft-internal/docs-model/package-managers';
import type {
  CardFact,
  CatalogueCard,
  PackageKind,
} from '@weft-internal/docs-model/catalogue/model';
import PackageCard from './PackageCard';
import styles from './KindSection.module.css';

interface KindSectionProps {
  kind: PackageKind;
  title: string;
  entries: CatalogueCard[];
  installCommands: Record<string, CommandsByManager>;
  facts: Record<string, CardFact[]>;
}

export default function KindSection({
  kind,
  title,
  entries,
  installCommands,
  facts,
}: KindSectionProps): ReactNode {
  const headingId = `kind-${kind}`;
  return (
    <section className={styles.section} aria-labelledby={headingId} data-kind-section={kind}>
      <h2 id={headingId}>{title}</h2>
      <div className={styles.grid}>
        {entries.map((entry) => (
          <PackageCard
            key={entry.name}
            entry={entry}
            installCommands={installCommands[entry.name]}
            facts={facts[entry.name] ?? []}
          />
        ))}
      </div>
    </section>
  );
}
