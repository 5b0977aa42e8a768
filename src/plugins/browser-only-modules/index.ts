/**
 * Local Docusaurus plugin: in the server-side render's bundle, each module that only the browser
 * ever loads is replaced by a stand-in that throws, so Rspack does not compile it a second time
 * for a render that never runs it.
 *
 * Rspack compiles every dynamic import for the server too, and the server bundle does not share
 * chunks: each Run panel example's chunk group (the core, zod, Liquid, and for the editors
 * CodeMirror and Sucrase) was written again per example, about 18 MB of the server bundle's
 * 25 MB. The server render shows a panel's button and never loads an example: `load()` runs
 * in an effect or on a press (src/components/RunPanel). The browser's bundle is unchanged.
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';

/** A module the browser alone loads, by the request its one importer writes. */
export interface BrowserOnlyModule {
  /** Matches the request as the importing file writes it. */
  readonly request: RegExp;
  /** The file that imports it, from the site's folder. */
  readonly importer: string;
  /** The stand-in the server bundle gets, from the site's folder. */
  readonly standIn: string;
}

export const BROWSER_ONLY_MODULES: readonly BrowserOnlyModule[] = [
  {
    request: /^\.\/examples\/[^/]+\/load$/,
    importer: 'src/components/RunPanel/registry.ts',
    standIn: 'src/components/RunPanel/load-in-browser-only.ts',
  },
];

export default function pluginBrowserOnlyModules(context: LoadContext): Plugin {
  return {
    name: 'weft-browser-only-modules',
    configureWebpack(_config, isServer, { currentBundler }) {
      if (!isServer) return {};
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      return {
        plugins: BROWSER_ONLY_MODULES.map(
          ({ request, standIn }) =>
            new NormalModuleReplacementPlugin(request, path.join(context.siteDir, standIn)),
        ),
      };
    },
  };
}
