/**
 * `@weft/core` runs in a browser: bundled for a page (esbuild, platform `browser`) with every
 * public name in use, it and the scripted model and in-memory memory of `@weft/testing` import
 * nothing that only Node.js has. The figure printed is the bundle's gzipped size, the core's
 * share of the Run panel's budget (150 KB gzipped with the core).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundleForBrowser } from '../support/browser-bundle';

const coreDir = path.resolve(__dirname, '../../packages/core');

/** The Run panel's budget for its chunk, the core included, gzipped. */
const RUN_CHUNK_BUDGET_BYTES = 150 * 1024;

describe('@weft/core bundled for a browser', () => {
  it('imports no Node built-in, express, cors or pino Node build, and fits the budget [claim:cg-core-platform-module] [claim:install-browser-core] [claim:install-browser-testing] [claim:stability-browser-same-api] [claim:install-browser-log-level]', async () => {
    const bundle = await bundleForBrowser(
      [
        "export * from '@weft/core';",
        "export { InMemoryMemoryProvider, ScriptedModelProvider } from '@weft/testing';",
      ].join('\n'),
    );
    console.log(
      `@weft/core + @weft/testing for the browser: ${(bundle.gzipBytes / 1024).toFixed(1)} KB gzipped (${(bundle.code.length / 1024).toFixed(1)} KB minified)`,
    );
    expect(bundle.nodeOnly).toEqual([]);
    // The check saw the core's sources, not a prebuilt file, and their browser platform module.
    expect(bundle.inputs).toContain('packages/core/src/runtime/runtime.ts');
    expect(bundle.inputs).toContain('packages/core/src/platform/browser.ts');
    expect(bundle.inputs).not.toContain('packages/core/src/platform/node.ts');
    expect(bundle.inputs.some((input) => input.endsWith('node_modules/pino/browser.js'))).toBe(
      true,
    );
    expect(bundle.gzipBytes).toBeLessThan(RUN_CHUNK_BUDGET_BYTES);
  }, 60_000);

  it('picks platform/browser.ts for #platform under the browser condition, with the exports of platform/node.ts [claim:cg-core-platform-module]', async () => {
    const manifest = JSON.parse(readFileSync(path.join(coreDir, 'package.json'), 'utf8')) as {
      imports?: Record<string, Record<string, string>>;
    };
    expect(manifest.imports?.['#platform']).toEqual({
      browser: './src/platform/browser.ts',
      default: './src/platform/node.ts',
    });
    const node = (await import('../../packages/core/src/platform/node')) as object;
    const browser = (await import('../../packages/core/src/platform/browser')) as object;
    expect(Object.keys(browser).sort()).toEqual(Object.keys(node).sort());
    for (const name of [
      'hostEnvironment',
      'loadHttpServer',
      'createDefaultLogger',
      'onStopSignal',
      'readTemplateFiles',
    ]) {
      expect(Object.keys(node)).toContain(name);
    }
    // The HTTP server itself is in src/server/; platform/node.ts is what loads it.
    expect(readFileSync(path.join(coreDir, 'src/platform/node.ts'), 'utf8')).toContain(
      "await import('../server/server-manager.js')",
    );
  });

  it("leaves out zod's translations of its messages, which the core never uses", async () => {
    // `import { z } from 'zod'` reaches every translation through `z.locales`, about 250 KB
    // minified for a page to download, parse and compile; the core imports `* as z`.
    const bundle = await bundleForBrowser("export * from '@weft/core';");
    const bundled = (pattern: RegExp): string[] =>
      Object.entries(bundle.bytesByInput)
        .filter(([input, bytes]) => pattern.test(input) && bytes > 0)
        .map(([input]) => input);
    expect(bundled(/node_modules\/zod\/v4\/classic\/schemas\.js$/)).toHaveLength(1);
    expect(bundled(/node_modules\/zod\/v4\/locales\/(?!en\.js$)/)).toEqual([]);
  }, 60_000);

  it('imports liquidjs only with import(), so a page loads it only for a Liquid template [claim:liq-lazy-engine]', async () => {
    const bundle = await bundleForBrowser("export * from '@weft/core';");
    const liquidImports = Object.entries(bundle.importsByInput).flatMap(([importer, imports]) =>
      imports
        .filter(({ path }) => path.includes('node_modules/liquidjs/'))
        .map(({ kind }) => ({ importer, kind })),
    );
    expect(liquidImports).toEqual([
      { importer: 'packages/core/src/prompts/liquid-engine.ts', kind: 'dynamic-import' },
    ]);
  }, 60_000);

  it('names what the Node platform module imports, so the check can fail', async () => {
    const bundle = await bundleForBrowser("export * from './packages/core/src/platform/node.ts';");
    const imported = new Set(bundle.nodeOnly.map((entry) => entry.imported));
    for (const name of ['node:events', 'node:fs/promises', 'express', 'cors', 'node:http']) {
      expect(imported).toContain(name);
    }
    expect(bundle.nodeOnly).toContainEqual({
      imported: 'node:events',
      importer: 'packages/core/src/platform/node.ts',
    });
  }, 60_000);
});
