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
 * - react-helmet-async is replaced in the client by head.tsx, which applies the same head
 *   rules in a fraction of the size; the server render keeps the library.
 * - The router's dependencies that run nothing when loaded are marked so, and the unused ones
 *   (withRouter's helpers) leave the bundle.
 * - The PWA plugin's service-worker registration loads after the page has (lazy-register-sw.ts),
 *   and so does nprogress, which the progress bar needs from the first navigation on
 *   (lazy-nprogress.ts).
 * - The browser's copies of two generated modules lose what only the build and the server-side
 *   render read: the site config's plugin, preset and Markdown options, and the chunk registry's
 *   module paths (client-site-config-loader.cjs, registry-loader.cjs).
 * - Two sorts that run while a page hydrates compare code units instead of calling localeCompare,
 *   whose first call sets up the browser's collator in a long task (code-unit-compare-loader.cjs).
 * - The window-size hook gives its first answer after hydration as a transition (window-size.ts):
 *   on a phone that answer mounts the mobile menu, which React otherwise renders in one task.
 * - Chunk files are named by id, so the webpack runtime holds one map (id → hash), not two.
 * - A client module (hydration.ts) tells code blocks whether they hydrate the first page, so
 *   they keep the server's highlighted HTML, and Prism loads only for code the browser has to
 *   highlight itself (src/theme/CodeBlock/Content); the server bundle highlights directly.
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';

/** theme-classic's client module `lib/prism-include-languages` (not the swizzlable theme file). */
export const THEME_PRISM_CLIENT_MODULE =
  /@docusaurus[\\/]theme-classic[\\/]lib[\\/]prism-include-languages(\.js)?$/;
/** mark.js's package entry, which the search plugin's generated module imports. */
export const MARK_JS_ENTRY = /[\\/]mark\.js[\\/]dist[\\/]mark\.js$/;
/**
 * theme-classic's progress-bar client module imports `nprogress`; matched as that request (before
 * resolution) so the stand-in goes through the TypeScript loader, and lazy-nprogress.ts can
 * import the real file by its path.
 */
export const NPROGRESS_REQUEST = /^nprogress$/;
/**
 * The code block's lazy highlighter, which the server bundle takes whole (see the module);
 * matched as the request src/theme/CodeBlock/Content makes, before resolution.
 */
const LAZY_HIGHLIGHTER = /^\.\/lazy-highlighted-lines$/;
/** Packages the router imports that run nothing when loaded (see the rule below). */
export const SIDE_EFFECT_FREE_PACKAGES =
  /[\\/]node_modules[\\/](hoist-non-react-statics|react-is|prop-types)[\\/]/;
/** The Docusaurus modules that sort with localeCompare while a page hydrates. */
export const LOCALE_COMPARE_MODULES =
  /@docusaurus[\\/](plugin-content-docs[\\/]lib[\\/]client[\\/]docsClientUtils|theme-common[\\/]lib[\\/]utils[\\/]reactUtils)\.js$/;
/** theme-common's window-size hook (see window-size.ts). */
export const WINDOW_SIZE_HOOK =
  /@docusaurus[\\/]theme-common[\\/]lib[\\/]hooks[\\/]useWindowSize\.js$/;
/** The PWA plugin's client module; `$` lets lazy-register-sw.ts import it with a query string. */
export const PWA_REGISTER_SW = /@docusaurus[\\/]plugin-pwa[\\/]lib[\\/]registerSw\.js$/;

export default function pluginLeanClient(context: LoadContext): Plugin {
  const generated = (file: string) => path.join(context.generatedFilesDir, file);
  return {
    name: 'weft-lean-client',
    getClientModules: () => [path.join(__dirname, 'hydration.ts')],
    configureWebpack(config, isServer, { currentBundler }) {
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      const bothBundles = [
        new NormalModuleReplacementPlugin(
          THEME_PRISM_CLIENT_MODULE,
          path.join(__dirname, 'empty-client-module.ts'),
        ),
        new NormalModuleReplacementPlugin(MARK_JS_ENTRY, path.join(__dirname, 'lazy-mark.ts')),
      ];
      if (isServer) {
        // The server-side render reads the full config and registry, registers no worker, and
        // highlights code without waiting for a chunk.
        return {
          plugins: [
            ...bothBundles,
            new NormalModuleReplacementPlugin(
              LAZY_HIGHLIGHTER,
              path.join(context.siteDir, 'src/theme/CodeBlock/Content/HighlightedLines.tsx'),
            ),
          ],
        };
      }
      const production = config.mode === 'production';
      return {
        // The entry stays Docusaurus's own: it creates the React root as soon as the page's
        // chunks have loaded, before the `load` event, so React handles (or replays) whatever
        // the reader does from then on. An entry that hydrated later in steps lost early taps.
        // Chunk files named by id, not by name: the runtime every page loads then maps chunk ids
        // to content hashes only, instead of also to the route registry's chunk names.
        output: production ? { chunkFilename: 'assets/js/[id].[contenthash:8].js' } : {},
        resolve: {
          alias: {
            tslib$: path.join(__dirname, 'tslib-helpers.ts'),
            // The server render keeps the library; the browser only applies head changes.
            'react-helmet-async$': path.join(__dirname, 'head.tsx'),
          },
        },
        module: {
          rules: [
            {
              // Imported at the top of react-router(-dom) for withRouter and prop-type checks.
              // As CommonJS they were kept for possible side effects, which they do not have;
              // marked free of them, what nothing calls leaves the bundle (prop-types stays,
              // react-router-dom uses it).
              test: SIDE_EFFECT_FREE_PACKAGES,
              sideEffects: false,
            },
            {
              test: generated('docusaurus.config.mjs'),
              enforce: 'pre',
              loader: path.join(__dirname, 'client-site-config-loader.cjs'),
            },
            {
              test: LOCALE_COMPARE_MODULES,
              enforce: 'pre',
              loader: path.join(__dirname, 'code-unit-compare-loader.cjs'),
            },
            {
              test: generated('registry.js'),
              enforce: 'pre',
              loader: path.join(__dirname, 'registry-loader.cjs'),
            },
          ],
        },
        plugins: [
          ...bothBundles,
          new NormalModuleReplacementPlugin(
            PWA_REGISTER_SW,
            path.join(__dirname, 'lazy-register-sw.ts'),
          ),
          new NormalModuleReplacementPlugin(
            NPROGRESS_REQUEST,
            path.join(__dirname, 'lazy-nprogress.ts'),
          ),
          new NormalModuleReplacementPlugin(
            WINDOW_SIZE_HOOK,
            path.join(__dirname, 'window-size.ts'),
          ),
        ],
      };
    },
  };
}
