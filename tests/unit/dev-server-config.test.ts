/**
 * What `npm start` leaves out (docs/contributing-guide.md, "What npm start leaves out"): the
 * site config, loaded as `docusaurus start` and as `docusaurus build` load it, lists the
 * production-only plugins for the build only, and every other plugin for both.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';

const siteDir = path.resolve(__dirname, '../..');

const PRODUCTION_ONLY = [
  './src/plugins/bundle-stats/index.ts',
  './src/plugins/markdown-copies/index.ts',
  './src/plugins/social-cards/index.ts',
];

async function pluginPaths(command: 'start' | 'build'): Promise<string[]> {
  const argv = process.argv;
  process.argv = [argv[0] ?? 'node', 'docusaurus', command];
  try {
    vi.resetModules();
    const { default: config } = await import('../../docusaurus.config');
    return config.plugins.map((plugin) => String(Array.isArray(plugin) ? plugin[0] : plugin));
  } finally {
    process.argv = argv;
  }
}

describe('the site config under the dev server', () => {
  afterEach(() => vi.resetModules());

  it('leaves out the plugins only a production build needs', async () => {
    const build = await pluginPaths('build');
    const start = await pluginPaths('start');
    for (const plugin of PRODUCTION_ONLY) {
      expect(build, `the build keeps ${plugin}`).toContain(plugin);
      expect(start, `npm start leaves out ${plugin}`).not.toContain(plugin);
    }
    expect(start).toEqual(build.filter((plugin) => !PRODUCTION_ONLY.includes(plugin)));
  }, 60_000);

  it('does not load TypeScript or twoslash, which only the hover types of a build use', () => {
    // A fresh process loading the config the way Docusaurus does (jiti), so no test's imports
    // count; before the hover-types plugin loaded them lazily they cost seconds per start.
    const script = `
      process.argv = [process.argv[0], 'docusaurus', 'start'];
      const load = require('jiti')(${JSON.stringify(`${siteDir}/`)}, { interopDefault: true, requireCache: false });
      load('./docusaurus.config.ts');
      const heavy = Object.keys(require.cache).filter((file) => /node_modules[\\/](typescript|twoslash)[\\/]/.test(file));
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
