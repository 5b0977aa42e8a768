/**
 * The "Copy page" control of every docs and API page: it copies the page's Markdown copy (served
 * next to the page, see src/plugins/markdown-copies) and links to it. Offline use is covered in
 * pwa-offline.spec.ts.
 */
import { expect, test, type Page } from '@playwright/test';
import { gotoHydrated } from './support/shell';
import { siteUrl } from './support/browser';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

const pages = [
  { path: '/docs/getting-started/', markdown: '/docs/getting-started.md', h1: 'Getting started' },
  { path: '/api/classes/Runtime/', markdown: '/api/classes/Runtime.md', h1: 'Class: Runtime' },
  { path: '/docs/', markdown: '/docs.md', h1: 'Weft documentation' },
] as const;

async function clipboardText(page: Page): Promise<string> {
  return page.evaluate(() => navigator.clipboard.readText());
}

for (const { path, markdown, h1 } of pages) {
  test(`on ${path}, "Copy page" copies the page's Markdown, with the keyboard`, async ({
    page,
  }) => {
    await gotoHydrated(page, path);
    await page.evaluate(() => navigator.clipboard.writeText('before'));

    const copy = page.getByRole('button', { name: 'Copy page', exact: true });
    await copy.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('status').filter({ hasText: 'Copied' })).toBeVisible();

    const copied = await clipboardText(page);
    const served = await (await page.request.get(markdown)).text();
    expect(copied).toBe(served);
    expect(copied).toMatch(new RegExp(`^# ${h1.replace(/[()]/g, '\\$&')}\\s*$`, 'm'));
    // The copy is the page text, not its HTML, and not the control itself.
    expect(copied).not.toMatch(/<\/?(div|article|span)\b/);
    expect(copied).not.toContain('Copy page');
  });

  test(`on ${path}, a link leads to the Markdown copy`, async ({ page }) => {
    await gotoHydrated(page, path);
    const link = page.getByRole('link', { name: 'View as Markdown', exact: true });
    await expect(link).toHaveAttribute('href', markdown);
    const response = await page.request.get(`${siteUrl}${markdown}`);
    expect(response.status()).toBe(200);
    expect(await response.text()).toContain(`# ${h1}`);
  });
}

test('a failed copy says so instead of claiming success', async ({ page }) => {
  await gotoHydrated(page, '/docs/getting-started/');
  await page.route('**/docs/getting-started.md', (route) => route.fulfill({ status: 500 }));
  await page.getByRole('button', { name: 'Copy page', exact: true }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Could not copy the page' }),
  ).toBeVisible();
});

test("the assistant links open ChatGPT, Claude and Cursor's set-up of the docs server [claim:mcp-docs-cursor-link] [claim:mcp-docs-open-in-assistants]", async ({
  page,
}) => {
  await gotoHydrated(page, '/docs/guides/production/');
  const copyUrl = 'https://weft-ai.github.io/docs/guides/production.md';

  for (const [name, start] of [
    ['Open in ChatGPT', 'https://chatgpt.com/?q='],
    ['Open in Claude', 'https://claude.ai/new?q='],
  ] as const) {
    const link = page.getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('target', '_blank');
    await expect(link).toHaveAttribute('rel', /noreferrer/);
    const href = (await link.getAttribute('href')) ?? '';
    expect(href.startsWith(start), href).toBe(true);
    expect(new URL(href).searchParams.get('q')).toContain(copyUrl);
  }

  // Until @weft/mcp-docs is on npm, the Cursor link leads to the set-up from a clone
  // (tests/unit/assistant-links.test.ts checks the one-click install kept for after publication).
  const cursor = page.getByRole('link', { name: 'Set up docs in Cursor', exact: true });
  const setup = new URL((await cursor.getAttribute('href')) ?? '', page.url());
  expect(`${setup.pathname}${setup.hash}`).toBe('/docs/guides/ai-assistants/#cursor');
});
