/**
 * The tslib helpers the client bundle uses, standing in for the whole of tslib (about 3.6 KB
 * gzipped on every page, for one helper that @docusaurus/utils-common calls). The bundle-stats
 * plugin records which helpers client modules call, and tests/build/javascript-budget.test.ts
 * fails when one of them is missing here: add it (same behaviour as tslib's) when that happens.
 */

interface EsModule {
  __esModule?: boolean;
}

export function __importDefault<T>(module: T): T | { default: T } {
  return module && (module as EsModule).__esModule ? module : { default: module };
}
