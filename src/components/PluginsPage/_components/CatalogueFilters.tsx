import type { ReactNode } from 'react';
import {
  ANY,
  FILTER_NAMES,
  type CatalogueCard,
  type CatalogueFilters as Filters,
  type PackageKind,
} from '@weft-internal/docs-model/catalogue/model';

interface CatalogueFiltersProps {
  kinds: { kind: PackageKind; title: string }[];
  entries: CatalogueCard[];
  filters: Filters;
}

/**
 * Filters by kind, by capability or service provided or required, and by the packages a chosen
 * one works with. Native radio buttons and selects: keyboard, labels and screen readers come with
 * them, and the page's generated stylesheet applies the choice without any script. Their styles
 * are in that stylesheet too (libs/docs-model/catalogue/filters.ts), which only this page loads.
 */
export default function CatalogueFilters({
  kinds,
  entries,
  filters,
}: CatalogueFiltersProps): ReactNode {
  return (
    <fieldset data-catalogue-filters>
      <legend>Filter packages</legend>
      <fieldset>
        <legend>Kind</legend>
        {[{ kind: ANY, title: 'Any' }, ...kinds].map(({ kind, title }) => (
          <label key={kind}>
            <input
              type="radio"
              name={FILTER_NAMES.kind}
              value={kind}
              defaultChecked={kind === ANY}
            />{' '}
            {title}
          </label>
        ))}
      </fieldset>
      <label>
        Capability or service
        <select name={FILTER_NAMES.feature} defaultValue={ANY}>
          <option value={ANY}>Any</option>
          <optgroup label="Provides">
            {filters.provides.map((choice) => (
              <option key={choice.value} value={choice.value}>
                Provides: {choice.label}
              </option>
            ))}
          </optgroup>
          <optgroup label="Requires">
            {filters.requires.map((choice) => (
              <option key={choice.value} value={choice.value}>
                Requires: {choice.label}
              </option>
            ))}
          </optgroup>
        </select>
      </label>
      <label>
        Works with
        <select name={FILTER_NAMES.worksWith} defaultValue={ANY}>
          <option value={ANY}>Any package</option>
          {entries.map((entry) => (
            <option key={entry.name} value={entry.directory}>
              {entry.displayName} ({entry.name})
            </option>
          ))}
        </select>
      </label>
    </fieldset>
  );
}
