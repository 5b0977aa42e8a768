/**
 * "Runs on: Browser" on the plugins page is true only for a package whose code has no Node.js-only
 * import: each package is bundled by esbuild for the browser, imported by its name as a browser
 * application would (so its `browser` export condition applies; workspace packages from their
 * sources), which fails on a Node.js built-in or a native module. The test follows each
 * package.json's `weft.runtimes` both ways: a package that claims the browser must bundle, and one
 * that bundles must claim it (so core and the packages built on it are marked as soon as they can
 * run in a browser).
 */
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';

const root = path.resolve(__dirname, '../..');
const { entries } = await readCatalogue(path.join(root, 'packages'));

/** The errors esbuild reports bundling the package for the browser. */
async function browserBundleErrors(name: string): Promise<string[]> {
  try {
    await build({
      stdin: { contents: `export * from '${name}';`, resolveDir: root, loader: 'ts' },
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
      // Workspace packages from their sources, as the tests resolve them.
      conditions: ['weft-source'],
      absWorkingDir: root,
    });
    return [];
  } catch (error) {
    const failure = error as { errors?: { text: string }[] };
    if (!failure.errors) throw error;
    return failure.errors.map((message) => message.text);
  }
}

describe('where each package runs', () => {
  it('the browser check fails on a Node.js built-in', async () => {
    // memory-sqlite opens files with a native module: it can never bundle for a browser.
    const errors = await browserBundleErrors('@weft/memory-sqlite');
    expect(errors.length).toBeGreaterThan(0);
    expect(errors.join('\n')).toMatch(/node:|built into node|better-sqlite3/);
  });

  it.each(entries.map((entry) => [entry.name, entry] as const))(
    '%s claims the browser exactly when it bundles for one [claim:plugins-card-facts]',
    async (name, entry) => {
      expect(entry.runtimes).toContain('node');
      const errors = await browserBundleErrors(entry.name);
      if (entry.runtimes.includes('browser')) {
        expect(errors, `${name} says it runs in a browser`).toEqual([]);
      } else {
        expect(
          errors.length,
          `${name} bundles for the browser: add "browser" to weft.runtimes in its package.json`,
        ).toBeGreaterThan(0);
      }
    },
    30_000,
  );
});
