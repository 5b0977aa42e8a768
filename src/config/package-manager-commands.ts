/**
 * npm commands in pnpm's, yarn's and bun's words, for the docs' ```bash npm2yarn blocks and the
 * plugins page. Written for the commands a Weft user types (create, install, ci, test, start,
 * run), so each conversion is one a test checks; a command outside them fails the build with
 * its line rather than showing a guess. The plugins catalogue uses it at build time too.
 */

import type { CommandsByManager, PackageManager } from '@weft-internal/docs-model/package-managers';

export { PACKAGE_MANAGERS, type PackageManager } from '@weft-internal/docs-model/package-managers';
export type OtherPackageManager = Exclude<PackageManager, 'npm'>;
export const OTHER_PACKAGE_MANAGERS: readonly OtherPackageManager[] = ['pnpm', 'yarn', 'bun'];

/** The tab group every package manager switch on the site shares, as npm2yarn names it. */
export const PACKAGE_MANAGER_GROUP = 'npm2yarn';

const SAVE_DEV = new Set(['-D', '--save-dev']);
const DEV_FLAG: Record<OtherPackageManager, string> = { pnpm: '-D', yarn: '--dev', bun: '-d' };

/** `bun test` and `bun start`-style shorthands would run bun's own commands, not the scripts. */
function runScript(manager: OtherPackageManager, script: string, args: string[]): string[] {
  return manager === 'bun' ? ['run', script, ...args] : [script, ...args];
}

/** The arguments after `--`, which npm needs and the others pass on without it. */
function withoutSeparator(args: string[]): string[] {
  return args.filter((arg, index) => !(arg === '--' && args.indexOf('--') === index));
}

function convertArgs(manager: OtherPackageManager, words: string[], line: string): string[] {
  const [command, ...rest] = words;
  switch (command) {
    case 'create': {
      // npm create weft@latest my-agent: the others run the latest create-weft without a tag.
      const [initializer = '', ...args] = rest;
      const name = initializer.replace(/@latest$/, '');
      if (!name || name.startsWith('-')) break;
      return ['create', name, ...withoutSeparator(args)];
    }
    case 'install':
    case 'i': {
      const dev = rest.some((word) => SAVE_DEV.has(word));
      const packages = rest.filter((word) => !SAVE_DEV.has(word));
      if (packages.some((word) => word.startsWith('-'))) break;
      if (packages.length === 0) return dev ? [] : ['install'];
      return ['add', ...(dev ? [DEV_FLAG[manager]] : []), ...packages];
    }
    case 'ci':
      if (rest.length > 0) break;
      return ['install', '--frozen-lockfile'];
    case 'test':
    case 'start':
      return runScript(manager, command, withoutSeparator(rest));
    case 'run': {
      const [script, ...args] = rest;
      if (!script || script.startsWith('-')) break;
      return runScript(manager, script, withoutSeparator(args));
    }
  }
  throw new Error(`package manager commands: no ${manager} equivalent known for "${line.trim()}"`);
}

/** One line: an npm command becomes the manager's; any other line is kept as it is. */
export function convertNpmLine(line: string, manager: OtherPackageManager): string {
  const match = /^(\s*)npm\s+([^#]*?)(\s*#.*)?$/.exec(line);
  if (!match) return line;
  const [, indent = '', command = '', comment = ''] = match;
  const converted = convertArgs(manager, command.split(/\s+/), line);
  if (converted.length === 0) {
    throw new Error(`package manager commands: nothing to convert in "${line.trim()}"`);
  }
  return `${indent}${[manager, ...converted].join(' ')}${comment}`;
}

/** A block of shell lines, converted line by line. */
export function convertNpmCommands(code: string, manager: OtherPackageManager): string {
  return code
    .split('\n')
    .map((line) => convertNpmLine(line, manager))
    .join('\n');
}

/** The command in each manager's words, npm first, in the order the tabs show them. */
export function commandsByManager(npmCommand: string): CommandsByManager {
  return {
    npm: npmCommand,
    pnpm: convertNpmCommands(npmCommand, 'pnpm'),
    yarn: convertNpmCommands(npmCommand, 'yarn'),
    bun: convertNpmCommands(npmCommand, 'bun'),
  };
}
