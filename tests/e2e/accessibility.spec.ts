/**
 * Accessibility of the main page types, checked with axe-core against WCAG 2.1 A and AA rules at
 * desktop width and at 375 px: any violation fails, with axe's description of what to fix.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';

const pages = [
  { name: 'home', path: '/' },
  { name: 'docs page', path: '/docs/building-plugins/executors/' },
  { name: 'docs page with diagrams', path: '/docs/concepts/how-a-task-runs/' },
  { name: 'API page', path: '/api/classes/Runtime/' },
  { name: 'API index', path: '/api/' },
  { name: 'plugins page', path: '/plugins/' },
  { name: 'not-found page', path: '/no-such-page/' },
];

for (const viewport of [
  { label: 'desktop', width: 1280, height: 800 },
  { label: '375 px', width: 375, height: 812 },
]) {
  test.describe(`at ${viewport.label}`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    for (const { name, path } of pages) {
      test(`the ${name} has no WCAG 2.1 A or AA violations`, async ({ page }) => {
        await page.goto(path);
        await expect(page.locator('html')).toHaveAttribute('data-has-hydrated', 'true');
        const results = await new AxeBuilder({ page })
          .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'])
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
