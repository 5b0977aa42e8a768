/**
 * Lets the site's client bundle compile the Weft packages from their TypeScript sources, as the
 * Run panel of Getting started does (src/components/RunPanel/): the packages' `weft-source`
 * export condition (set for the whole site by the local-search plugin) points at their sources,
 * and their `browser` condition at the browser builds (core's `#platform`, testing's entry).
 *
 * The sources name their modules by their `.js` output (`./runtime/runtime.js`). A site-wide
 * `resolve.extensionAlias` did not reach requests made from those sources, so the rule is
 * scoped to the packages' source folders, where it applies to every import they make. Checked in
 * the built chunk: it holds core's browser platform and no express (tests/build/run-panel.test.ts).
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
