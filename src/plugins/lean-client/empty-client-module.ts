/**
 * Stands in for theme-classic's `prism-include-languages` client module, so Prism stays out of
 * the entry bundle; src/theme/CodeBlock/Content/prism-languages.ts does its work when code is highlighted in the browser.
 */
export {};
