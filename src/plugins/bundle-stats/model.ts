/** What the bundle-stats plugin writes and `bench/bundle.ts` reads. */

/** File name under the site's generated-files folder (.docusaurus/). */
export const BUNDLE_STATS_FILE = 'bundle-stats.json';

export interface BundleModule {
  /** The bundler's module name, e.g. ./node_modules/react-dom/cjs/react-dom-client.production.js */
  name: string;
  /** Bytes before minification. */
  size: number;
  /** The module that first imported it: who pulled it into every page. */
  issuer: string;
}

export interface BundleStats {
  /** Output files of the entry chunks (runtime and main). */
  files: string[];
  /** Every module of the entry chunks, largest first. */
  modules: BundleModule[];
  /** tslib helpers called by dependencies anywhere in the client bundle. */
  tslibHelpers: string[];
}
