// @ts-check
/**
 * Rspack loader for the browser's copy of the generated site config
 * (`.docusaurus/docusaurus.config.mjs`). Docusaurus serialises the whole config into the entry
 * bundle, so every page downloaded the options of every plugin, preset and theme, the Markdown
 * settings and the head tags: about 1.3 KB gzipped that no client code reads (the build and the
 * server-side render read them, and the server bundle keeps the full config). A loader, not a
 * TypeScript module, because Rspack loads loaders with Node's own `require`.
 */

/** Top-level keys only the build reads; checked against the theme's client code in tests. */
const SERVER_ONLY_KEYS = [
  'presets',
  'themes',
  'plugins',
  'markdown',
  'headTags',
  'scripts',
  'stylesheets',
  'clientModules',
  'staticDirectories',
  'onBrokenLinks',
  'onBrokenAnchors',
  'onBrokenMarkdownLinks',
  'onDuplicateRoutes',
  'ssrTemplate',
  'webpack',
];

const EXPORT = 'export default ';

/**
 * @param {string} source the generated module: a comment, then `export default {JSON};`
 * @returns {string}
 */
function trimClientSiteConfig(source) {
  const start = source.indexOf(EXPORT);
  if (start === -1) {
    throw new Error(
      'weft-lean-client: .docusaurus/docusaurus.config.mjs has no "export default"; ' +
        'Docusaurus changed how it writes the site config, so update client-site-config-loader.cjs',
    );
  }
  const json = source
    .slice(start + EXPORT.length)
    .trim()
    .replace(/;$/, '');
  /** @type {Record<string, unknown>} */
  const config = JSON.parse(json);
  for (const key of SERVER_ONLY_KEYS) delete config[key];
  return `export default ${JSON.stringify(config)};\n`;
}

module.exports = trimClientSiteConfig;
module.exports.SERVER_ONLY_KEYS = SERVER_ONLY_KEYS;
