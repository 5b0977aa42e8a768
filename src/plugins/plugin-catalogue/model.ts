/**
 * Catalogue types and labels shared by the build-time plugin and the plugins
 * page. Browser-safe: no Node.js imports here.
 */

export const PACKAGE_KINDS = [
  'core',
  'model-provider',
  'memory-provider',
  'plugin',
  'tooling',
] as const;
export type PackageKind = (typeof PACKAGE_KINDS)[number];

/** Section titles of the plugins page, in the order the kinds are listed above. */
export const KIND_TITLES: Record<PackageKind, string> = {
  core: 'Core',
  'model-provider': 'Model providers',
  'memory-provider': 'Memory providers',
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

export function installCommand(entry: Pick<CatalogueEntry, 'name'>): string {
  return `npm install ${entry.name}`;
}

/** Name under which the plugin publishes its global data. */
export const CATALOGUE_PLUGIN_NAME = 'weft-plugin-catalogue';

export interface CatalogueGlobalData {
  entries: CatalogueEntry[];
}
