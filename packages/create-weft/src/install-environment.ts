import type { PackageManager } from './package-manager.js';

/** The registry Yarn 1 falls back to when no `.yarnrc` names one. */
const YARN_DEFAULT_REGISTRY = /^https:\/\/registry\.yarnpkg\.com\/?$/;

/**
 * The environment the project's install runs in: create-weft's own, less what would send it to
 * another registry than the one the user configured.
 *
 * `yarn create` (Yarn 1) runs create-weft with every Yarn setting exported as `npm_config_*`,
 * and Yarn's own settings always hold a `registry`: `https://registry.yarnpkg.com` unless a
 * `.yarnrc` or `YARN_REGISTRY` names another. A registry set in `.npmrc`, which Yarn 1 reads
 * and `yarn create` itself used, is not among them; the `yarn install` started here would take
 * the variable over the file and ask the public registry instead (a company mirror, or a local
 * registry, is skipped). Without the variable, that install reads the user's configuration as
 * `yarn create` did. The variable is dropped only when it is Yarn's default, which is also what
 * the install falls back to.
 */
export function installEnvironment(
  manager: PackageManager,
  env: NodeJS.ProcessEnv,
): NodeJS.ProcessEnv {
  const registry = env.npm_config_registry;
  if (manager !== 'yarn' || registry === undefined || !YARN_DEFAULT_REGISTRY.test(registry)) {
    return env;
  }
  const rest = { ...env };
  delete rest.npm_config_registry;
  return rest;
}
