/**
 * A card's facts in the words the plugins page shows: what the package provides and requires,
 * the core versions it works with and where it runs. Made at build time, so the page's code
 * only lists them.
 */
import {
  RUNTIME_LABELS,
  featureLabel,
  type CardFact,
  type CatalogueEntry,
  type Feature,
} from './model';
import { providedFeatures, requiredFeatures } from './filters';

const NOTHING = 'Nothing';

/** Labels of the features, with executors and triggers named one by one. */
function describe(features: Feature[], entry: CatalogueEntry): string[] {
  return features.flatMap((feature) => {
    if (feature === 'executors') return entry.provides.executors.map((name) => `Executor ${name}`);
    if (feature === 'triggers') return entry.provides.triggers.map((name) => `Trigger ${name}`);
    return [featureLabel(feature)];
  });
}

export function cardFacts(entry: CatalogueEntry): CardFact[] {
  const provides = describe(providedFeatures(entry), entry);
  const requires = describe(requiredFeatures(entry), entry);
  return [
    { term: 'Provides', items: provides.length > 0 ? provides : ['No capability or service'] },
    { term: 'Requires', items: requires.length > 0 ? requires : [NOTHING] },
    {
      term: 'Core versions',
      items: [entry.coreVersions ?? 'Any: does not load @weft/core'],
    },
    {
      term: 'Runs on',
      items: entry.runtimes.map((runtime) =>
        runtime === 'node' ? `Node.js ${entry.nodeVersions}` : RUNTIME_LABELS[runtime],
      ),
    },
  ];
}
