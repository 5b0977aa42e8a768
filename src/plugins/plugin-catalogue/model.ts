/**
 * Catalogue types and labels shared by the build-time plugin and the plugins
 * page. Browser-safe: no Node.js imports here.
 */

import type { CommandsByManager } from '../../config/package-managers';

export const PACKAGE_KINDS = [
  'core',
  'model-provider',
  'memory-provider',
  'coordinator',
  'plugin',
  'tooling',
] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/** Section titles of the plugins page, in the order the kinds are listed above. */
export const KIND_TITLES: Record<PackageKind, string> = {
  core: 'Core',
  'model-provider': 'Model providers',
  'memory-provider': 'Memory providers',
  coordinator: 'Coordinators',
  plugin: 'Plugins',
  tooling: 'Tooling',
};

export interface CatalogueEntry {
  /** npm name, e.g. @weft/model-openai. */
  name: string;
  version: string;
  description: string;
  keywords: string[];
  kind: PackageKind;
  displayName: string;
  /** Folder under packages/. */
  directory: string;
}

/**
 * The one package outside the @weft scope: npm runs it for `npm create weft`, whose
 * initializer name maps to `create-weft`.
 */
export const CREATE_PACKAGE = 'create-weft';

/** The documentation page that says how to install Weft today and after publication. */
export const INSTALLATION_PATH = '/docs/installation/';

/**
 * The command a user types to add the package to a project. The project creator is run, not
 * installed. Every package README's install line is this command (tests/unit checks it).
 */
export function installCommand(entry: Pick<CatalogueEntry, 'name'>): string {
  return entry.name === CREATE_PACKAGE
    ? 'npm create weft@latest my-agent'
    : `npm install ${entry.name}`;
}

export const CATALOGUE_PLUGIN_NAME = 'weft-plugin-catalogue';

/** Where the plugin adds the plugins page, below the site's base URL. */
export const PLUGINS_PAGE_PATH = '/plugins/';

/** What the plugin loads and hands the plugins page as its `catalogue` prop. */
export interface Catalogue {
  entries: CatalogueEntry[];
  /**
   * Each package's install command in every package manager's words, by package name: made at
   * build time, so the page's bundle holds no conversion code.
   */
  installCommands: Record<string, CommandsByManager>;
}
