/**
 * Where the not-found page sends a lost reader: the places they most likely wanted.
 */
import { PLUGINS_PAGE_PATH } from '@weft-internal/docs-model/catalogue/model';
import { SEARCH_PAGE_PATH } from './search-page';

/** One suggested page. */
export interface NotFoundDestination {
  /** The link text. */
  label: string;
  /** The site path. */
  to: string;
  /** A few words on what the reader finds there. */
  hint: string;
}

export const notFoundDestinations: readonly NotFoundDestination[] = [
  { label: 'Documentation', to: '/docs/', hint: 'Guides to every part of Weft' },
  { label: 'Getting started', to: '/docs/getting-started/', hint: 'Install and run a first agent' },
  { label: 'API reference', to: '/api/', hint: 'Every export of @weft/core' },
  { label: 'Plugins', to: PLUGINS_PAGE_PATH, hint: 'First-party packages' },
  { label: 'Search', to: SEARCH_PAGE_PATH, hint: 'Search the docs and the API' },
];
