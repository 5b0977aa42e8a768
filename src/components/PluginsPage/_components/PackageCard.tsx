import type { ReactNode } from 'react';
import Link from '@docusaurus/Link';
import { packageSourceUrl } from '@weft-internal/docs-model/site';
import {
  PACKAGE_MANAGERS,
  type CommandsByManager,
} from '@weft-internal/docs-model/package-managers';
import type { CardFact, CatalogueCard } from '@weft-internal/docs-model/catalogue/model';
import styles from './PackageCard.module.css';

interface PackageCardProps {
  entry: CatalogueCard;
  /** Missing only if the catalogue data and the page disagree; the card then shows none. */
  installCommands: CommandsByManager | undefined;
  /** What it provides and requires, its core versions and runtimes, in words. */
  facts: CardFact[];
}

export default function PackageCard({
  entry,
  installCommands,
  facts,
}: PackageCardProps): ReactNode {
  return (
    // The generated stylesheet hides the card when the checked filters do not match it.
    <article className={styles.card} data-package={entry.directory} data-kind={entry.kind}>
      <header className={styles.header}>
        <h3 className={styles.title}>{entry.displayName}</h3>
        <span className={styles.version}>v{entry.version}</span>
      </header>
      <p className={styles.name}>
        <code>{entry.name}</code>
      </p>
      <p className={styles.description}>{entry.description}</p>
      <dl data-facts>
        {facts.map((fact) => (
          <div key={fact.term}>
            <dt>{fact.term}</dt>
            {fact.items.map((item) => (
              <dd key={item}>{item}</dd>
            ))}
          </div>
        ))}
      </dl>
      <ul className={styles.tags} aria-label="Keywords">
        {entry.keywords.map((keyword) => (
          <li key={keyword} className={styles.tag}>
            {keyword}
          </li>
        ))}
      </ul>
      {installCommands && <InstallCommands commands={installCommands} />}
      <p className={styles.links}>
        {/* Every card has these two links: their names say whose they are, for a reader who
            lists a page's links. */}
        <Link href={entry.guide} aria-label={`Guide to ${entry.displayName}`}>
          Guide
        </Link>
        <Link
          href={packageSourceUrl(entry.directory)}
          aria-label={`README and source of ${entry.name}`}
        >
          README and source
        </Link>
      </p>
    </article>
  );
}

/**
 * The install command in each package manager's words; the page's stylesheet shows the one the
 * package manager switch has checked (npm where :has() is not supported).
 */
function InstallCommands({ commands }: { commands: CommandsByManager }): ReactNode {
  return (
    <>
      {PACKAGE_MANAGERS.map((manager) => (
        <pre key={manager} className={styles.install} data-package-manager={manager}>
          <code>{commands[manager]}</code>
        </pre>
      ))}
    </>
  );
}
