/**
 * What `npm start` leaves out (docs/contributing-guide.md, "What npm start leaves out"): the
 * site config, loaded as `docusaurus start` and as `docusaurus build` load it, lists the
 * production-only plugins for the build only, and every other plugin for both.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';

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
});
