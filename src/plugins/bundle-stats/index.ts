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
import type { Compiler } from 'webpack';
import { BUNDLE_STATS_FILE, type BundleStats } from './model';

/**
 * The parts of Rspack's compilation the report reads: the chunk graph, not `stats.toJson`, which
 * serialises every module of every chunk (about 0.2 s on the build's critical path, between
 * bundling and the static render) for the few hundred modules of the entry chunks.
 */
interface GraphModule {
  readableIdentifier(): string;
  nameForCondition(): string | undefined;
  size(): number;
  /** A concatenated module's parts. */
  readonly modules?: readonly GraphModule[];
}

interface GraphChunk {
  canBeInitial(): boolean;
  readonly files: Iterable<string>;
}

interface ChunkGraphCompilation {
  readonly chunks: Iterable<GraphChunk>;
  readonly chunkGraph: { getChunkModules(chunk: GraphChunk): GraphModule[] };
  readonly moduleGraph: { getIssuer(module: GraphModule): GraphModule | null };
}

function isChunkGraphCompilation(value: unknown): value is ChunkGraphCompilation {
  const compilation = value as Partial<ChunkGraphCompilation> | null;
  return (
    typeof compilation?.chunkGraph?.getChunkModules === 'function' &&
    typeof compilation.moduleGraph?.getIssuer === 'function' &&
    compilation.chunks !== undefined
  );
}

/** Concatenated modules nest their parts; the report wants the parts. */
function leaves(modules: readonly GraphModule[]): GraphModule[] {
  return modules.flatMap((module) =>
    module.modules && module.modules.length > 0 ? leaves(module.modules) : [module],
  );
}

const TSLIB_HELPER_CALL = /\btslib(?:_\d+)?\.(__\w+)|import\s*\{([^}]*)\}\s*from\s*["']tslib["']/g;

/** The tslib helpers that dependencies in the client bundle call (see lean-client/tslib-helpers). */
function tslibHelpersCalled(modules: readonly GraphModule[]): string[] {
  const helpers = new Set<string>();
  for (const module of modules) {
    const file = module.nameForCondition();
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
                const compilation: unknown = stats.compilation;
                if (!isChunkGraphCompilation(compilation)) {
                  throw new Error(
                    'weft-bundle-stats: the bundler no longer offers chunkGraph.getChunkModules and moduleGraph.getIssuer; read the entry modules another way (src/plugins/bundle-stats/index.ts).',
                  );
                }
                const chunks = [...compilation.chunks];
                const entryChunks = chunks.filter((chunk) => chunk.canBeInitial());
                const modulesOf = (chunk: GraphChunk): GraphModule[] =>
                  leaves(compilation.chunkGraph.getChunkModules(chunk));
                const report: BundleStats = {
                  files: entryChunks.flatMap((chunk) => [...chunk.files]),
                  modules: entryChunks
                    .flatMap(modulesOf)
                    .map((module) => ({
                      name: module.readableIdentifier(),
                      size: module.size(),
                      issuer: compilation.moduleGraph.getIssuer(module)?.readableIdentifier() ?? '',
                    }))
                    .sort((a, b) => b.size - a.size),
                  tslibHelpers: tslibHelpersCalled(chunks.flatMap(modulesOf)),
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
