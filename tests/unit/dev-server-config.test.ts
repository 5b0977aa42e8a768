/**
 * What `npm start` leaves out (docs/contributing-guide.md, "What npm start leaves out"): the
 * site config, loaded as `docusaurus start` and as `docusaurus build` load it, lists the
 * production-only plugins for the build only, and every other plugin for both; the API pages
 * (and TypeDoc's plugin) are left out of `docusaurus start` unless DEV_API_PAGES=true.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Config } from '@docusaurus/types';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import ApiLeftOutNote from '../../src/components/ApiLeftOutNote';
import { API_DEV_STAND_IN_DIR, apiSidebarFile } from '../../src/config/api-in-dev';
import { DEV_API_PAGES_COMMAND } from '../../src/config/api-in-dev-command';
import { parseSiteEnv } from '../../src/config/env';

const siteDir = path.resolve(__dirname, '../..');
const API_REFERENCE_PLUGIN = './src/plugins/api-reference/index.ts';

const PRODUCTION_ONLY = [
  './src/plugins/bundle-stats/index.ts',
  './src/plugins/markdown-copies/index.ts',
  './src/plugins/social-cards/index.ts',
];

/** Loads a fresh copy of a module as `docusaurus <command>` would, with DEV_API_PAGES set or not. */
async function loadAs<T>(
  command: 'start' | 'build',
  devApiPages: string | undefined,
  load: () => Promise<T>,
): Promise<T> {
  const argv = process.argv;
  const saved = process.env.DEV_API_PAGES;
  process.argv = [argv[0] ?? 'node', 'docusaurus', command];
  if (devApiPages === undefined) {
    delete process.env.DEV_API_PAGES;
  } else {
    process.env.DEV_API_PAGES = devApiPages;
  }
  try {
    vi.resetModules();
    return await load();
  } finally {
    process.argv = argv;
    if (saved === undefined) {
      delete process.env.DEV_API_PAGES;
    } else {
      process.env.DEV_API_PAGES = saved;
    }
  }
}

const siteConfig = (command: 'start' | 'build', devApiPages?: string): Promise<Config> =>
  loadAs(command, devApiPages, async () => (await import('../../docusaurus.config')).default);

async function pluginPaths(command: 'start' | 'build', devApiPages?: string): Promise<string[]> {
  const config = await siteConfig(command, devApiPages);
  return (config.plugins ?? []).map((plugin) => String(Array.isArray(plugin) ? plugin[0] : plugin));
}

/** The `path` option of the docs instance that serves /api/. */
async function apiDocsPath(command: 'start' | 'build', devApiPages?: string): Promise<string> {
  const config = await siteConfig(command, devApiPages);
  const instance = (config.plugins ?? []).find(
    (plugin): plugin is [string, { id?: string; path?: string }] =>
      Array.isArray(plugin) &&
      plugin[0] === '@docusaurus/plugin-content-docs' &&
      (plugin[1] as { id?: string }).id === 'api',
  );
  if (instance === undefined) {
    throw new Error('the site config has no docs instance with id "api"');
  }
  return String(instance[1].path);
}

