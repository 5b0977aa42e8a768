/**
 * Lets the site's client bundle compile the Weft packages from their TypeScript sources, as the
 * Run panels (src/components/RunPanel/) and the search worker
 * (../local-search/ranking-worker.ts) do, so the site builds before the packages: the packages'
 * `weft-source` export condition points at their sources, and their `browser` condition at the
 * browser builds (core's `#platform`, testing's entry).
 *
 * The sources name their modules by their `.js` output (`./runtime/runtime.js`), and so do the
 * examples the Run panels run. A site-wide `resolve.extensionAlias` was seen not to apply to such
 * requests in package sources under rspack; this rule, scoped to the packages' and the examples'
 * folders, sets the alias for every import those files make. With it the client build
 * compiles the core from source; tests/build/run-panel.test.ts checks the chunks it makes. The
 * same rule gives the server bundle the packages' `browser` builds (see below).
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
// Types only: Rspack's modules follow webpack's API.
import type { Module } from 'webpack';
import { PanelCompileHintPlugin } from './compile-hints';

export default function weftInBrowser(context: LoadContext): Plugin {
  // The Run panels also compile examples (examples/tutorial-chat imports './history.js').
  const packagesDir = path.join(context.siteDir, 'packages');
  const sources = [packagesDir, path.join(context.siteDir, 'examples')];
  return {
    name: 'weft-in-browser',
    configureWebpack(_config, isServer) {
      return {
        // The server bundle renders pages at build time; only the browser reads the hint.
        plugins: isServer ? [] : [new PanelCompileHintPlugin()],
        resolve: { conditionNames: ['weft-source', '...'] },
        // Every Run panel example runs the core, and Docusaurus splits out only node_modules and
        // what half the pages share, so each example's chunk held its own copy of the core: five
        // copies for the bundler to minify, and a reader who runs two examples downloaded it twice.
        // Package modules that two or more examples load go to chunks of their own instead.
        optimization: isServer
          ? {}
          : {
              splitChunks: {
                cacheGroups: {
                  weftPackages: {
                    test: (module: Module) =>
                      module.nameForCondition()?.startsWith(packagesDir + path.sep) ?? false,
                    chunks: 'async',
                    minChunks: 2,
                    reuseExistingChunk: true,
                  },
                },
              },
            },
        module: {
          rules: [
            // `!!@site/<file>?raw` is the file's text: the home page's snippet and the Run panels'
            // editors show tested files as they are. `!!` keeps the other rules' loaders off it,
            // and Rspack makes the module itself, with no loader to start and check options for.
            { resourceQuery: /^\?raw$/, type: 'asset/source' },
            {
              test: /\.ts$/,
              include: sources,
              resolve: {
                extensionAlias: { '.js': ['.ts', '.js'] },
                // The server bundle holds the packages only inside the Run panels' chunks, which
                // a browser loads when Run is pressed and the build's rendering never runs. It
                // takes their browser builds too, as the page does: with Node's defaults it
                // compiled the core's Node platform, the HTTP server and express with it (whose
                // view engine loader made the build warn about an expression in `require`).
                conditionNames: ['weft-source', 'browser', '...'],
              },
            },
          ],
        },
      };
    },
  };
}
