/**
 * Marks the chunks a Run panel's press loads with V8's explicit compile hint
 * (`//# allFunctionsCalledOnLoad` on the file's first line): Chromium then compiles every function
 * of the file while it streams it in, on a background thread, instead of compiling each one on
 * the main thread the first time it is called. A run calls most of what those chunks hold (the
 * core, zod's parsers, liquid, the panel), and lazy compilation was most of the first run's
 * time after the chunk loaded (see bench/run-panel.ts). Browsers without the hint read
 * a comment.
 *
 * Only chunks loaded on demand that hold the core or what only the panels use are marked, and
 * never one holding the panel's shell (it is part of a page's first load), so no page's
 * first-load bytes change. The comment is added after minification (which would drop it) and
 * before the content hashes are computed, so file names still match their contents.
 */
import type { Compiler } from 'webpack';

/** The comment V8 reads as "compile every function of this file eagerly". */
export const COMPILE_HINT = '//# allFunctionsCalledOnLoad\n';

/** Modules that only a Run panel's press loads: a chunk holding one of them is marked. */
const PANEL_ONLY = [
  /[\\/]packages[\\/]core[\\/]/,
  /[\\/]src[\\/]components[\\/]RunPanel[\\/](?!(index\.tsx|registry\.ts)$)/,
  /[\\/]node_modules[\\/](zod|liquidjs)[\\/]/,
];

/** The shell and its registry: in a page's first load, so a chunk holding them is never marked. */
const SHELL = /[\\/]src[\\/]components[\\/]RunPanel[\\/](index\.tsx|registry\.ts)$/;

/**
 * Whether a chunk with these module files gets the hint.
 *
 * @param initial - Whether the chunk can be part of a page's first load.
 * @param resources - The files of the chunk's modules.
 */
export function wantsCompileHint(initial: boolean, resources: readonly string[]): boolean {
  if (initial || resources.some((resource) => SHELL.test(resource))) return false;
  return resources.some((resource) => PANEL_ONLY.some((pattern) => pattern.test(resource)));
}

/** What the plugin reads of a module: a file, or the modules scope hoisting joined into it. */
interface ModuleLike {
  resource?: string;
  rootModule?: ModuleLike;
  modules?: Iterable<ModuleLike>;
}

function collectResources(module: ModuleLike, into: string[]): void {
  if (module.resource) into.push(module.resource);
  if (module.rootModule) collectResources(module.rootModule, into);
  for (const inner of module.modules ?? []) collectResources(inner, into);
}

export class PanelCompileHintPlugin {
  apply(compiler: Compiler): void {
    const { Compilation, sources } = compiler.webpack;
    compiler.hooks.thisCompilation.tap('PanelCompileHintPlugin', (compilation) => {
      compilation.hooks.processAssets.tap(
        {
          name: 'PanelCompileHintPlugin',
          // After the minifier, before the real content hashes.
          stage: Compilation.PROCESS_ASSETS_STAGE_OPTIMIZE_SIZE + 1,
        },
        () => {
          for (const chunk of compilation.chunks) {
            const resources: string[] = [];
            for (const module of compilation.chunkGraph.getChunkModulesIterable(chunk)) {
              collectResources(module as ModuleLike, resources);
            }
            if (!wantsCompileHint(chunk.canBeInitial(), resources)) continue;
            for (const file of chunk.files) {
              if (!file.endsWith('.js')) continue;
              compilation.updateAsset(
                file,
                (source) => new sources.ConcatSource(COMPILE_HINT, source),
              );
            }
          }
        },
      );
    });
  }
}
