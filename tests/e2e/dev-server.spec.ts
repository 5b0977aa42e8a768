/**
 * The site as a contributor sees it under `npm start`: the dev server renders the first page in
 * the browser instead of hydrating server HTML, which the production build's specs never meet.
 * Its code blocks once stayed empty on the first page opened (src/theme/CodeBlock/Content keeps
 * server markup, and there was none). It also serves the home page, a guide reached by a link and
 * one opened directly, and shows an edit to a guide's Markdown in the open page.
 *
 * The dev server writes its generated files to a folder of its own
 * (DOCUSAURUS_GENERATED_FILES_DIR_NAME, which @docusaurus/utils reads), so the `.docusaurus/`
 * the build left for prefetch.spec.ts and progress.spec.ts stays as it is.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const siteDir = path.resolve(__dirname, '../..');
/** A cold dev server compiles every docs page first; on a shared 2-core machine, minutes. */
const START_DEADLINE_MS = 240_000;
const GENERATED_FILES_DIR = '.cache/e2e-dev-server';

let server: ChildProcess | undefined;
let baseUrl = '';
let output = '';

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address !== null
          ? resolve(address.port)
          : reject(new Error('no port')),
      );
    });
  });
}

async function waitUntilServing(url: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) {
      throw new Error(`the dev server exited with ${server?.exitCode}:\n${output.slice(-2000)}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  throw new Error(
    `the dev server did not serve ${url} within ${START_DEADLINE_MS} ms:\n${output.slice(-2000)}`,
  );
}

test.describe('under npm start (the dev server)', () => {
  test.describe.configure({ mode: 'serial' });

  test.beforeAll(async () => {
    test.setTimeout(START_DEADLINE_MS + 30_000);
    // From nothing, so the check below sees this start's files, not an earlier run's.
    rmSync(path.join(siteDir, GENERATED_FILES_DIR), { recursive: true, force: true });
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(
      'npx',
      ['docusaurus', 'start', '--port', String(port), '--host', '127.0.0.1', '--no-open'],
      {
        cwd: siteDir,
        env: { ...process.env, DOCUSAURUS_GENERATED_FILES_DIR_NAME: GENERATED_FILES_DIR },
        // Its own process group, so the whole tree (npx, Node, Rspack workers) can be stopped.
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    server.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    server.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitUntilServing(`${baseUrl}/docs/getting-started/`);
    // Were the variable ever ignored, the dev server would overwrite the build's .docusaurus/
    // under the specs that read it: fail here, naming it, instead.
    expect(
      existsSync(path.join(siteDir, GENERATED_FILES_DIR, 'registry.js')),
      `Docusaurus no longer reads DOCUSAURUS_GENERATED_FILES_DIR_NAME: no ${GENERATED_FILES_DIR}/registry.js`,
    ).toBe(true);
  });

  test.afterAll(() => {
    if (server?.pid !== undefined && server.exitCode === null) {
      process.kill(-server.pid, 'SIGTERM');
    }
  });

  test('the first page opened shows its code highlighted', async ({ page }) => {
    await page.goto(`${baseUrl}/docs/getting-started/`);
    const block = page.locator('pre.language-ts:visible').first();
    // Highlighting loads Prism in its own chunk, which the dev server compiles on demand.
    await expect(block.locator('.token.keyword').first()).toBeVisible({ timeout: 60_000 });
    await expect(block.locator('code')).toContainText('import');
  });

  test('shows the home page, a guide by link and directly, and an edit to a guide', async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(`${baseUrl}/`);
    await expect(page.getByRole('link', { name: 'Get started' })).toBeVisible({ timeout: 60_000 });
    await page.getByRole('link', { name: 'Get started' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible({
      timeout: 60_000,
    });
    await page.goto(`${baseUrl}/docs/building-plugins/executors/`);
    await expect(page.getByRole('heading', { level: 1, name: 'Executors' })).toBeVisible({
      timeout: 60_000,
    });
    const file = path.join(siteDir, 'docs/building-plugins/executors.md');
    const original = readFileSync(file, 'utf8');
    const sentence = `Written by the dev server test at ${Date.now().toString(36)}.`;
    try {
      writeFileSync(file, `${original.trimEnd()}\n\n${sentence}\n`);
      await expect(page.getByText(sentence)).toBeVisible({ timeout: 30_000 });
    } finally {
      writeFileSync(file, original);
    }
    await expect(page.getByText(sentence)).toHaveCount(0, { timeout: 30_000 });
    expect(errors).toEqual([]);
  });
});
