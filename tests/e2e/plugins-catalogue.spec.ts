/**
 * The plugins page's catalogue filters, in a real browser at 1280 and 375 px: by kind, by a
 * capability or service provided or required, and by the packages a chosen one works with. The
 * filters are form controls and a generated stylesheet, so they answer the moment the page is
 * shown: each test interacts right after `page.goto`, without waiting for hydration, and one runs
 * with JavaScript off. What each choice should show is read from the packages' metadata, the same
 * data the page is built from.
 */
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import {
  CORE_PACKAGE,
  readCatalogue,
  type CatalogueEntry,
} from '@weft-internal/docs-model/catalogue/catalogue';
import { providedFeatures, worksWith } from '@weft-internal/docs-model/catalogue/filters';
import { describeRange } from '@weft-internal/docs-model/catalogue/version-words';

let entries: CatalogueEntry[] = [];
let relations: Record<string, string[]> = {};
test.beforeAll(async () => {
  ({ entries } = await readCatalogue(path.resolve(__dirname, '../../packages')));
  relations = worksWith(entries);
});
const byName = (name: string) => {
  const entry = entries.find((candidate) => candidate.name === name);
  if (!entry) throw new Error(`no package ${name} in the catalogue`);
  return entry;
};

/** The directories of the cards a reader sees, in page order. */
async function visibleCards(page: Page): Promise<string[]> {
  return page
    .locator('article[data-package]:visible')
    .evaluateAll((cards) => cards.map((card) => card.getAttribute('data-package') ?? ''));
}

function directoriesOf(names: readonly string[]): string[] {
  return entries.filter((entry) => names.includes(entry.name)).map((entry) => entry.directory);
}

const kindFilter = (page: Page) => page.getByRole('group', { name: 'Kind' });
const featureFilter = (page: Page) => page.getByRole('combobox', { name: 'Capability or service' });
const worksWithFilter = (page: Page) => page.getByRole('combobox', { name: 'Works with' });
const emptyMessage = (page: Page) => page.getByText('No package matches these filters.');

