/**
 * What the plugins page's filters need, made at build time from the catalogue: the choices of the
 * capability filter, which packages work with which, and the stylesheet that applies the checked
 * filters. The filters are form controls matched by `:has()` selectors, so they work as soon as
 * the HTML is shown, before and without any script, and add no JavaScript to the page.
 */
import {
  ANY,
  CAPABILITY_IDS,
  FILTER_NAMES,
  SERVICE_IDS,
  featureLabel,
  type CatalogueEntry,
  type CatalogueFilters,
  type Feature,
  type FeatureChoice,
} from '@weft-internal/docs-model/catalogue/model';

const FEATURE_ORDER: Feature[] = [
  ...CAPABILITY_IDS.map((id) => `capability:${id}` as const),
  ...SERVICE_IDS.map((id) => `service:${id}` as const),
  'executors',
  'triggers',
];

export function providedFeatures(entry: CatalogueEntry): Feature[] {
  const { provides } = entry;
  return FEATURE_ORDER.filter(
    (feature) =>
      (feature === 'executors' && provides.executors.length > 0) ||
      (feature === 'triggers' && provides.triggers.length > 0) ||
      provides.capabilities.some((id) => feature === `capability:${id}`) ||
      provides.services.some((id) => feature === `service:${id}`),
  );
}

export function requiredFeatures(entry: CatalogueEntry): Feature[] {
  const { requires } = entry;
  return FEATURE_ORDER.filter(
    (feature) =>
      requires.capabilities.some((id) => feature === `capability:${id}`) ||
      requires.services.some((id) => feature === `service:${id}`),
  );
}

/** The values of the capability filter that select this package. */
export function featureValues(entry: CatalogueEntry): string[] {
  return [
    ...providedFeatures(entry).map((feature) => `provides:${feature}`),
    ...requiredFeatures(entry).map((feature) => `requires:${feature}`),
  ];
}

/**
 * True when one of the two packages meets a requirement of the other: it provides a capability or
 * service the other requires.
 */
export function meetsEitherWay(a: CatalogueEntry, b: CatalogueEntry): boolean {
  const meets = (provider: CatalogueEntry, user: CatalogueEntry) => {
    const provided = new Set(providedFeatures(provider));
    return requiredFeatures(user).some((feature) => provided.has(feature));
  };
  return meets(a, b) || meets(b, a);
}

/** By package name: the directories of the packages it works with, itself first. */
export function worksWith(entries: readonly CatalogueEntry[]): Record<string, string[]> {
  return Object.fromEntries(
    entries.map((entry) => [
      entry.name,
      [
        entry.directory,
        ...entries
          .filter((other) => other !== entry && meetsEitherWay(entry, other))
          .map((other) => other.directory),
      ],
    ]),
  );
}

function choices(
  verb: 'provides' | 'requires',
  entries: readonly CatalogueEntry[],
  featuresOf: (entry: CatalogueEntry) => Feature[],
): FeatureChoice[] {
  const present = new Set(entries.flatMap(featuresOf));
  return FEATURE_ORDER.filter((feature) => present.has(feature)).map((feature) => ({
    value: `${verb}:${feature}`,
    label: featureLabel(feature),
  }));
}

/** `:checked` on the named control's choice, any of the values (or "any"). */
function checked(name: string, values: readonly string[], element: 'input' | 'option'): string {
  const choices = [ANY, ...values].map((value) => `[value="${value}"]`).join(',');
  return element === 'input'
    ? `:has([name="${name}"]:is(${choices}):checked)`
    : `:has([name="${name}"] option:is(${choices}):checked)`;
}

/**
 * The compound selector, on the catalogue element, of "the checked filters match this package".
 * "Works with" is symmetric, so the choices that show a package are the packages it works with.
 */
export function matchesSelector(
  entry: CatalogueEntry,
  relations: Record<string, string[]>,
): string {
  return (
    checked(FILTER_NAMES.kind, [entry.kind], 'input') +
    checked(FILTER_NAMES.feature, featureValues(entry), 'option') +
    checked(FILTER_NAMES.worksWith, relations[entry.name] ?? [entry.directory], 'option')
  );
}

/**
 * The styles of the filters and of the cards' facts. They are part of the page's own stylesheet
 * rather than a CSS module because Docusaurus puts every CSS module in the one stylesheet all
 * pages load. Fieldsets are as wide as their content unless told otherwise (min-width), which at
 * 375 px is wider than the screen. The filters need :has(); where it is missing they would do nothing, so they are not
 * shown (and every card is).
 */
const PAGE_RULES = `
[data-catalogue-filters]{display:none;min-width:0;margin:0 0 2rem;padding:1rem 1.25rem;border:1px solid var(--weft-border);border-radius:var(--ifm-global-radius)}
@supports selector(:has(*)){[data-catalogue-filters]{display:flex;flex-wrap:wrap;gap:1rem 2rem}}
[data-catalogue-filters]>legend{padding:0 .25rem;font-weight:600}
[data-catalogue-filters] fieldset{display:flex;flex-wrap:wrap;flex-basis:100%;min-width:0;gap:.25rem 1rem;margin:0;padding:0;border:0}
[data-catalogue-filters] label{cursor:pointer}
[data-catalogue-filters]>label{display:flex;flex:1 1 14rem;flex-direction:column;gap:.25rem;min-width:0}
[data-catalogue-filters] select{width:100%;padding:.3rem;font:inherit}
[data-catalogue-empty]{display:none;color:var(--weft-text-muted)}
[data-facts]{margin:0 0 1rem;font-size:.9rem}
[data-facts] dt{margin-top:.4rem;font-weight:600}
[data-facts] dd{margin:0;color:var(--weft-text-muted);overflow-wrap:anywhere}`.trim();

/**
 * Hides each card the checked filters do not match, each kind's section when none of its cards
 * match, and shows the empty message when no card does. Values come from validated metadata
 * (package names, kinds and feature ids: no quotes or angle brackets), so they are safe inside
 * the selectors and the page's style element.
 */
export function filterStylesheet(
  list: readonly CatalogueEntry[],
  relations: Record<string, string[]>,
): string {
  const root = '[data-catalogue]';
  const selectorOf = new Map(list.map((entry) => [entry, matchesSelector(entry, relations)]));
  const rules = list.map(
    (entry) =>
      `${root}:not(${selectorOf.get(entry)}) [data-package="${entry.directory}"]{display:none}`,
  );
  for (const kind of new Set(list.map((entry) => entry.kind))) {
    const ofKind = list
      .filter((entry) => entry.kind === kind)
      .map((entry) => selectorOf.get(entry));
    rules.push(`${root}:not(${ofKind.join(',')}) [data-kind-section="${kind}"]{display:none}`);
  }
  rules.push(
    `${root}:not(${[...selectorOf.values()].join(',')}) [data-catalogue-empty]{display:block}`,
  );
  return [PAGE_RULES, ...rules].join('\n');
}

export function catalogueFilters(list: readonly CatalogueEntry[]): CatalogueFilters {
  const relations = worksWith(list);
  return {
    provides: choices('provides', list, providedFeatures),
    requires: choices('requires', list, requiredFeatures),
    css: filterStylesheet(list, relations),
  };
}