describe('the site config under the dev server', () => {
  afterEach(() => {
    vi.resetModules();
    vi.unstubAllEnvs();
  });

  it('leaves out the plugins only a production build needs', async () => {
    const build = await pluginPaths('build');
    const start = await pluginPaths('start', 'true');
    for (const plugin of PRODUCTION_ONLY) {
      expect(build, `the build keeps ${plugin}`).toContain(plugin);
      expect(start, `npm start leaves out ${plugin}`).not.toContain(plugin);
    }
    expect(start).toEqual(build.filter((plugin) => !PRODUCTION_ONLY.includes(plugin)));
  }, 60_000);

  it('serves a stand-in at /api/ and runs no TypeDoc, unless DEV_API_PAGES=true [claim:contributing-dev-start-api-stand-in]', async () => {
    const build = await pluginPaths('build');
    expect(build).toContain(API_REFERENCE_PLUGIN);
    expect(await pluginPaths('start')).toEqual(
      build.filter(
        (plugin) => !PRODUCTION_ONLY.includes(plugin) && plugin !== API_REFERENCE_PLUGIN,
      ),
    );
    expect(await apiDocsPath('start')).toBe(API_DEV_STAND_IN_DIR);
    expect(await apiDocsPath('start', 'true')).toBe('api');
    // A build has the pages whatever the flag says.
    expect(await apiDocsPath('build')).toBe('api');
    expect(await apiDocsPath('build', 'false')).toBe('api');

    const standIn = readFileSync(path.join(siteDir, API_DEV_STAND_IN_DIR, 'index.md'), 'utf8');
    expect(standIn).toContain(DEV_API_PAGES_COMMAND);
    expect(standIn).toContain('npm run build && npm run serve');
    expect(standIn).toContain('https://weft-ai.github.io/api/');
    // The not-found page reads this key; a build does not ship it.
    expect((await siteConfig('start')).customFields).toEqual({ apiPagesLeftOut: true });
    expect((await siteConfig('build')).customFields).toBeUndefined();
    expect((await siteConfig('start', 'true')).customFields).toBeUndefined();
  }, 60_000);

  it("gives the stand-in's docs instance a sidebar with its one page [claim:contributing-dev-start-api-stand-in]", async () => {
    const sidebars = await loadAs(
      'start',
      undefined,
      async () => (await import('../../sidebars.api')).default,
    );
    expect(sidebars).toEqual({ api: [{ type: 'doc', id: 'index', label: 'Overview' }] });
    // The generated sidebar exists only after a build has run TypeDoc; the build tests check
    // what it lists (tests/build/routes.test.ts). Here: which file each command reads.
    const env = (command: string, devApiPages?: string) =>
      parseSiteEnv(devApiPages === undefined ? {} : { DEV_API_PAGES: devApiPages }, [
        'node',
        'docusaurus',
        command,
      ]);
    expect(apiSidebarFile(env('start'))).toBe(`${API_DEV_STAND_IN_DIR}/typedoc-sidebar.cjs`);
    expect(apiSidebarFile(env('start', 'true'))).toBe('api/typedoc-sidebar.cjs');
    expect(apiSidebarFile(env('build'))).toBe('api/typedoc-sidebar.cjs');
  }, 60_000);

  it("makes a build throw on a broken link, a guide's into /api/ included, unless TYPEDOC=false, which turns every broken URL link into a warning but not a broken Markdown link [claim:cg-build-fails-on-broken-api-link] [claim:cg-broken-links-fail-build] [claim:cg-typedoc-false-links-warn]", async () => {
    vi.stubEnv('TYPEDOC', undefined);
    const build = await siteConfig('build');
    expect(build.onBrokenLinks).toBe('throw');
    expect(build.markdown?.hooks?.onBrokenMarkdownLinks).toBe('throw');
    vi.stubEnv('TYPEDOC', 'false');
    const withoutTypedoc = await siteConfig('build');
    expect(withoutTypedoc.onBrokenLinks).toBe('warn');
    expect(withoutTypedoc.markdown?.hooks?.onBrokenMarkdownLinks).toBe('throw');
  }, 60_000);

  it('turns every part of Docusaurus Faster off with FASTER=false, and on without it [claim:cg-faster-false]', async () => {
    // The site config passes a boolean; Docusaurus's own validation expands it into the parts.
    const { validateConfig } =
      (await import('@docusaurus/core/lib/server/configValidation.js')) as {
        validateConfig: (
          config: unknown,
          siteConfigPath: string,
        ) => Config & {
          future: { faster: Record<string, boolean> };
        };
      };
    const parts = async (): Promise<Record<string, boolean>> => {
      const { title, url, baseUrl, future } = await siteConfig('build');
      return validateConfig({ title, url, baseUrl, future }, 'docusaurus.config.ts').future.faster;
    };
    const named = [
      'rspackBundler',
      'rspackPersistentCache',
      'swcJsLoader',
      'lightningCssMinimizer',
    ];
    vi.stubEnv('FASTER', undefined);
    const on = await parts();
    for (const part of named) expect(on[part], part).toBe(true);
    vi.stubEnv('FASTER', 'false');
    const off = await parts();
    for (const part of named) expect(off[part], part).toBe(false);
    expect(Object.values(off).every((value) => !value)).toBe(true);
  }, 60_000);

  it('rejects a DEV_API_PAGES value that is not a boolean, naming it', () => {
    expect(() => parseSiteEnv({ DEV_API_PAGES: 'yes' }, ['node', 'docusaurus', 'start'])).toThrow(
      /DEV_API_PAGES must be "true" or "false".*got "yes"/,
    );
    expect(parseSiteEnv({}, ['node', 'docusaurus', 'start']).devApiPages).toBe(false);
  });

  it('explains a missing /api/ page on the not-found page only when npm start left it out [claim:contributing-dev-start-api-stand-in]', () => {
    const note = (pathname: string, apiPagesLeftOut: unknown): string =>
      renderToStaticMarkup(createElement(ApiLeftOutNote, { pathname, apiPagesLeftOut }));
    const shown = note('/api/classes/Runtime/', true);
    expect(shown).toContain('role="note"');
    expect(shown).toContain(DEV_API_PAGES_COMMAND);
    expect(note('/docs/missing/', true)).toBe('');
    expect(note('/api/classes/Runtime/', undefined)).toBe('');
    expect(note('/api/classes/Runtime/', false)).toBe('');
  });

  it('does not load TypeScript, which only the hover types of a build use [claim:contributing-dev-start-no-typescript]', () => {
    // A fresh process loading the config the way Docusaurus does (jiti), so no test's imports
    // count; before the hover-types plugin loaded them lazily they cost seconds per start.
    const script = `
      process.argv = [process.argv[0], 'docusaurus', 'start'];
      const load = require('jiti')(${JSON.stringify(`${siteDir}/`)}, { interopDefault: true, requireCache: false });
      load('./docusaurus.config.ts');
      const heavy = Object.keys(require.cache).filter((file) => /node_modules[\\/](typescript)[\\/]/.test(file));
      process.stdout.write(JSON.stringify(heavy));`;
    const loaded = JSON.parse(
      execFileSync(process.execPath, ['-e', script], {
        cwd: siteDir,
        encoding: 'utf8',
        timeout: 60_000,
      }),
    ) as string[];
    expect(loaded).toEqual([]);
  }, 60_000);
});
