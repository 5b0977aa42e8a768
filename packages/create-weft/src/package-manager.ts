/**
 * The package manager that ran create-weft, and the commands the new project's user types with
 * it. `npm create`, `pnpm create`, `yarn create` and `bun create` all run this package's bin;
 * each says who it is in `npm_config_user_agent` ("pnpm/9.15.0 npm/? node/v22.12.0 linux x64").
 */

export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
/** One of {@link PACKAGE_MANAGERS}. */
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

function isPackageManager(value: string): value is PackageManager {
  return (PACKAGE_MANAGERS as readonly string[]).includes(value);
}

/**
 * The manager named first in a user agent string; npm when there is none (the bin run directly,
 * or through `npm run create-agent` in a clone, which says npm) or it names another tool.
 */
export function detectPackageManager(userAgent: string | undefined): PackageManager {
  const name = userAgent?.trim().split(/\s+/, 1)[0]?.split('/', 1)[0]?.toLowerCase() ?? '';
  return isPackageManager(name) ? name : 'npm';
}

/**
 * The version of the manager a user agent names first ("pnpm/9.15.0 npm/? ..." gives
 * "9.15.0"), or undefined when it names none.
 */
export function detectPackageManagerVersion(userAgent: string | undefined): string | undefined {
  const version = userAgent?.trim().split(/\s+/, 1)[0]?.split('/')[1];
  return version && /^\d+\.\d+/.test(version) ? version : undefined;
}

/**
 * Whether a pnpm of `version` reads its settings from `pnpm-workspace.yaml`: pnpm 10.5 and
 * later do; earlier ones refuse the file unless it lists workspace `packages` ("packages field
 * missing or empty"), and read the settings from package.json's `pnpm` field. A version that is
 * missing or unreadable is taken for a current one.
 */
function pnpmReadsWorkspaceSettings(version: string | undefined): boolean {
  const [major = NaN, minor = NaN] = (version ?? '').split('.').map(Number);
  if (!Number.isInteger(major) || !Number.isInteger(minor)) return true;
  return major > 10 || (major === 10 && minor >= 5);
}

/** The packages whose install scripts pnpm must be allowed to run for the project. */
function pnpmBuilds(nativeSqlite: boolean): string[] {
  return ['esbuild', ...(nativeSqlite ? ['better-sqlite3'] : [])];
}

/** A command as the program and its arguments, to run without a shell. */
export interface Command {
  program: PackageManager;
  args: string[];
}

/** Installs the project's dependencies. */
export function installCommand(manager: PackageManager): Command {
  return { program: manager, args: ['install'] };
}

/**
 * Runs one of the project's package.json scripts. `bun test` and `bun dev`-style shorthands are
 * not used for bun because `bun test` is bun's own test runner, not the project's script.
 */
export function scriptCommand(manager: PackageManager, script: string): Command {
  switch (manager) {
    case 'npm':
      // npm runs `test` and `start` without `run`; every other script needs it.
      return {
        program: manager,
        args: script === 'test' || script === 'start' ? [script] : ['run', script],
      };
    case 'pnpm':
    case 'yarn':
      return { program: manager, args: [script] };
    case 'bun':
      return { program: manager, args: ['run', script] };
  }
}

/** A command as the user would type it. */
export function formatCommand(command: Command): string {
  return [command.program, ...command.args].join(' ');
}

/**
 * A folder as the user types it after `cd`: as it is when it holds only characters no shell
 * treats specially, else quoted, so that a folder named `My Agent` gives `cd 'My Agent'` rather
 * than a `cd` with two arguments. Single quotes for a POSIX shell (a `'` inside is closed,
 * escaped and reopened); on Windows double quotes, which cmd reads (and PowerShell, but for a `$`
 * or a backtick), and which no Windows path holds. A leading `-`, which `cd` would read as an
 * option, gets `./` before it.
 */
export function shellPath(folder: string, platform: NodeJS.Platform = process.platform): string {
  const windows = platform === 'win32';
  const path = folder.startsWith('-') ? `.${windows ? '\\' : '/'}${folder}` : folder;
  const plain = windows ? /^[\w.:\\/-]+$/ : /^[\w@%+=:,./-]+$/;
  if (plain.test(path)) return path;
  return windows ? `"${path}"` : `'${path.replace(/'/g, `'\\''`)}'`;
}

/** The command that creates a project in `folder` with this manager, as the docs show it. */
export function createCommand(manager: PackageManager, folder: string): string {
  return manager === 'npm'
    ? `npm create weft@latest ${folder}`
    : `${manager} create weft ${folder}`;
}

/**
 * Files a manager needs in the project beyond package.json. pnpm 10 and later run no
 * dependency's install script unless the project allows it, and pnpm 11 and later fail the
 * install (their `strictDepBuilds` default; seen with pnpm 12): tsx and vitest need esbuild's
 * (it fetches its binary), the SQLite memory better-sqlite3's (its native module).
 * `onlyBuiltDependencies` is pnpm 10's setting; pnpm 11 replaced it with `allowBuilds`.
 *
 * `pinned` are the `name@version` of the registry packages create-weft chose (Weft's own).
 * pnpm 11 and later hold back releases younger than a day (`minimumReleaseAge`); when nothing
 * older fits, they install the young one anyway and add it to `minimumReleaseAgeExclude` in
 * this file, after recording the settings the install ran with, so the next `pnpm test` finds
 * a setting changed and installs everything again first. Listed here from the start, the
 * settings stay as the install recorded them.
 *
 * `version` is the manager's: a pnpm before 10.5 gets no file, as it refuses a
 * `pnpm-workspace.yaml` without workspace packages; {@link packageManagerManifest} gives its
 * settings instead.
 */
export function packageManagerFiles(
  manager: PackageManager,
  options: { nativeSqlite: boolean; pinned?: readonly string[]; version?: string },
): Map<string, string> {
  if (manager !== 'pnpm' || !pnpmReadsWorkspaceSettings(options.version)) return new Map();
  const builds = pnpmBuilds(options.nativeSqlite);
  const pinned = options.pinned ?? [];
  const yaml = [
    '# Dependencies whose install scripts pnpm may run (written by create-weft).',
    'onlyBuiltDependencies:',
    ...builds.map((name) => `  - ${name}`),
    'allowBuilds:',
    ...builds.map((name) => `  ${name}: true`),
    ...(pinned.length > 0
      ? [
          "# Weft's packages at the versions create-weft chose, installed even within a day of",
          '# their release.',
          'minimumReleaseAgeExclude:',
          ...pinned.map((spec) => `  - '${spec}'`),
        ]
      : []),
    '',
  ].join('\n');
  return new Map([['pnpm-workspace.yaml', yaml]]);
}

/**
 * What a manager needs in the project's package.json: for a pnpm before 10.5, which reads no
 * settings from `pnpm-workspace.yaml`, the `pnpm.onlyBuiltDependencies` that let it run the
 * install scripts {@link packageManagerFiles} names for later versions (pnpm 9 runs every one
 * unless the list is there; 10.0 to 10.4 run none unless it names them). Nothing for any other.
 */
export function packageManagerManifest(
  manager: PackageManager,
  options: { nativeSqlite: boolean; version?: string },
): { pnpm?: { onlyBuiltDependencies: string[] } } {
  if (manager !== 'pnpm' || pnpmReadsWorkspaceSettings(options.version)) return {};
  return { pnpm: { onlyBuiltDependencies: pnpmBuilds(options.nativeSqlite) } };
}