for (const viewport of [
  { label: '1280 px', width: 1280, height: 800 },
  { label: '375 px', width: 375, height: 812 },
]) {
  test.describe(`the plugins catalogue at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test('every card shows what the package provides and requires, its core versions and runtimes', async ({
      page,
    }) => {
      await page.goto('/plugins/');
      const cards = page.locator('article[data-package]');
      await expect(cards).toHaveCount(entries.length);
      for (const entry of entries) {
        const facts = page.locator(`article[data-package="${entry.directory}"] dl`);
        // The core's own card gives its version in its heading, not as a range it works with.
        const isCore = entry.name === CORE_PACKAGE;
        await expect(facts.locator('dt')).toHaveText(
          isCore
            ? ['Provides', 'Requires', 'Runs on']
            : ['Provides', 'Requires', 'Works with', 'Runs on'],
        );
        // Ranges read as words, never as npm's syntax.
        await expect(facts).toContainText(`Node.js ${describeRange(entry.nodeVersions)}`);
        await expect(facts).not.toContainText(/[\^~|]/);
        if (entry.coreVersions && !isCore) {
          await expect(facts).toContainText(`${CORE_PACKAGE} ${describeRange(entry.coreVersions)}`);
        }
      }
      const core = page.locator('article[data-package="core"] dl');
      await expect(core).toContainText('Node.js 20.19+, 22.12+, 24, 26');
      await expect(core).not.toContainText('Core versions');
      const chat = page.locator('article[data-package="plugin-chat"] dl');
      await expect(chat).toContainText('Trigger chat/message');
      await expect(chat).toContainText('Capability text-generation');
      // Neither a card nor a filter reaches past the screen's edge.
      const widest = await page
        .locator('article[data-package], [data-catalogue-filters], [data-catalogue-filters] *')
        .evaluateAll((all) =>
          Math.max(...all.map((element) => element.getBoundingClientRect().right)),
        );
      expect(widest).toBeLessThanOrEqual(viewport.width);
    });

    test('filters by kind right after navigation, and hides the kinds left empty [claim:plugins-filters]', async ({
      page,
    }) => {
      await page.goto('/plugins/');
      await kindFilter(page).getByRole('radio', { name: 'Memory providers' }).check();
      expect(await visibleCards(page)).toEqual(
        entries.filter((entry) => entry.kind === 'memory-provider').map((entry) => entry.directory),
      );
      await expect(page.getByRole('heading', { level: 2 })).toHaveText(['Memory providers']);
      await kindFilter(page).getByRole('radio', { name: 'Any' }).check();
      await expect(page.locator('article[data-package]:visible')).toHaveCount(entries.length);
    });

    test('filters by a capability provided or required [claim:plugins-filters]', async ({
      page,
    }) => {
      await page.goto('/plugins/');
      await featureFilter(page).selectOption({ label: 'Provides: Capability text-generation' });
      const providers = entries
        .filter((entry) => providedFeatures(entry).includes('capability:text-generation'))
        .map((entry) => entry.directory);
      expect(providers).toContain('model-openai');
      expect(await visibleCards(page)).toEqual(providers);

      await featureFilter(page).selectOption({ label: 'Requires: PostgreSQL server' });
      expect(await visibleCards(page)).toEqual(
        directoriesOf(['@weft/memory-postgres', '@weft/coordinator-postgres']),
      );
    });

    test('shows the packages a chosen one works with [claim:plugins-filters]', async ({ page }) => {
      await page.goto('/plugins/');
      await worksWithFilter(page).selectOption('model-openai');
      const expected = relations['@weft/model-openai'] ?? [];
      // It meets chat's and core's need of text generation; core meets its need of a runtime.
      expect(expected).toEqual(expect.arrayContaining(['core', 'plugin-chat', 'plugin-mcp']));
      expect(await visibleCards(page)).toEqual(
        entries.map((entry) => entry.directory).filter((dir) => expected.includes(dir)),
      );
      // The docs server needs no runtime (weft.standalone): only the MCP plugin, its client.
      await worksWithFilter(page).selectOption('mcp-docs');
      expect(await visibleCards(page)).toEqual(
        directoriesOf(['@weft/plugin-mcp', '@weft/mcp-docs']),
      );
      expect(byName('@weft/mcp-docs').provides.services).toContain('mcp-server');
    });

    test('says so when no package matches, and the filters combine [claim:plugins-no-match]', async ({
      page,
    }) => {
      await page.goto('/plugins/');
      await expect(emptyMessage(page)).toBeHidden();
      await kindFilter(page).getByRole('radio', { name: 'Memory providers' }).check();
      await worksWithFilter(page).selectOption('plugin-chat');
      expect(await visibleCards(page)).toEqual([]);
      await expect(emptyMessage(page)).toBeVisible();
      await expect(page.getByRole('heading', { level: 2 })).toHaveCount(0);

      await kindFilter(page).getByRole('radio', { name: 'Core' }).check();
      expect(await visibleCards(page)).toEqual(['core']);
      await expect(emptyMessage(page)).toBeHidden();
    });

    test('is usable from the keyboard', async ({ page }) => {
      await page.goto('/plugins/');
      const any = kindFilter(page).getByRole('radio', { name: 'Any' });
      await any.focus();
      // Arrow keys move through a radio group and check the radio they land on.
      await page.keyboard.press('ArrowRight');
      await expect(kindFilter(page).getByRole('radio', { name: 'Core' })).toBeChecked();
      expect(await visibleCards(page)).toEqual(['core']);
      await page.keyboard.press('ArrowLeft');
      await expect(any).toBeChecked();

      await page.keyboard.press('Tab');
      await expect(featureFilter(page)).toBeFocused();
      await page.keyboard.press('Tab');
      await expect(worksWithFilter(page)).toBeFocused();
    });
  });
}

test.describe('the plugins catalogue without JavaScript', () => {
  test.use({ javaScriptEnabled: false });

  test('filters all the same', async ({ page }) => {
    await page.goto('/plugins/');
    await worksWithFilter(page).selectOption('memory-sqlite');
    expect(await visibleCards(page)).toEqual(directoriesOf(['@weft/core', '@weft/memory-sqlite']));
    await kindFilter(page).getByRole('radio', { name: 'Plugins' }).check();
    await expect(emptyMessage(page)).toBeVisible();
  });
});
