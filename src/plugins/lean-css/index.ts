/**
 * Local Docusaurus plugin: the production stylesheet keeps only the Infima rules that something
 * on the site can use (see "Size and speed" in docs/contributing-guide.md).
 *
 * Infima, the theme's CSS framework, ships every component it has (pills, avatars, hero,
 * pagination, button groups…) in one file, and the theme loads all of it on every page. PurgeCSS
 * drops the rules whose class names appear in none of the files that can put a class on the
 * page: the theme's and the plugins' client code, the site's components and pages, the docs
 * and the generated API reference. Docusaurus's theme writes Infima classes as whole literals
 * ('alert alert--info'), which is what PurgeCSS looks for; a class assembled at run time from
 * pieces would not be found, and tests/build/stylesheet.test.ts fails if a page uses an Infima
 * class the stylesheet lost.
 *
 * Rules on HTML elements are all kept. Only Infima's file is purged: the CSS modules and src/css/custom.css are the site's own and
 * are kept whole. `npm start` keeps all of Infima, so a class added while writing is never
 * missing there.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import purgeCss from '@fullhuman/postcss-purgecss';
import htmlTags from 'html-tags';
import type { Plugin } from '@docusaurus/types';
import type { AcceptedPlugin, Helpers, Root } from 'postcss';

/** Infima's stylesheet, as theme-classic imports it. */
const INFIMA_STYLESHEET = /[\\/]infima[\\/]dist[\\/]css[\\/]/;

/** Files that can set a class on a page, relative to the site folder. */
export const CLASS_SOURCES = [
  'src/**/*.{ts,tsx,js,jsx,md,mdx}',
  'docs/**/*.{md,mdx}',
  'api/**/*.{md,mdx,js,cjs,json}',
  'node_modules/@docusaurus/core/lib/client/**/*.js',
  'node_modules/@docusaurus/theme-classic/lib/**/*.js',
  'node_modules/@docusaurus/theme-common/lib/**/*.js',
  'node_modules/@docusaurus/plugin-content-docs/lib/client/**/*.js',
  'node_modules/@docusaurus/plugin-pwa/lib/theme/**/*.js',
  'node_modules/@easyops-cn/docusaurus-search-local/dist/client/**/*.{js,jsx}',
] as const;

/** A PostCSS plugin running PurgeCSS on Infima's stylesheet and passing every other file by. */
export function purgeInfima(siteDir: string): AcceptedPlugin {
  const purge = purgeCss({
    content: [
      ...CLASS_SOURCES.map((pattern) => path.join(siteDir, pattern)),
      // Every HTML element, so rules on elements (tables, blockquotes, <kbd>…) all stay: Markdown
      // makes elements that no source file names. Only class rules are purged.
      { raw: htmlTags.map((tag) => `<${tag}>`).join(''), extension: 'html' },
    ],
    // Selectors on the <html> element's theme attribute: Docusaurus sets it from a script.
    safelist: { greedy: [/data-theme/] },
  });
  const purgeOnceExit = (purge as { OnceExit?: (root: Root, helpers: Helpers) => unknown })
    .OnceExit;
  if (!purgeOnceExit) {
    throw new Error('lean-css: @fullhuman/postcss-purgecss no longer has a OnceExit hook.');
  }
  return {
    postcssPlugin: 'weft-purge-infima',
    async OnceExit(root, helpers) {
      const file = root.source?.input.file ?? '';
      if (!INFIMA_STYLESHEET.test(file)) {
        return;
      }
      await purgeOnceExit(root, helpers);
      // The purged file depends on the class sources: postcss-loader hands these to the bundler,
      // so a cached build redoes the purge when a page or component changes.
      for (const pattern of CLASS_SOURCES) {
        const [dir = '', ...glob] = pattern.split('/**/');
        helpers.result.messages.push({
          type: 'dir-dependency',
          plugin: 'weft-purge-infima',
          parent: file,
          dir: path.join(siteDir, dir),
          glob: `**/${glob.join('/**/')}`,
        });
      }
    },
  };
}

type PostCssPluginEntry = AcceptedPlugin | [string, unknown];

const createdPlugins = new Map<string, AcceptedPlugin>();

/**
 * The PostCSS plugins a `[module path, options]` entry names, created once per process.
 * postcss-loader hands such an entry to PostCSS as the plugin's creator, and PostCSS calls the
 * creator again for every stylesheet: for Docusaurus's postcss-preset-env, a walk of its feature
 * list against the browser targets each time, about a third of the stylesheets' processing time
 * on the build's main thread. A created plugin is reused across stylesheets as PostCSS allows;
 * the same options give the same output.
 */
export function createdOnce(plugins: readonly PostCssPluginEntry[]): PostCssPluginEntry[] {
  return plugins.map((entry) => {
    if (!Array.isArray(entry) || typeof entry[0] !== 'string') return entry;
    const [modulePath, options] = entry;
    const key = `${modulePath}\0${JSON.stringify(options ?? {})}`;
    let plugin = createdPlugins.get(key);
    if (plugin === undefined) {
      // postcss-loader resolves the entry's path; the path itself anchors the require.
      const loaded = createRequire(modulePath)(modulePath) as { default?: unknown };
      const creator = (loaded.default ?? loaded) as (options?: unknown) => AcceptedPlugin;
      plugin = creator(options);
      createdPlugins.set(key, plugin);
    }
    return plugin;
  });
}

export default function pluginLeanCss(context: { siteDir: string }): Plugin {
  return {
    name: 'weft-lean-css',
    configurePostCss(options) {
      // PostCSS's plugins are all given here, so no stylesheet needs postcss-loader to look for
      // a config file: left on, it searches every folder above each stylesheet for 28 names.
      (options as typeof options & { config?: boolean }).config = false;
      options.plugins = createdOnce(
        options.plugins as PostCssPluginEntry[],
      ) as typeof options.plugins;
      if (process.env.NODE_ENV === 'production') {
        options.plugins.push(purgeInfima(context.siteDir));
      }
      return options;
    },
  };
}
