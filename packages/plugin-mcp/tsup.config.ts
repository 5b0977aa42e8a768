import { packageBuild } from '../tsup.base';

// The plugin runs inside the user's runtime: share its core, zod and the MCP SDK rather than
// bundling copies.
export default packageBuild({ external: ['@weft/core', 'zod', '@modelcontextprotocol/sdk'] });
