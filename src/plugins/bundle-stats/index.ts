/**
 * Local Docusaurus plugin: after each client build, writes the modules of the entry bundle
 * (the JavaScript every page loads before anything else) with their sizes to
 * `.docusaurus/bundle-stats.json`, so `npm run bench -- bundle` can show where the bytes go.
 * Module sizes are the bundler's, before minification; the per-page figures the report
 * prints next to them are the shipped, gzipped files.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
// Types only: Rspack's compiler and stats follow webpack's API.
import type { Compiler, StatsModule } from 'webpack';
import { BUNDLE_STATS_FILE, type BundleStats, type BundleModule } from './model';

/** Concatenated modules nest their parts; the report wants the parts. */
function leaves(modules: StatsModule[] | undefined): StatsModule[] {
  return (modules ?? []).flatMap((module) =>
    module.modules && module.modules.length > 0 ? leaves(module.modules) : [module],
  );
}

function toBundleModule(module: StatsModule): BundleModule {
  return {
    name: module.name ?? module.identifier ?? '(unnamed)',
    size: module.size ?? 0,
    issuer: module.issuerName ?? '',
  };
}

const TSLIB_HELPER_CALL = /\btslib(?:_\d+)?\.(__\w+)|import\s*\{([^}]*)\}\s*from\s*["']tslib["']/g;

/** The tslib helpers that dependencies in the client bundle call (see lean-client/tslib-helpers). */
function tslibHelpersCalled(modules: StatsModule[]): string[] {
  const helpers = new Set<string>();
  for (const module of modules) {
    const file = module.nameForCondition;
    if (!file || !/node_modules.*\.[cm]?js$/.test(file) || /[\\/]tslib[\\/]/.test(file)) {
      continue;
    }
    const source = readFileSync(file, 'utf8');
    if (!source.includes('tslib')) {
      continue;
    }
    for (const match of source.matchAll(TSLIB_HELPER_CALL)) {
      const names = match[1] ? [match[1]] : (match[2] ?? '').split(',');
      for (const name of names) {
        helpers.add(name.trim().split(/\s+as\s+/)[0] ?? name.trim());
      }
    }
  }
  return [...helpers].filter(Boolean).sort();
}

export default function pluginBundleStats(context: LoadContext): Plugin {
  const outFile = path.join(context.generatedFilesDir, BUNDLE_STATS_FILE);
  return {
    name: 'weft-bundle-stats',
    configureWebpack(_config, isServer) {
      if (isServer) {
        return {};
      }
      return {
        plugins: [
          {
            apply(compiler: Compiler) {
              compiler.hooks.done.tap('weft-bundle-stats', (stats) => {
                const json = stats.toJson({
                  all: false,
                  chunks: true,
                  chunkModules: true,
                  nestedModules: true,
                  dependentModules: true,
                  orphanModules: true,
                  chunkModulesSpace: Number.MAX_SAFE_INTEGER,
                  nestedModulesSpace: Number.MAX_SAFE_INTEGER,
                });
                const chunks = json.chunks ?? [];
                const entryChunks = chunks.filter((chunk) => chunk.initial);
                const report: BundleStats = {
                  files: entryChunks.flatMap((chunk) => chunk.files ?? []),
                  modules: entryChunks
                    .flatMap((chunk) => leaves(chunk.modules))
                    .map(toBundleModule)
                    .sort((a, b) => b.size - a.size),
                  tslibHelpers: tslibHelpersCalled(
                    chunks.flatMap((chunk) => leaves(chunk.modules)),
                  ),
                };
                mkdirSync(path.dirname(outFile), { recursive: true });
                writeFileSync(outFile, JSON.stringify(report));
              });
            },
          },
        ],
      };
    },
  };
}
