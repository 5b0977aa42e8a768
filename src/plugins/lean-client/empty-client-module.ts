/**
 * Stands in for theme-classic's `prism-include-languages` client module, so Prism stays out of
 * the entry bundle; src/theme/CodeBlock/prism-languages.ts does its work where code is shown.
 */
export {};
