import { packageBuild } from '../tsup.base';

// The library entry, the ranking on its own (the site's search worker imports it, without the
// server) and the command: the server runs from dist/cli.js, shipped with a shebang.
// The shims give the CommonJS build an `import.meta.url`, by which the bundle file is found.
export default packageBuild({
  entry: ['src/index.ts', 'src/search.ts', 'src/cli.ts'],
  external: ['@weft/core', '@modelcontextprotocol/sdk', 'minisearch', 'zod'],
  shims: true,
});
