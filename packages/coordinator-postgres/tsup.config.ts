import { packageBuild } from '../tsup.base';

// node-postgres is resolved from the user's node_modules at run time, never bundled.
export default packageBuild({ external: ['pg', '@weft/core'] });
