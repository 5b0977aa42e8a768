/**
 * Lets the site's client bundle compile the Weft packages from their TypeScript sources, as the
 * Run panel of Getting started does (src/components/RunPanel/): the packages' `weft-source`
 * export condition (set for the whole site by the local-search plugin) points at their sources,
 * and their `browser` condition at the browser builds (core's `#platform`, testing's entry).
 *
 * The sources name their modules by their `.js` output (`./runtime/runtime.js`). The site-wide
 * `resolve.extensionAlias` the local-search plugin sets was seen not to apply to such requests in
 * package sources under rspack, when its worker was built; this rule, scoped to the packages'
 * source folders, sets the alias for every import those files make. With it the client build
 * compiles the core from source; tests/build/run-panel.test.ts checks the chunks it makes.
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';

export default function weftInBrowser(context: LoadContext): Plugin {
  const sources = path.join(context.siteDir, 'packages');
  return {
    name: 'weft-in-browser',
    configureWebpack() {
      return {
        module: {
          rules: [
            {
              test: /\.ts$/,
              include: sources,
              resolve: { extensionAlias: { '.js': ['.ts', '.js'] } },
            },
          ],
        },
      };
    },
  };
}
