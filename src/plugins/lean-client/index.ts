/**
 * Local Docusaurus plugin: keeps code that only some pages need out of the entry bundle every
 * first visit downloads (see "Size and speed" in docs/contributing-guide.md).
 *
 * - The theme registers Prism's extra languages from a client module, which puts Prism, its
 *   16 bundled languages and 20 colour themes into every page. That module is replaced by an
 *   empty one; src/theme/CodeBlock registers the languages instead, so Prism loads with the
 *   first code block.
 * - The search plugin imports mark.js eagerly to highlight searched terms on the page a result
 *   opens. It is replaced by a stand-in that loads mark.js only when there is something to mark.
 * - tslib, pulled in whole for one helper, is replaced in the client by the helpers it needs.
 */
import path from 'node:path';
import type { Plugin } from '@docusaurus/types';

/** theme-classic's client module `lib/prism-include-languages` (not the swizzlable theme file). */
const THEME_PRISM_CLIENT_MODULE =
  /@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/;
/** mark.js's package entry, which the search plugin's generated module imports. */
const MARK_JS_ENTRY = /[\\/]mark\.js[\\/]dist[\\/]mark\.js$/;

export default function pluginLeanClient(): Plugin {
  return {
    name: 'weft-lean-client',
    configureWebpack(_config, isServer, { currentBundler }) {
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      return {
        resolve: isServer ? {} : { alias: { tslib$: path.join(__dirname, 'tslib-helpers.ts') } },
        plugins: [
          new NormalModuleReplacementPlugin(
            THEME_PRISM_CLIENT_MODULE,
            path.join(__dirname, 'empty-client-module.ts'),
          ),
          new NormalModuleReplacementPlugin(MARK_JS_ENTRY, path.join(__dirname, 'lazy-mark.ts')),
        ],
      };
    },
  };
}
