/**
 * tooling/failure-lines.ts picks what failed out of a phase's output for the end of `npm test`'s
 * log. The output here is what Vitest and Playwright really print: each runs a failing test
 * file in a temporary folder (Playwright's needs no browser).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_FAILURE_LINES, failureLines } from '../../tooling/failure-lines';

const root = path.resolve(__dirname, '../..');
const folder = mkdtempSync(path.join(os.tmpdir(), 'weft-failure-lines-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));

/**
 * Runs a package's command line from this repository's node_modules in the folder; answers what it
 * printed. Asynchronous, so that the worker's event loop stays free while the run takes seconds.
 */
function run(bin: string, args: string[]): Promise<{ status: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [path.join(root, 'node_modules', bin), ...args], {
      cwd: folder,
      timeout: 60_000,
      env: { ...process.env, FORCE_COLOR: '1', CI: 'true' },
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, output }));
  });
}

describe('the failure lines of a phase', () => {
  it("names Vitest's failed test with its assertion, and its counts, without colours", async () => {
    writeFileSync(path.join(folder, 'vitest.config.mjs'), 'export default {};\n');
    writeFileSync(
      path.join(folder, 'sums.test.mjs'),
      "import { describe, expect, it } from 'vitest';\ndescribe('sums', () => {\n  it('adds', () => expect(1 + 1).toBe(2));\n  it('carries', () => expect(5 + 5).toBe(11));\n});\n",
    );
    const { status, output } = await run('vitest/vitest.mjs', [
      'run',
      '--config',
      'vitest.config.mjs',
    ]);
    expect(status).toBe(1);
    expect(output).toContain('\u001b[');
    const lines = failureLines(output);
    expect(lines.join('\n')).not.toContain('\u001b[');
    const failed = lines.findIndex((line) =>
      /^\s*FAIL\s+sums\.test\.mjs > sums > carries$/.test(line),
    );
    expect(failed, lines.join('\n')).toBeGreaterThanOrEqual(0);
    expect(lines[failed + 1]).toMatch(/^ {4}AssertionError: expected 10 to be 11/);
    expect(lines.some((line) => /Tests\s+1 failed \| 1 passed/.test(line))).toBe(true);
    expect(lines.some((line) => /\badds\b/.test(line))).toBe(false);
  }, 60_000);

  it("names Playwright's failed test and its count", async () => {
    writeFileSync(
      path.join(folder, 'playwright.config.mjs'),
      "export default { testMatch: '*.spec.mjs', reporter: 'list', retries: 0 };\n",
    );
    writeFileSync(
      path.join(folder, 'pages.spec.mjs'),
      // The temporary folder has no node_modules: the test module is named by its path here.
      `import { expect, test } from ${JSON.stringify(pathToFileURL(path.join(root, 'node_modules/@playwright/test/index.mjs')).href)};\ntest('opens', () => expect(1).toBe(1));\ntest('closes', () => expect('open').toBe('closed'));\n`,
    );
    const { status, output } = await run('@playwright/test/cli.js', [
      'test',
      '--config',
      'playwright.config.mjs',
    ]);
    expect(status).toBe(1);
    const text = failureLines(output).join('\n');
    expect(text, output).toMatch(/pages\.spec\.mjs:3:\d+ › closes/);
    expect(text).toMatch(/^\s*1 failed$/m);
    expect(text).not.toMatch(/› opens/);
  }, 60_000);

  it('says nothing of output that names no failure', () => {
    expect(failureLines(' ✓ sums.test.mjs (2 tests) 3ms\n Test Files  1 passed (1)\n')).toEqual([]);
  });

  it('stops after its limit and says how many lines it left out', () => {
    const output = Array.from(
      { length: 60 },
      (_, index) => ` FAIL  t.test.ts > test ${index}\n`,
    ).join('');
    const lines = failureLines(output);
    expect(lines).toHaveLength(MAX_FAILURE_LINES + 1);
    expect(lines.at(-1)).toMatch(/^\(\d+ more lines of failures/);
  });
});
