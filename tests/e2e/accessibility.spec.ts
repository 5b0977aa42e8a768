/**
 * Accessibility of the main page types, checked with axe-core and every rule it runs by default:
 * WCAG A and AA and its best practices (landmarks, headings, scrollable regions), with no tag
 * filter. Any violation fails, with axe's description of what to fix. (axe's AAA and
 * experimental rules, off by default in axe itself, are not enabled.) At desktop width every
 * page of the sitemap is checked by sitemap.spec.ts (the frame of the docs and of the API pages
 * on one page of each); here each page type is checked whole at 375 px, where the navbar and
 * sidebars change, and the states that walk does not reach (a page brought into a state by its
 * controls, the not-found page) at both widths.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { waitForHydration } from './support/shell';

interface PageState {
  name: string;
  path: string;
  /** Not a page of the sitemap as served, so the walk at desktop width does not reach it. */
  offSitemap?: true;
  /** Brings the page into the state to check, after hydration. */
  prepare?: (page: Page) => Promise<void>;
}

const pages: PageState[] = [
  { name: 'home', path: '/' },
  { name: 'docs page', path: '/docs/building-plugins/executors/' },
  { name: 'docs page with diagrams', path: '/docs/concepts/how-a-task-runs/' },
  { name: 'API page', path: '/api/classes/Runtime/' },
  { name: 'API index', path: '/api/' },
  { name: 'plugins page', path: '/plugins/' },
  {
    // The catalogue filtered: some kinds hidden, then none left and the empty message shown.
    name: 'plugins page with no package matching its filters',
    path: '/plugins/',
    prepare: async (page) => {
      await page.getByRole('radio', { name: 'Memory providers' }).check();
      await page.getByRole('combobox', { name: 'Works with' }).selectOption('plugin-chat');
      await expect(page.getByText('No package matches these filters.')).toBeVisible();
    },
  },
  { name: 'bounty page', path: '/docs/bounty-program/' },
  { name: 'transforms guide', path: '/docs/capabilities/transforms/' },
  { name: 'not-found page', path: '/no-such-page/', offSitemap: true },
];

for (const viewport of [
  {
    label: 'desktop',
    width: 1280,
    height: 800,
    states: pages.filter((state) => state.prepare ?? state.offSitemap),
  },
  { label: '375 px', width: 375, height: 812, states: pages },
]) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    // All of axe's rules on a long docs page take most of a minute on a shared two-core machine.
    test.slow();

    for (const { name, path, prepare } of viewport.states) {
      test(`the ${name} has no axe violations, best practices included`, async ({ page }) => {
        await page.goto(path);
        await waitForHydration(page);
        await prepare?.(page);
        // No tag filter: every rule axe enables by default, best practices included.
        // Every rule runs; only the details of what passes are skipped, and axe runs in the page
        // itself, as the site has no frames (see sitemap.spec.ts).
        const results = await new AxeBuilder({ page })
          .setLegacyMode(true)
          .options({ resultTypes: ['violations'] })
          .analyze();
        const violations = results.violations.map(
          (violation) =>
            `${violation.id}: ${violation.help} (${violation.nodes
              .slice(0, 3)
              .map((node) => node.target.join(' '))
              .join('; ')})`,
        );
        expect(violations).toEqual([]);
      });
    }
  });
}
