/**
 * Local Docusaurus plugin: reads the first-party packages' package.json files at
 * load time and adds the plugins page with the validated, sorted catalogue as its
 * data (src/components/PluginsPage). The catalogue is a module of that route, not
 * global data, so only the plugins page downloads it.
 */
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { readCatalogue } from '@weft-internal/docs-model/catalogue/catalogue';
import { catalogueFilters } from '@weft-internal/docs-model/catalogue/filters';
import { cardFacts } from '@weft-internal/docs-model/catalogue/facts';
import { commandsByManager } from '../../config/package-manager-commands';
import {
  CATALOGUE_PLUGIN_NAME,
  catalogueCard,
  installCommand,
  PLUGINS_PAGE_PATH,
  type Catalogue,
} from '@weft-internal/docs-model/catalogue/model';

export interface PluginCatalogueOptions {
  /** Folder holding one sub-folder per package, relative to the site. */
  packagesDir: string;
  /**
   * What an invalid package.json does: fail the build ('throw', the default) or
   * leave the package off the page with a warning ('warn').
   */
  onInvalidPackage?: 'throw' | 'warn';
}

export default function pluginCatalogue(
  context: LoadContext,
  options: PluginCatalogueOptions,
): Plugin<Catalogue> {
  const packagesDir = path.resolve(context.siteDir, options.packagesDir);
  const onInvalidPackage = options.onInvalidPackage ?? 'throw';

  return {
    name: CATALOGUE_PLUGIN_NAME,

    getPathsToWatch() {
      return [path.join(packagesDir, '*/package.json')];
    },

    async loadContent() {
      const { entries, errors } = await readCatalogue(packagesDir);
      if (errors.length > 0) {
        const report = errors.map((error) => `- ${error.message}`).join('\n');
        if (onInvalidPackage === 'throw') {
          throw new Error(`The plugins page cannot be built:\n${report}`);
        }
        console.warn(`[${CATALOGUE_PLUGIN_NAME}] Left off the plugins page:\n${report}`);
      }
      const installCommands = Object.fromEntries(
        entries.map((entry) => [entry.name, commandsByManager(installCommand(entry))]),
      );
      return {
        entries: entries.map(catalogueCard),
        installCommands,
        filters: catalogueFilters(entries),
        facts: Object.fromEntries(entries.map((entry) => [entry.name, cardFacts(entry)])),
      };
    },

    async contentLoaded({ content, actions }) {
      const catalogue = await actions.createData('catalogue.json', JSON.stringify(content));
      actions.addRoute({
        // Docusaurus gives baseUrl with a trailing slash.
        path: `${context.baseUrl.replace(/\/$/, '')}${PLUGINS_PAGE_PATH}`,
        component: '@site/src/components/PluginsPage/index.tsx',
        modules: { catalogue },
        exact: true,
      });
    },
  };
}
