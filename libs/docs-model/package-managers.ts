/**
 * The package managers the site shows commands for, in tab order. A module of its own so the
 * plugins page's switch can list them without bundling the command conversions.
 */
export const PACKAGE_MANAGERS = ['npm', 'pnpm', 'yarn', 'bun'] as const;
export type PackageManager = (typeof PACKAGE_MANAGERS)[number];

/** One command in each package manager's words. */
export type CommandsByManager = Record<PackageManager, string>;
