import { packageBuild } from '../tsup.base';

// node-postgres is resolved from the user's node_modules, so the application and the provider
// share one copy (and one set of type parsers).
export default packageBuild({ external: ['pg', '@weft/core'] });
