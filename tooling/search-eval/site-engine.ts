/**
 * The site's own search, asked in a real browser: the /search/ page of a built site, which ranks
 * with the same search worker as the navbar box (the box shows the first eight of the same list).
 */
import { chromium, type Browser, type Page } from '@playwright/test';
import { chromiumArgs, chromiumPath } from '@weft-internal/test-support/chromium';

/** The index is 2 MB: its first load in the worker takes seconds on a busy machine. */
const RESULTS_DEADLINE_MS = 60_000;

export interface SearchEngine {
  /** Result links or paths in ranked order. */
  search(query: string): Promise<string[]>;
  close(): Promise<void>;
}

async function resultsOf(page: Page, origin: string, query: string): Promise<string[]> {
  await page.goto(`${origin}/search/?q=${encodeURIComponent(query)}`);
  const found = page.getByText(/^\d+ documents? found$/);
  const none = page.getByText('No documents were found');
  await found.or(none).waitFor({ timeout: RESULTS_DEADLINE_MS });
  if (await none.isVisible()) {
    return [];
  }
  return page
    .locator('article h2 a')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href') ?? ''));
}

export async function openSiteSearch(origin: string): Promise<SearchEngine> {
  const browser: Browser = await chromium.launch({
    executablePath: chromiumPath,
    args: chromiumArgs,
  });
  const page = await browser.newPage();
  return {
    search: (query) => resultsOf(page, origin, query),
    close: () => browser.close(),
  };
}
