/**
 * `npm start`, the README's first command, as a contributor uses it (docs/contributing-guide.md,
 * "What `npm start` leaves out"): from a fresh start, the home page shows, a guide reached by a
 * link and one opened directly both show, and an edit to a guide's Markdown shows in the open
 * page, with no error in the page.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { expect, test } from '@playwright/test';

const siteDir = path.resolve(__dirname, '../..');
const START_DEADLINE_MS = 240_000;

let server: ChildProcess | undefined;
let origin = '';
let output = '';

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  if (address === null || typeof address === 'string') throw new Error('no port to probe');
  return address.port;
}

/** Polls the dev server until it answers `/` with a page, or fails with what it printed. */
async function waitForAnswer(url: string): Promise<void> {
  const deadline = Date.now() + START_DEADLINE_MS;
  while (Date.now() < deadline) {
    if (server?.exitCode !== null) {
      throw new Error(`npm start exited with code ${server?.exitCode}:\n${output}`);
    }
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5_000) });
      if (response.status === 200 && (await response.text()).includes('</html>')) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`npm start served no page within ${START_DEADLINE_MS} ms:\n${output}`);
}

test.describe.configure({ timeout: START_DEADLINE_MS + 120_000 });

test.beforeAll(async () => {
  test.setTimeout(START_DEADLINE_MS + 30_000);
  const port = await freePort();
  origin = `http://127.0.0.1:${port}`;
  server = spawn(
    'npm',
    ['start', '--', '--port', String(port), '--host', '127.0.0.1', '--no-open'],
    { cwd: siteDir, detached: true, env: { ...process.env, BROWSER: 'none' } },
  );
  const keep = (chunk: Buffer) => {
    output = `${output}${chunk.toString()}`.slice(-20_000);
  };
  server.stdout?.on('data', keep);
  server.stderr?.on('data', keep);
  await waitForAnswer(`${origin}/`);
});

test.afterAll(async () => {
  if (server?.pid === undefined || server.exitCode !== null) return;
  const exited = new Promise((resolve) => server?.once('exit', resolve));
  // npm starts Docusaurus as a child: end the whole group.
  process.kill(-server.pid, 'SIGTERM');
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 15_000))]);
  if (server.exitCode === null) process.kill(-server.pid, 'SIGKILL');
});

test('serves the home page, a guide by link and directly, and shows an edit', async ({ page }) => {
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));

  await page.goto(`${origin}/`);
  await expect(page.getByRole('link', { name: 'Get started' })).toBeVisible({ timeout: 60_000 });
  await page.getByRole('link', { name: 'Get started' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Getting started' })).toBeVisible({
    timeout: 60_000,
  });

  await page.goto(`${origin}/docs/building-plugins/executors/`);
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
