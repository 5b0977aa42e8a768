import { packageBuild } from '../tsup.base';

export default [
  packageBuild(),
  // The `browser` export: the scripted model and in-memory memory, without the Node-only contract.
  packageBuild({
    entry: { browser: 'src/browser.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    // Its own declarations, so a page's type checker does not offer the Node-only names.
    dts: true,
    clean: false,
  }),
];
