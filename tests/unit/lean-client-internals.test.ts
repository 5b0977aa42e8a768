/**
 * Every Docusaurus internal that src/plugins/lean-client matches by path or by name still exists
 * where the rule looks for it. A replacement rule that stops matching fails silently (the build
 * succeeds and the bytes or milliseconds it saved come back), so after an upgrade this test names
 * the rule to revisit. The table "Docusaurus internals the site depends on" in
 * docs/contributing-guide.md lists each one with why the site relies on it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  LOCALE_COMPARE_MODULES,
  MARK_JS_ENTRY,
  NPROGRESS_REQUEST,
  PWA_REGISTER_SW,
  SIDE_EFFECT_FREE_PACKAGES,
  THEME_PRISM_CLIENT_MODULE,
  WINDOW_SIZE_HOOK,
} from '../../src/plugins/lean-client';

const siteDir = path.resolve(__dirname, '../..');
const siteRequire = createRequire(path.join(siteDir, 'package.json'));
/** A file of an installed package (not every package's exports list its lib/ files). */
const installed = (packageName: string, file: string): string =>
  path.join(siteDir, 'node_modules', packageName, file);
/** Resolves `request` the way a module inside `packageName` would. */
const resolveFrom = (packageName: string, request: string): string =>
  createRequire(installed(packageName, 'package.json')).resolve(request);
const read = (file: string): string => readFileSync(file, 'utf8');

describe('the Docusaurus internals lean-client matches [claim:cg-internals-tests-name-them]', () => {
  it('THEME_PRISM_CLIENT_MODULE: theme-classic still registers Prism languages from that client module', () => {
    const themeIndex = read(installed('@docusaurus/theme-classic', 'lib/index.js'));
    expect(themeIndex, 'theme-classic no longer lists ./prism-include-languages').toContain(
      "'./prism-include-languages'",
    );
    const file = installed('@docusaurus/theme-classic', 'lib/prism-include-languages.js');
    expect(THEME_PRISM_CLIENT_MODULE.test(file.replace(/\.js$/, '')), file).toBe(true);
    expect(THEME_PRISM_CLIENT_MODULE.test(file), file).toBe(true);
  });

  it("MARK_JS_ENTRY: the search plugin's generated module imports mark.js's package entry", () => {
    const generator = read(
      installed('@easyops-cn/docusaurus-search-local', 'dist/server/server/utils/generate.js'),
    );
    expect(generator, 'the search plugin no longer imports mark.js by require.resolve').toContain(
      'require.resolve("mark.js")',
    );
    const entry = resolveFrom('@easyops-cn/docusaurus-search-local', 'mark.js');
    expect(MARK_JS_ENTRY.test(entry), `mark.js resolves to ${entry}`).toBe(true);
  });

  it("NPROGRESS_REQUEST: theme-classic's progress-bar client module imports nprogress by that name", () => {
    const themeIndex = read(installed('@docusaurus/theme-classic', 'lib/index.js'));
    expect(themeIndex, 'theme-classic no longer lists ./nprogress').toContain("'./nprogress'");
    const progress = read(installed('@docusaurus/theme-classic', 'lib/nprogress.js'));
    const requests = [...progress.matchAll(/from '([^']+)'/g)].map((match) => match[1] ?? '');
    expect(
      requests.filter((request) => NPROGRESS_REQUEST.test(request)),
      'theme-classic/lib/nprogress.js imports',
    ).toEqual(['nprogress']);
  });

  it('PWA_REGISTER_SW: plugin-pwa registers its worker from lib/registerSw.js', () => {
    const file = installed('@docusaurus/plugin-pwa', 'lib/registerSw.js');
    expect(PWA_REGISTER_SW.test(file), file).toBe(true);
    expect(read(file), 'plugin-pwa/lib/registerSw.js registers a service worker').toContain(
      'serviceWorker',
    );
  });

  it("WINDOW_SIZE_HOOK: theme-common's useWindowSize is still its own module", () => {
    const file = installed('@docusaurus/theme-common', 'lib/hooks/useWindowSize.js');
    expect(WINDOW_SIZE_HOOK.test(file), file).toBe(true);
    expect(read(file)).toContain('export function useWindowSize');
  });

  it('LOCALE_COMPARE_MODULES: both modules exist at the matched paths', () => {
    for (const [packageName, file] of [
      ['@docusaurus/plugin-content-docs', 'lib/client/docsClientUtils.js'],
      ['@docusaurus/theme-common', 'lib/utils/reactUtils.js'],
    ] as const) {
      const resolved = installed(packageName, file);
      expect(LOCALE_COMPARE_MODULES.test(resolved), resolved).toBe(true);
      expect(read(resolved), `${packageName}/${file} calls localeCompare`).toContain(
        'localeCompare(',
      );
    }
  });

  it('SIDE_EFFECT_FREE_PACKAGES: the router still imports the packages marked side-effect free', () => {
    const router = read(resolveFrom('react-router-dom', 'react-router/esm/react-router.js'));
    for (const request of ['hoist-non-react-statics', 'react-is']) {
      expect(router, `react-router imports ${request}`).toContain(`from '${request}'`);
      const resolved = resolveFrom('react-router-dom', request);
      expect(SIDE_EFFECT_FREE_PACKAGES.test(resolved), resolved).toBe(true);
    }
  });

  it('the generated files the loaders match keep their names (docusaurus.config.mjs, registry.js)', () => {
    const codegen = read(installed('@docusaurus/core', 'lib/server/codegen/codegen.js'));
    expect(codegen, 'core writes the client config as DEFAULT_CONFIG_FILE_NAME.mjs').toContain(
      '`${utils_1.DEFAULT_CONFIG_FILE_NAME}.mjs`',
    );
    const utils = siteRequire('@docusaurus/utils') as { DEFAULT_CONFIG_FILE_NAME: string };
    expect(utils.DEFAULT_CONFIG_FILE_NAME).toBe('docusaurus.config');
    const routes = read(installed('@docusaurus/core', 'lib/server/codegen/codegenRoutes.js'));
    expect(routes, "core writes the chunk registry as 'registry.js'").toContain(
      "generate)(generatedFilesDir, 'registry.js'",
    );
  });

  it("the aliases' targets: core's <Head> imports react-helmet-async, utils-common imports tslib", () => {
    expect(read(installed('@docusaurus/core', 'lib/client/exports/Head.js'))).toContain(
      "from 'react-helmet-async'",
    );
    expect(read(installed('@docusaurus/utils-common', 'lib/index.js'))).toMatch(
      /require\("tslib"\)/,
    );
  });
});
