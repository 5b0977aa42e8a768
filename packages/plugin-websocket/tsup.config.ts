import { packageBuild } from '../tsup.base';

// The plugin runs inside the user's runtime: share its core, zod and ws rather than bundling
// copies.
export default packageBuild({ external: ['@weft/core', '@weft/plugin-chat', 'zod', 'ws'] });
