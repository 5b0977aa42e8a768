/**
 * A card's facts in the words the plugins page shows: what the package provides and requires,
 * the core versions it works with and where it runs, version ranges in words (./version-words.ts). Made at build time, so the page's code
 * only lists them.
 */
import {
  CORE_PACKAGE,
  RUNTIME_LABELS,
  featureLabel,
  type CardFact,
  type CatalogueEntry,
  type Feature,
} from '@weft-internal/docs-model/catalogue/model';
import { providedFeatures, requiredFeatures } from '@weft-internal/docs-model/catalogue/filters';
import { describeRange } from '@weft-internal/docs-model/catalogue/version-words';

const NOTHING = 'Nothing';

/** Labels of the features, with executors and triggers named one by one. */
function describe(features: Feature[], entry: CatalogueEntry): string[] {
  return features.flatMap((feature) => {
    if (feature === 'executors') return entry.provides.executors.map((name) => `Executor ${name}`);
    if (feature === 'triggers') return entry.provides.triggers.map((name) => `Trigger ${name}`);
    return [featureLabel(feature)];
  });
}

/** A range the catalogue accepted (validatePackage checks each one reads as words). */
function inWords(range: string, what: string, entry: CatalogueEntry): string {
  const words = describeRange(range);
  if (words === undefined) {
    throw new Error(`${entry.name}: the ${what} range "${range}" has no words on the plugins page`);
  }
  return words;
}

export function cardFacts(entry: CatalogueEntry): CardFact[] {
  const provides = describe(providedFeatures(entry), entry);
  const requires = describe(requiredFeatures(entry), entry);
  // The core's own card gives its version in its heading; "works with itself" says nothing.
  const worksWith: CardFact[] =
    entry.name === CORE_PACKAGE
      ? []
      : [
          {
            term: 'Works with',
            items: [
              entry.coreVersions === undefined
                ? `Any ${CORE_PACKAGE}: does not load it`
                : `${CORE_PACKAGE} ${inWords(entry.coreVersions, CORE_PACKAGE, entry)}`,
            ],
          },
        ];
  return [
    { term: 'Provides', items: provides.length > 0 ? provides : ['No capability or service'] },
    { term: 'Requires', items: requires.length > 0 ? requires : [NOTHING] },
    ...worksWith,
    {
      term: 'Runs on',
      items: entry.runtimes.map((runtime) =>
        runtime === 'node'
          ? `Node.js ${inWords(entry.nodeVersions, 'engines.node', entry)}`
          : RUNTIME_LABELS[runtime],
      ),
    },
  ];
}
