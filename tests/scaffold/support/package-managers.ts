import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { runCommand } from '@weft-internal/test-support/commands';

/**
 * The managers besides npm that run `<manager> create weft`, as installed from the npm registry:
 * pnpm, Yarn classic (the `yarn` package is Yarn 1; Yarn 2+ ships per project, not from npm) and
 * bun (the `bun` package's binary comes in a platform package it depends on optionally).
 */
export const OTHER_MANAGERS = ['pnpm', 'yarn', 'bun'] as const;
export type OtherManager = (typeof OTHER_MANAGERS)[number];

/** The versions the test installs: the majors users run at the time of writing. */
const VERSIONS: Record<OtherManager, string> = { pnpm: '12', yarn: '1', bun: '1' };

/**
 * Installs pnpm, yarn and bun into `folder` with npm (from whichever registry `env` names) and
 * returns the folder holding their executables, to put first on PATH.
 */
export async function installManagers(
  folder: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string> {
  await mkdir(folder, { recursive: true });
  await writeFile(path.join(folder, 'package.json'), '{ "private": true }\n');
  await runCommand(
    'npm',
    ['install', '--no-save', ...OTHER_MANAGERS.map((name) => `${name}@${VERSIONS[name]}`)],
    { cwd: folder, env, timeoutMs },
  );
  return path.join(folder, 'node_modules', '.bin');
}

/**
 * An environment in which the managers keep their caches, stores and global folders (`yarn
 * create` installs create-weft globally) in `home`, not the machine's, and use the local
 * registry (`home`/.npmrc and the variables below).
 */
export async function managerEnv(
  home: string,
  registry: { url: string; npmrc: string },
  binDir: string,
  base: NodeJS.ProcessEnv,
): Promise<NodeJS.ProcessEnv> {
  const npmrc = registry.npmrc;
  await mkdir(home, { recursive: true });
  await writeFile(path.join(home, '.npmrc'), npmrc);
  return {
    ...base,
    HOME: home,
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local/share'),
    XDG_STATE_HOME: path.join(home, '.local/state'),
    // The registry once more as variables, which bun documents (NPM_CONFIG_REGISTRY). Yarn 1
    // reads the file; `yarn create` replaces npm_config_registry with Yarn's default for what
    // it runs, which create-weft leaves out of the project's install.
    npm_config_registry: registry.url,
    NPM_CONFIG_REGISTRY: registry.url,
    // Yarn 1 gives up on a request after 30 s and says the network is in trouble: the local
    // registry's first answer for a package waits on its upstream, longer on a loaded machine.
    YARN_NETWORK_TIMEOUT: String(5 * 60_000),
    // `yarn create` links create-weft's bin into its global prefix: /usr/local/bin as root.
    npm_config_prefix: path.join(home, '.prefix'),
    YARN_PREFIX: path.join(home, '.prefix'),
    // Without the repository's node_modules/.bin, which npx puts on PATH for vitest: bunx runs
    // a create-weft it finds on PATH instead of fetching the published one.
    PATH: [
      binDir,
      ...(base.PATH ?? '')
        .split(path.delimiter)
        .filter((entry) => !entry.split(path.sep).includes('node_modules')),
    ].join(path.delimiter),
  };
}
