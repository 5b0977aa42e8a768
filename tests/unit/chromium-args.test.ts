/**
 * libs/test-support/chromium.ts: the arguments every test and bench launches Chromium with keep
 * Playwright's own list of switched-off features (Chromium keeps only the last
 * `--disable-features`) and add the address bar's popups to it, which then never open.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { describe, expect, it } from 'vitest';
import {
  BROWSER_UI_FEATURES_OFF,
  PLAYWRIGHT_DISABLED_FEATURES,
  chromiumArgs,
  chromiumPath,
} from '@weft-internal/test-support/chromium';

const require = createRequire(import.meta.url);

/** Playwright's own list, read from the playwright-core that @playwright/test runs. */
function playwrightDisabledFeatures(): string[] {
  const playwright = path.dirname(require.resolve('@playwright/test/package.json'));
  const core = path.dirname(require.resolve('playwright-core', { paths: [playwright] }));
  const bundle = readFileSync(path.join(core, 'lib', 'coreBundle.js'), 'utf8');
  const list = /\bdisabledFeatures = \[([\s\S]*?)\]/.exec(bundle)?.[1];
  if (list === undefined) {
    throw new Error(
      `no "disabledFeatures = [" in ${core}/lib/coreBundle.js: find where this Playwright keeps the features it switches off (chromiumSwitches) and read it from there`,
    );
  }
  return [...list.replace(/\/\/.*$/gm, '').matchAll(/"([^"]+)"/g)].map((match) => match[1]!);
}

describe('the Chromium arguments of the tests and benches', () => {
  it('repeat every feature Playwright switches off, in one --disable-features with the popups', () => {
    const own = playwrightDisabledFeatures();
    expect(own.length).toBeGreaterThan(5);
    expect([...PLAYWRIGHT_DISABLED_FEATURES].sort()).toEqual([...own].sort());
    const disabling = chromiumArgs.filter((arg) => arg.startsWith('--disable-features='));
    expect(disabling).toEqual([
      `--disable-features=${[...own, ...BROWSER_UI_FEATURES_OFF].join(',')}`,
    ]);
  });

  it('open no address bar popup beside a page', async () => {
    const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await page.setContent('<p>a page</p>');
      const session = await browser.newBrowserCDPSession();
      // Chromium builds the popups as the window opens; give it the moment it takes.
      await page.waitForTimeout(500);
      const { targetInfos } = (await session.send('Target.getTargets')) as {
        targetInfos: { type: string; url: string }[];
      };
      expect(targetInfos.filter(({ type }) => type === 'page')).toHaveLength(1);
      expect(targetInfos.map(({ url }) => url).filter((url) => url.includes('omnibox'))).toEqual(
        [],
      );
    } finally {
      await browser.close();
    }
  }, 60_000);
});
