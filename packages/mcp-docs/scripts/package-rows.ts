/**
 * The rows `list_plugins` answers from: each first-party package with the facts its card on the
 * plugins page shows, in the page's words. The bundle's generator writes them; tests build one.
 */
import { join } from 'node:path';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import {
  INSTALLATION_PATH,
  installCommand,
  PACKAGES_ON_NPM,
  type CatalogueEntry,
} from '@weft-internal/docs-model/catalogue/model';
import type { CataloguePackage } from '../src/bundle.js';

/** The packages with the facts their cards on the plugins page show, in the page's words. */
export async function readPackages(rootDir: string): Promise<CataloguePackage[]> {
  const { entries, errors } = await readCatalogue(join(rootDir, 'packages'));
  if (errors.length > 0) throw new Error(errors.map((error) => error.message).join('\n'));
  return entries.map(packageRow);
}

/** One package's row, from its catalogue entry: what `list_plugins` answers for it. */
export function packageRow(entry: CatalogueEntry): CataloguePackage {
  const facts = new Map(cardFacts(entry).map((fact) => [fact.term, fact.items]));
  const fact = (term: string): string[] => {
    const items = facts.get(term);
    if (items === undefined) throw new Error(`The plugins page's cards no longer say "${term}"`);
    return items;
  };
  return {
    name: entry.name,
    displayName: entry.displayName,
    kind: entry.kind,
    version: entry.version,
    description: entry.description,
    keywords: entry.keywords,
    provides: fact('Provides'),
    requires: fact('Requires'),
    // The core's own card has no "Works with": its heading gives its version.
    worksWith: facts.get('Works with') ?? [],
    runsOn: fact('Runs on'),
    install: installCommand(entry),
    onNpm: PACKAGES_ON_NPM,
    installationPath: INSTALLATION_PATH,
    docsPath: entry.guide,
  };
}
