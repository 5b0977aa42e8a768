/**
 * The search box's "No results", in place of the search plugin's own (src/plugins/local-search
 * swaps the module): it also offers the search page, which lists every page that matches any
 * word and lets the reader narrow by section. The shared ranking already falls back to any word
 * and then to the nearest page titles, so this shows only when nothing is near at all.
 */
import siteConfig from '@generated/docusaurus.config';
import styles from '@easyops-cn/docusaurus-search-local/dist/client/client/theme/SearchBar/SearchBar.module.css';

const NO_RESULTS_ICON =
  '<svg width="40" height="40" viewBox="0 0 20 20" fill="none" stroke="currentColor" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true"><circle cx="9" cy="9" r="6.5"></circle><path d="M14 14l4.5 4.5M6.5 9h5"></path></svg>';

function escapeHtml(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[character]!,
  );
}

/** What autocomplete.js passes an empty template. */
interface EmptyContext {
  query?: string;
}

export function EmptyTemplate({ query = '' }: EmptyContext = {}): string {
  const href = `${siteConfig.baseUrl}search/?q=${encodeURIComponent(query)}`;
  return [
    `<span class="${styles.noResults}">`,
    `<span class="${styles.noResultsIcon}">${NO_RESULTS_ICON}</span>`,
    `<span>No results for “${escapeHtml(query)}”.</span>`,
    `<a class="${styles.hitFooter}" href="${escapeHtml(href)}">Search all pages</a>`,
    '</span>',
  ].join('');
}
