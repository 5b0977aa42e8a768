/**
 * Helpers shared by the browser tests: waiting for hydration, finding docs sidebar links, and
 * converting the configured hex colours to the rgb() strings that getComputedStyle returns.
 */
import { expect, type Page } from '@playwright/test';
import { ANNOUNCEMENT_STORAGE_KEYS } from '../../../src/config/announcement-storage';

/** Docusaurus sets data-has-hydrated="true" on <html> once React has taken over the page. */
export async function gotoHydrated(page: Page, path: string): Promise<void> {
  await page.goto(path);
  await waitForHydration(page);
}

export async function waitForHydration(page: Page): Promise<void> {
  await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
}

/** A link of the docs sidebar, by its exact label. */
export function sidebarLink(page: Page, label: string) {
  return page
    .locator('.theme-doc-sidebar-container')
    .getByRole('link', { name: label, exact: true });
}

/** "#0f3d24" → "rgb(15, 61, 36)", the form getComputedStyle uses for opaque colours. */
export function hexToRgb(hex: string): string {
  const match = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!match) {
    throw new Error(`Expected a #rrggbb colour, got ${hex}`);
  }
  const [r, g, b] = match.slice(1).map((part) => Number.parseInt(part, 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** The localStorage keys Docusaurus 3 uses (site storage namespacing is off, see the config). */
export const storageKeys = {
  theme: 'theme',
  announcementDismissed: ANNOUNCEMENT_STORAGE_KEYS.dismissed,
  announcementId: ANNOUNCEMENT_STORAGE_KEYS.id,
  docsPreferredVersion: (pluginId: string) => `docs-preferred-version-${pluginId}`,
} as const;

export async function readStorage(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/** Writes entries on the current origin; reload afterwards for the site to read them. */
export async function writeStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.evaluate((values) => {
    for (const [key, value] of Object.entries(values)) {
      window.localStorage.setItem(key, value);
    }
  }, entries);
}
