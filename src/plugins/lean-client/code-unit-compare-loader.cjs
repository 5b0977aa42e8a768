// @ts-check
/**
 * Rspack loader for two Docusaurus modules that sort with `String.prototype.localeCompare`
 * while a page hydrates: the docs plugin's `getActivePlugin` (which docs instance a path belongs
 * to) and theme-common's `useShallowMemoObject` (a memo's dependency order). The first
 * `localeCompare` in a page sets up the browser's ICU collator, which took 60–100 ms on a
 * phone-speed CPU (Chromium, 4x slowdown) inside a single render: a long task on every docs and
 * API page. Neither sort needs language-aware order: the first needs a path to come before the
 * paths it starts with, the second any fixed order of property names, and comparing UTF-16
 * code units gives both. A loader, not a TypeScript module, because Rspack loads loaders with
 * Node's own `require`.
 */

/** `a.b[0].localeCompare(c[1].d)`: a property chain compared with another. */
const LOCALE_COMPARE = /([\w$.[\]]+)\.localeCompare\(([\w$.[\]]+)\)/g;

/**
 * @param {string} source
 * @returns {string}
 */
function compareCodeUnits(source) {
  const calls = source.split('.localeCompare(').length - 1;
  let replaced = 0;
  const result = source.replace(LOCALE_COMPARE, (_call, left, right) => {
    replaced += 1;
    return `(${left} < ${right} ? -1 : ${left} > ${right} ? 1 : 0)`;
  });
  if (calls === 0 || replaced !== calls) {
    throw new Error(
      `weft-lean-client: expected localeCompare calls between property chains, found ${replaced} ` +
        `of ${calls}; Docusaurus changed this module, so update code-unit-compare-loader.cjs`,
    );
  }
  return result;
}

module.exports = compareCodeUnits;
