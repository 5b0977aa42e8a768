import { packageBuild } from '../tsup.base';

// The native binding is resolved from the user's node_modules at run time, never bundled.
export default packageBuild({ external: ['better-sqlite3', '@weft/core'] });
