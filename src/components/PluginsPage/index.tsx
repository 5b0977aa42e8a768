import type { ReactNode } from 'react';
import Layout from '@theme/Layout';
import Link from '@docusaurus/Link';
import {
  INSTALLATION_PATH,
  KIND_TITLES,
  PACKAGE_KINDS,
  type Catalogue,
  type CatalogueCard,
} from '@weft-internal/docs-model/catalogue/model';
import CatalogueFilters from './_components/CatalogueFilters';
import KindSection from './_components/KindSection';
import PackageManagerSwitch from './_components/PackageManagerSwitch';
import styles from './styles.module.css';

const TITLE = 'Plugins';
const DESCRIPTION =
  'First-party Weft packages: the core runtime, model providers, memory providers, coordinators, plugins and tooling.';

function groupByKind(entries: readonly CatalogueCard[]) {
  return PACKAGE_KINDS.map((kind) => ({
    kind,
    title: KIND_TITLES[kind],
    entries: entries.filter((entry) => entry.kind === kind),
  })).filter((group) => group.entries.length > 0);
}

export default function PluginsPage({ catalogue }: { catalogue: Catalogue }): ReactNode {
  const groups = groupByKind(catalogue.entries);

  return (
    <Layout title={TITLE} description={DESCRIPTION}>
      <main className={`container margin-vert--xl ${styles.page}`} data-catalogue>
        {/* The filters' rules, generated at build time from the catalogue (libs/docs-model/catalogue/filters.ts). */}
        <style dangerouslySetInnerHTML={{ __html: catalogue.filters.css }} />
        <header className={styles.header}>
          <h1>{TITLE}</h1>
          <p className={styles.lead}>
            The packages below are developed and tested in the Weft repository.{' '}
            {/* claim: plugins-every-package */}
            Each one describes itself in its own <code>package.json</code>; this page is built from
            those descriptions. {/* claim: plugins-built-from-package-json */}
            To write your own, start with <Link to="/docs/building-plugins/">Building plugins</Link>
            .
          </p>
          <p className={styles.lead}>
            Each card says what the package provides and what it requires, the core versions it
            works with and where it runs. {/* claim: plugins-card-facts */}
            Filter by kind, by a capability or service, or by the packages a chosen one works with:
            those whose requirements it meets, or that meet its own.
            {/* claim: plugins-filters */}
          </p>
          <p className={styles.lead}>
            Each card shows the command that installs the package, or creates a project.{' '}
            {/* claim: plugins-install-commands */}
            <Link to={INSTALLATION_PATH}>Installation</Link> says whether the packages are on the
            npm registry yet, and how to use them from a clone of the repository until they are.
            {/* claim: plugins-installation-link untested: Describes the installation page, whose own claims hold those facts to their tests. */}
          </p>
        </header>
        <PackageManagerSwitch />
        {groups.length === 0 ? (
          <p className={styles.empty}>No first-party packages are published yet.</p>
        ) : (
          <>
            <CatalogueFilters
              kinds={groups.map(({ kind, title }) => ({ kind, title }))}
              entries={catalogue.entries}
              filters={catalogue.filters}
            />
            <p data-catalogue-empty role="status">
              No package matches these filters. {/* claim: plugins-no-match */}
              Choose &ldquo;Any&rdquo; in one of them to see more.
            </p>
            {groups.map((group) => (
              <KindSection
                key={group.kind}
                {...group}
                installCommands={catalogue.installCommands}
                facts={catalogue.facts}
              />
            ))}
          </>
        )}
      </main>
    </Layout>
  );
}
