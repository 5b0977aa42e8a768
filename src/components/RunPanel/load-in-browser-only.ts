/**
 * What the server-side render's bundle holds in place of each example's `load.ts`
 * (src/plugins/browser-only-modules): the server renders a panel without running its example, so
 * nothing there loads one. Should something start to, its render fails with this message instead
 * of rendering a panel with no example.
 */
throw new Error(
  'A Run panel example was loaded during the server-side render: examples load in the browser only (src/plugins/browser-only-modules).',
);
