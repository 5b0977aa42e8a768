/**
 * `@weft/core` runs a real task in Chromium: the page script (fixtures/run-task.ts) is bundled
 * for the browser from the packages' sources, served from memory on a loopback port, and runs an
 * agent with the scripted model and in-memory memory. What only Node.js has fails with errors
 * that name it, and the run sends no request beyond the page's own two files.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test } from '@playwright/test';
import { bundleForBrowser } from '../support/browser-bundle';
import type { PageResult } from './fixtures/run-task';

let server: Server;
let origin = '';

test.beforeAll(async () => {
  const bundle = await bundleForBrowser("import './tests/browser/fixtures/run-task.ts';");
  expect(bundle.nodeOnly).toEqual([]);
  const files: Record<string, [string, string]> = {
    '/': [
      'text/html',
      '<!doctype html><html lang="en"><title>Weft in a page</title><script type="module" src="/run.js"></script></html>',
    ],
    '/run.js': ['text/javascript', bundle.code],
  };
  server = createServer((request, response) => {
    const file = files[request.url ?? ''];
    response.writeHead(file ? 200 : 404, { 'content-type': file?.[0] ?? 'text/plain' });
    response.end(file?.[1] ?? 'not found');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
});

test('runs a task with the scripted model and in-memory memory [claim:install-browser-core] [claim:install-browser-testing] [claim:install-browser-no-server] [claim:wp-start-order] [claim:install-browser-refuses-options] [claim:install-browser-signals] [claim:install-browser-files] [claim:errors-unsupported-platform-not-at-start] [claim:plugin-triggers-run]', async ({
  page,
}) => {
  const requested: string[] = [];
  const consoleLines: string[] = [];
  page.on('request', (request) => requested.push(request.url()));
  page.on('console', (message) => consoleLines.push(message.text()));
  page.on('pageerror', (error) => consoleLines.push(`pageerror: ${error.message}`));
  await page.goto(`${origin}/`);
  const handle = await page.waitForFunction(() => window.weftResult, undefined, {
    timeout: 15_000,
  });
  const result = (await handle.jsonValue()) as PageResult;
  expect(result).toMatchObject({
    status: 'completed',
    reply: 'Hello, Ada!',
    chainTypes: ['trigger', 'result'],
    modelPurposes: ['plan', undefined],
  });
  // The runtime stored the task (its trigger and chain) in the in-memory provider.
  expect(result.memoryKinds.length).toBeGreaterThan(0);
  // What only Node.js has is refused, naming the option or method.
  expect(result.serverOption).toMatch(
    /^WEFT_INVALID_CONFIG: .*options\.server: the HTTP server runs only in Node\.js/s,
  );
  expect(result.handleSignalsOption).toMatch(
    /^WEFT_INVALID_CONFIG: .*options\.handleSignals: process signals exist only in Node\.js/s,
  );
  expect(result.serverStart).toMatch(
    /^WEFT_UNSUPPORTED_PLATFORM: ServerManager\.start needs the HTTP server/,
  );
  expect(result.loadDirectory).toMatch(
    /^WEFT_UNSUPPORTED_PLATFORM: PromptRegistry\.loadDirectory: cannot read \/prompts/,
  );
  // The default logger wrote to the console, and said the route trigger is not served.
  expect(consoleLines.join('\n')).toContain('route triggers are not served');
  expect(consoleLines.filter((line) => line.startsWith('pageerror'))).toEqual([]);
  expect(requested).toEqual([`${origin}/`, `${origin}/run.js`]);
});
