import { packageBuild } from '../tsup.base';

export default packageBuild({
  entry: ['src/index.ts', 'src/cli.ts'],
  // The templates are found from import.meta.url, which the CommonJS build needs shimmed.
  shims: true,
});
