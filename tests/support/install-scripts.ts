/**
 * npm 12 runs a dependency's install script only when the project's `allowScripts` allows it
 * (npm 11 warns about each one it does not name). These helpers read a package-lock.json and
 * say which packages with install scripts have no decision, and which decisions name nothing
 * that has one, so a new dependency with a script cannot arrive unnoticed.
 */
import { readFileSync } from 'node:fs';

interface Lockfile {
  packages?: Record<string, { version?: string; hasInstallScript?: boolean; link?: boolean }>;
}

/** The names of the packages in a lockfile that have install scripts, sorted, each once. */
export function packagesWithInstallScripts(lockfilePath: string): string[] {
  const lock = JSON.parse(readFileSync(lockfilePath, 'utf8')) as Lockfile;
  const names = new Set<string>();
  for (const [location, entry] of Object.entries(lock.packages ?? {})) {
    if (entry.hasInstallScript && !entry.link && location.includes('node_modules/')) {
      names.add(location.slice(location.lastIndexOf('node_modules/') + 'node_modules/'.length));
    }
  }
  return [...names].sort();
}

/** The name a key of `allowScripts` decides for: `name` or `name@version`. */
function decidedName(key: string): string {
  const at = key.indexOf('@', 1);
  return at === -1 ? key : key.slice(0, at);
}

export interface InstallScriptReview {
  /** Packages with install scripts that `allowScripts` neither allows nor denies. */
  undecided: string[];
  /** Keys of `allowScripts` that name no package with an install script. */
  stale: string[];
}

export function reviewInstallScripts(
  lockfilePath: string,
  allowScripts: Record<string, unknown> | undefined,
): InstallScriptReview {
  const withScripts = packagesWithInstallScripts(lockfilePath);
  const decided = new Set(Object.keys(allowScripts ?? {}).map(decidedName));
  return {
    undecided: withScripts.filter((name) => !decided.has(name)),
    stale: [...decided].filter((name) => !withScripts.includes(name)).sort(),
  };
}
