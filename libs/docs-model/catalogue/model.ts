/**
 * Catalogue types and labels shared by the build-time plugin and the plugins
 * page. Browser-safe: no Node.js imports here.
 */

import type { CommandsByManager } from '@weft-internal/docs-model/package-managers';

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

/**
 * Capability ids a package may provide or require: the ids `@weft/core` exports as
 * `*_CAPABILITY` constants (tests/unit/plugin-catalogue-metadata.test.ts keeps the two lists equal).
 */
export const CAPABILITY_IDS = ['text-generation'] as const;
export type CapabilityId = (typeof CAPABILITY_IDS)[number];

/**
 * Things other than capabilities that one package provides and another requires: what the
 * "works with" filter matches. A new entry needs a check in
 * tests/unit/plugin-catalogue-metadata.test.ts that the code of every package naming it bears it out.
 */
export const SERVICES = {
  runtime: 'Weft runtime',
  memory: 'Memory provider (spaces)',
  coordination: 'Task order across instances',
  'http-server': 'HTTP server for plugin routes',
  'mcp-server': 'MCP server',
  postgresql: 'PostgreSQL server',
  'openai-compatible-api': 'OpenAI-compatible HTTP API',
} as const;
export type ServiceId = keyof typeof SERVICES;
export const SERVICE_IDS = Object.keys(SERVICES) as ServiceId[];

/** Where a package's code runs. `browser` only for code without Node.js-only imports. */
export const RUNTIMES = ['node', 'browser'] as const;
export type Runtime = (typeof RUNTIMES)[number];
export const RUNTIME_LABELS: Record<Runtime, string> = { node: 'Node.js', browser: 'Browser' };

/**
 * A feature the filters and "works with" match on: `capability:<id>`, `service:<id>`, and
 * `executors` / `triggers` for a package that adds any.
 */
export type Feature =
  `capability:${CapabilityId}` | `service:${ServiceId}` | 'executors' | 'triggers';

export function featureLabel(feature: Feature): string {
  if (feature === 'executors') return 'Executors';
  if (feature === 'triggers') return 'Triggers';
  const [type, id] = feature.split(':') as ['capability' | 'service', string];
  return type === 'capability'
    ? `Capability ${id}`
    : (SERVICES[id as ServiceId] ?? /* unreachable after validation */ id);
}

export interface Provides {
  capabilities: CapabilityId[];
  services: ServiceId[];
  /** Executor names as pipelines write them, `<plugin id>/<action>`; `<…>` marks a part the user chooses. */
  executors: string[];
  /** Trigger names, `<plugin id>/<trigger id>`. */
  triggers: string[];
}

export interface Requires {
  capabilities: CapabilityId[];
  services: ServiceId[];
}

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
  /** The site's docs page about the package, as a route: `/docs/guides/testing/`. */
  guide: string;
  provides: Provides;
  requires: Requires;
  runtimes: Runtime[];
  /**
   * The `@weft/core` versions the package works with (its peer or direct dependency range; core's
   * own version for core); undefined when the package does not load core.
   */
  coreVersions: string | undefined;
  /** `engines.node`. */
  nodeVersions: string;
}

/** The core package: every other package that loads it names its versions. */
export const CORE_PACKAGE = '@weft/core';

/**
 * The one package outside the @weft scope: npm runs it for `npm create weft`, whose
 * initializer name maps to `create-weft`.
 */
export const CREATE_PACKAGE = 'create-weft';

/** The documentation page that says how to install Weft today and after publication. */
export const INSTALLATION_PATH = '/docs/installation/';

/**
 * Whether the first-party packages are on the npm registry. They are released together, so one
 * flag says it for all: until it is true, every {@link installCommand} answers E404, and what
 * shows one (the docs MCP server's `list_plugins`, Cursor's one-click install) says so. Set it
 * with the first release, when docs/installation.md says the packages are out.
 */
export const PACKAGES_ON_NPM = false;

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

/** Names of the filter controls, which the page's markup and the generated stylesheet share. */
export const FILTER_NAMES = {
  kind: 'catalogue-kind',
  feature: 'catalogue-feature',
  worksWith: 'catalogue-works-with',
} as const;
/** The value of each filter's "no filter" choice. */
export const ANY = 'any';

/** A choice of the page's "capability" filter: `provides:<feature>` or `requires:<feature>`. */
export interface FeatureChoice {
  value: string;
  label: string;
}

/** Made at build time from the entries, so the page only renders. */
export interface CatalogueFilters {
  /** Choices of the capability filter, those provided first, then those required. */
  provides: FeatureChoice[];
  requires: FeatureChoice[];
  /**
   * The stylesheet that shows the cards the checked filters match (and the empty message when
   * none do): generated selectors, no script.
   */
  css: string;
}

/** One line of a card's facts: "Provides" and its items, and so on. */
export interface CardFact {
  term: string;
  items: string[];
}

/**
 * The part of an entry the page's markup uses. What a package provides and requires reaches the
 * page as its card's facts and as the filters' stylesheet, so the page's data carries it once.
 */
export type CatalogueCard = Pick<
  CatalogueEntry,
  'name' | 'version' | 'description' | 'keywords' | 'kind' | 'displayName' | 'directory' | 'guide'
>;

export function catalogueCard(entry: CatalogueEntry): CatalogueCard {
  const { name, version, description, keywords, kind, displayName, directory, guide } = entry;
  return { name, version, description, keywords, kind, displayName, directory, guide };
}

/** What the plugin loads and hands the plugins page as its `catalogue` prop. */
export interface Catalogue {
  entries: CatalogueCard[];
  /**
   * Each package's install command in every package manager's words, by package name: made at
   * build time, so the page's bundle holds no conversion code.
   */
  installCommands: Record<string, CommandsByManager>;
  filters: CatalogueFilters;
  /** Each card's facts in words, by package name: made at build time, so the page only lists them. */
  facts: Record<string, CardFact[]>;
}
