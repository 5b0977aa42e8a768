/**
 * The API reference under `npm start` (src/plugins/api-reference): TypeDoc runs at start only
 * when the pages are stale, and starts watching once a source changes. TypeDoc itself is stood
 * in for by a function that counts its runs; the stamps are the real ones, in
 * .cache/generated-assets/, under a name of this test's own.
 */
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from '@docusaurus/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  currentSourceHash,
  isGenerated,
  recordGenerated,
  type GeneratedAsset,
} from '@weft-internal/generated-assets/stamp';
import { devServerPlugin } from '../../src/plugins/api-reference';

const siteDir = path.resolve(__dirname, '../..');
const stampDir = path.join(siteDir, '.cache', 'generated-assets');

describe('the API reference under the dev server', () => {
  const name = `test-api-dev-${process.pid}-${Date.now()}`;
  const folder = path.join('.cache', name);
  const source = path.join(folder, 'index.ts');
  const output = path.join(folder, 'index.md');
  const asset = (): GeneratedAsset => ({
    name,
    sources: [source],
    packages: [],
    outputs: [output],
  });
  let runs: { keepOldPages: boolean }[];

  const createPlugin = (): Promise<Plugin> =>
    devServerPlugin({
      name: 'weft-api-reference',
      describeAsset: asset,
      watchPaths: [path.join(siteDir, folder)],
      runTypedoc: async (options) => {
        runs.push(options);
        writeFileSync(path.join(siteDir, output), '# API\n');
        return { name: 'weft-api-reference' };
      },
    });
  const stampExists = (stampName: string): boolean =>
    existsSync(path.join(stampDir, `${stampName}.sha256`));

  beforeEach(() => {
    runs = [];
    mkdirSync(path.join(siteDir, folder), { recursive: true });
    writeFileSync(path.join(siteDir, source), 'export const version = 1;\n');
  });
  afterEach(() => {
    rmSync(path.join(siteDir, folder), { recursive: true, force: true });
    rmSync(path.join(stampDir, `${name}.sha256`), { force: true });
    rmSync(path.join(stampDir, `${name}-dev.sha256`), { force: true });
  });

  it('runs TypeDoc before the first page when the pages are stale, and stamps them for the next start, not for a build [claim:cg-build-never-reuses-dev-pages]', async () => {
    await createPlugin();
    expect(runs).toEqual([{ keepOldPages: false }]);
    expect(stampExists(`${name}-dev`)).toBe(true);
    // The dev server does not fail on TypeDoc's warnings, so a build runs TypeDoc again.
    expect(isGenerated(asset()), "a build trusts the dev server's pages").toBe(false);

    const second = await createPlugin();
    await second.loadContent?.();
    expect(runs, 'the second start reuses the pages').toHaveLength(1);
  });

  it("reuses a build's pages without running TypeDoc, and watches the sources", async () => {
    writeFileSync(path.join(siteDir, output), '# API\n');
    recordGenerated(asset(), currentSourceHash(asset()));

    const plugin = await createPlugin();
    await plugin.loadContent?.();
    expect(runs).toEqual([]);
    expect(plugin.getPathsToWatch?.()).toEqual([path.join(siteDir, folder)]);
  });

  it('starts TypeDoc once a source changes, over the old pages, and forgets both stamps', async () => {
    writeFileSync(path.join(siteDir, output), '# API\n');
    recordGenerated(asset(), currentSourceHash(asset()));
    const plugin = await createPlugin();

    writeFileSync(path.join(siteDir, source), 'export const version = 2;\n');
    await plugin.loadContent?.();
    expect(runs).toEqual([{ keepOldPages: true }]);
    // A build must run TypeDoc itself: the pages now follow the edited sources.
    expect(stampExists(name)).toBe(false);
    expect(stampExists(`${name}-dev`)).toBe(false);

    await plugin.loadContent?.();
    expect(runs, "TypeDoc's own watcher follows later changes").toHaveLength(1);
  });

  it('counts a file added to the sources as a change', async () => {
    writeFileSync(path.join(siteDir, output), '# API\n');
    const sources = [source];
    const growing = (): GeneratedAsset => ({ ...asset(), sources: [...sources] });
    recordGenerated(growing(), currentSourceHash(growing()));
    const plugin = await devServerPlugin({
      name: 'weft-api-reference',
      describeAsset: growing,
      watchPaths: [],
      runTypedoc: async (options) => {
        runs.push(options);
        return { name: 'weft-api-reference' };
      },
    });
    const added = path.join(folder, 'added.ts');
    writeFileSync(path.join(siteDir, added), 'export const added = true;\n');
    sources.push(added);
    await plugin.loadContent?.();
    expect(runs).toEqual([{ keepOldPages: true }]);
  });
});
