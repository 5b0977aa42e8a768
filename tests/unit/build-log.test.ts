/**
 * The two notices every build printed, from their causes, without a build:
 * - Docusaurus warns of a `babel.config.js` beside a site that compiles with SWC. The site has
 *   none: with Docusaurus Faster off (FASTER=false) Docusaurus compiles with its own preset,
 *   the one the removed file named.
 * - Rspack warned of an expression in a `require` (express's view engine loader) in the server
 *   bundle, which compiled the core's Node platform for the Run panels' chunks. A real Rspack
 *   compiles the core for Node, as the server bundle does, with the site's `weft-in-browser`
 *   rule and without it.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { rspack } from '@docusaurus/faster';
import type { LoadContext } from '@docusaurus/types';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import weftInBrowser from '../../src/plugins/weft-in-browser';

const siteDir = path.resolve(__dirname, '../..');

/** Docusaurus's Babel helpers, as its core loads them (the message comes from there). */
const fromCore = createRequire(require.resolve('@docusaurus/core/package.json'));
const babel = fromCore('@docusaurus/babel') as {
  getCustomBabelConfigFilePath: (siteDir: string) => Promise<string | undefined>;
  getBabelOptions: (options: { isServer: boolean }) => { presets?: unknown[] };
};

type Configuration = Exclude<Parameters<typeof rspack>[0], readonly unknown[]>;
type RuleSetRule = Exclude<
  NonNullable<NonNullable<Configuration['module']>['rules']>[number],
  '...' | 0 | '' | false | null | undefined
>;

describe('the Babel notice', () => {
  it('has no cause: the site keeps no Babel config file for Docusaurus to warn about', async () => {
    expect(await babel.getCustomBabelConfigFilePath(siteDir)).toBeUndefined();
  });

  it("leaves FASTER=false builds on Docusaurus's own Babel preset", () => {
    const presets = babel.getBabelOptions({ isServer: false }).presets;
    expect(presets).toEqual([fromCore.resolve('@docusaurus/babel/preset')]);
  });
});

interface Compiled {
  warnings: string[];
  errors: string[];
  modules: string[];
}

/** Compiles `entry` for Node, as Docusaurus's server bundle, with the plugin's rules or not. */
async function compileForServer(
  entry: string,
  outDir: string,
  withRule: boolean,
): Promise<Compiled> {
  const configure = weftInBrowser({ siteDir } as LoadContext).configureWebpack!;
  const fromPlugin = configure({} as never, true, {} as never, undefined) as Configuration;
  const pluginRules = (fromPlugin.module?.rules ?? []) as RuleSetRule[];
  // Without the rule's conditions: how the packages' sources compiled for the server before.
  const rules = withRule
    ? pluginRules
    : pluginRules.map((rule) => ({
        ...rule,
        resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
      }));
  const config: Configuration = {
    mode: 'production',
    target: 'node',
    context: siteDir,
    entry,
    output: { path: outDir, library: { type: 'commonjs2' } },
    // Unconcatenated, so each module is listed by its own name.
    optimization: { minimize: false, concatenateModules: false },
    resolve: {
      ...fromPlugin.resolve,
      extensions: ['.ts', '.js', '.json'],
      // The entry lives in a temporary folder; the packages are the site's workspaces.
      modules: [path.join(siteDir, 'node_modules'), 'node_modules'],
    },
    module: {
      rules: [
        {
          test: /\.ts$/,
          loader: 'builtin:swc-loader',
          options: { jsc: { parser: { syntax: 'typescript' } } },
          type: 'javascript/auto',
        },
        ...rules,
      ],
    },
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Rspack did not finish in 90 s')), 90_000);
    rspack(config, (error, stats) => {
      clearTimeout(timer);
      if (error || !stats) {
        reject(error ?? new Error('Rspack gave no stats'));
        return;
      }
      const json = stats.toJson({ all: false, warnings: true, errors: true, modules: true });
      resolve({
        warnings: (json.warnings ?? []).map((warning) => warning.message),
        errors: (json.errors ?? []).map((problem) => problem.message),
        modules: (json.modules ?? []).map((module) => module.name ?? ''),
      });
    });
  });
}

describe('the express warning of the server bundle', () => {
  let dir: string;
  let entry: string;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'weft-server-bundle-'));
    entry = path.join(dir, 'entry.ts');
    // The Run panels reach the core the same way: a dynamic import, through `@weft/core`.
    await writeFile(entry, "export const load = () => import('@weft/core');\n");
  });

  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('has no cause: the core compiles for the server with its browser platform, without express', async () => {
    const compiled = await compileForServer(entry, path.join(dir, 'with-rule'), true);
    expect(compiled.errors).toEqual([]);
    expect(compiled.warnings).toEqual([]);
    expect(compiled.modules.some((name) => name.includes('platform/browser.ts'))).toBe(true);
    expect(compiled.modules.filter((name) => /node_modules\/(express|cors)\//.test(name))).toEqual(
      [],
    );
  }, 120_000);

  it("came from express, pulled in by the core's Node platform (what the rule prevents)", async () => {
    const compiled = await compileForServer(entry, path.join(dir, 'without-rule'), false);
    expect(compiled.modules.some((name) => name.includes('platform/node.ts'))).toBe(true);
    expect(compiled.warnings.join('\n')).toMatch(
      /Critical dependency: the request of a dependency is an expression/,
    );
  }, 120_000);
});
