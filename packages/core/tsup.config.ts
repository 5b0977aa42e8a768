import { packageBuild } from '../tsup.base';

// `internal` holds helpers the first-party packages share with the core (not public API).
export default packageBuild({ entry: ['src/index.ts', 'src/internal.ts'] });
