import { packageBuild } from '../tsup.base';

export default [
  // `internal` holds helpers the first-party packages share with the core (not public API).
  packageBuild({ entry: ['src/index.ts', 'src/internal.ts', 'src/node.ts'] }),
  // The `browser` export: the same API, with `#platform` resolved to its browser module (no
  // HTTP server, files or signals). pino is bundled so that its console build, which its
  // `browser` field names, is the one shipped, whatever the page's bundler does with the field.
  packageBuild({
    entry: { browser: 'src/index.ts' },
    format: ['esm'],
    platform: 'browser',
    target: 'es2022',
    dts: false,
    clean: false,
    noExternal: ['pino'],
  }),
];
