/**
 * Local Docusaurus plugin: the navbar search box searches the whole site from every page.
 *
 * @easyops-cn/docusaurus-search-local scopes its navbar search box to the section the reader is
 * in (the context of `searchContextByPaths` whose path starts the current URL), so an API name
 * typed on a guide page finds nothing. The same option gives the search page its section picker,
 * which we keep. The search box reads the contexts from one generated module, shared with the
 * search page; this plugin hands the search box's own modules a copy of that module without
 * contexts, so the box always uses the index of every page. Its results still name their section:
 * `explicitSearchResultPath` starts each result's path with the navbar item of its page.
 */
import path from 'node:path';
import type { Plugin } from '@docusaurus/types';

/** Module requests of the search plugin that resolve to its generated options. */
export const generatedOptionsRequest = /utils[\\/]proxiedGenerated(\.js)?$/;

/** The directory of the search plugin's navbar search box (not its search page). */
export const searchBarDir =
  /docusaurus-search-local[\\/]dist[\\/]client[\\/]client[\\/]theme[\\/]SearchBar$/;

const optionsWithoutContexts = path.join(__dirname, 'options-without-contexts.ts');

export default function siteWideSearch(): Plugin {
  return {
    name: 'site-wide-search',
    configureWebpack(_config, _isServer, { currentBundler }) {
      const { NormalModuleReplacementPlugin } = currentBundler.instance;
      return {
        plugins: [
          new NormalModuleReplacementPlugin(generatedOptionsRequest, (resource: ResolveData) => {
            if (searchBarDir.test(resource.context ?? '')) {
              resource.request = optionsWithoutContexts;
            }
          }),
        ],
      };
    },
  };
}

/** The part of a module request the replacement callback reads and rewrites. */
interface ResolveData {
  context?: string;
  request: string;
}
