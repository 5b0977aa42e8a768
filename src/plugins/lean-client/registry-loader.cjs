// @ts-check
/**
 * Rspack loader for the browser's copy of the generated chunk registry (`.docusaurus/registry.js`).
 * Each entry is `[load, modulePath, weakModuleId]`; the module path is read only while rendering
 * on the server (react-loadable's `Capture` reports it to pick the page's chunks), yet every page
 * downloaded one path per route. The client copy keeps an empty string in its place. A loader,
 * not a TypeScript module, because Rspack loads loaders with Node's own `require`.
 */

/** `), "@site/docs/page.md", require.resolveWeak(`: the second element of an entry. */
const MODULE_PATH = /\), "(?:[^"\\]|\\.)*", require\.resolveWeak\(/g;

/**
 * @param {string} source
 * @returns {string}
 */
function stripRegistryModulePaths(source) {
  const entries = source.split('require.resolveWeak(').length - 1;
  let stripped = 0;
  const result = source.replace(MODULE_PATH, () => {
    stripped += 1;
    return '), "", require.resolveWeak(';
  });
  if (stripped !== entries) {
    throw new Error(
      `weft-lean-client: recognised ${stripped} of the ${entries} entries of .docusaurus/registry.js; ` +
        'Docusaurus changed how it writes the registry, so update registry-loader.cjs',
    );
  }
  return result;
}

module.exports = stripRegistryModulePaths;
