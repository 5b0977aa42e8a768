/**
 * Local Docusaurus plugin: after each client build, writes the modules of the entry bundle
 * (the JavaScript every page loads before anything else) with their sizes to
 * `.docusaurus/bundle-stats.json`, so `npm run report:bundle` can show where the bytes go.
 * Module sizes are the bundler's, before minification; the per-page figures the report
 * prints next to them are the shipped, gzipped files.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { BUNDLE_STATS_FILE, type BundleStats, type BundleModule } from './model';

/** The parts of the bundler's stats JSON read here (Rspack and webpack agree on them). */
interface StatsModule {
  name?: string;
  identifier?: string;
  issuerName?: string;
  size?: number;
  modules?: StatsModule[];
}
interface StatsChunk {
  names?: string[];
  initial?: boolean;
  files?: string[];
  modules?: StatsModule[];
}
interface StatsJson {
  chunks?: StatsChunk[];
}
interface DoneStats {
  toJson(options: Record<string, boolean | number>): StatsJson;
}
interface DoneCompiler {
  hooks: { done: { tap(name: string, callback: (stats: DoneStats) => void): void } };
}

/** Concatenated modules nest their parts; the report wants the parts. */
function flatten(modules: StatsModule[] | undefined): BundleModule[] {
  return (modules ?? []).flatMap((module) =>
    module.modules && module.modules.length > 0
      ? flatten(module.modules)
      : [
          {
            name: module.name ?? module.identifier ?? '(unnamed)',
            size: module.size ?? 0,
            issuer: module.issuerName ?? '',
          },
        ],
  );
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
            apply(compiler: DoneCompiler) {
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
                const entryChunks = (json.chunks ?? []).filter((chunk) => chunk.initial);
                const report: BundleStats = {
                  files: entryChunks.flatMap((chunk) => chunk.files ?? []),
                  modules: entryChunks
                    .flatMap((chunk) => flatten(chunk.modules))
                    .sort((a, b) => b.size - a.size),
                };
                mkdirSync(path.dirname(outFile), { recursive: true });
                writeFileSync(outFile, JSON.stringify(report));
                writeFileSync(outFile + '.raw', JSON.stringify(json.chunks?.filter((c) => c.initial)).slice(0, 20000));
              });
            },
          },
        ],
      };
    },
  };
}
