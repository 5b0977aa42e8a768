/**
 * The search plugin's modules the site swaps or reads by path, besides its worker and index format
 * (tests/unit/local-search.test.ts) and the wrapped SearchBar (tests/unit/swizzled-components.test.ts):
 * the search box's generated options, which src/plugins/site-wide-search hands the box without
 * search contexts; its empty template, which src/plugins/local-search swaps for one that offers the
 * search page, styled with the box's own CSS module; and the generated constants the ranking
 * worker reads the index URL from. The plugin promises none of these, so each check names the
 * module or file that moved, as the contributing guide's "Docusaurus internals" table says.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EMPTY_TEMPLATE_MODULE } from '../../src/plugins/local-search';
import { generatedOptionsRequest, searchBarDir } from '../../src/plugins/site-wide-search';

const root = path.resolve(__dirname, '../..');
const PLUGIN = '@easyops-cn/docusaurus-search-local';
const CLIENT = `${PLUGIN}/dist/client/client`;

/** A file of the installed plugin; require.resolve throws, naming the path, when it has moved. */
const pluginFile = (file: string): string => require.resolve(`${CLIENT}/${file}`);

/** The requests a module imports from, as it writes them. */
function importsOf(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/\bfrom\s+"([^"]+)"/g)].map((match) => match[1]!);
}

describe("the search plugin's modules the site swaps or reads by path [claim:cg-internal-search-box-modules] [claim:cg-internals-tests-name-them]", () => {
  const searchBar = pluginFile('theme/SearchBar/SearchBar.jsx');

  it('the search box reads its options from utils/proxiedGenerated, in the folder site-wide-search matches', () => {
    const request = importsOf(searchBar).find((from) => /proxiedGenerated$/.test(from));
    expect(
      request,
      `${searchBar} no longer imports utils/proxiedGenerated: src/plugins/site-wide-search/index.ts swaps nothing`,
    ).toBeDefined();
    expect(
      generatedOptionsRequest.test(request!),
      `generatedOptionsRequest does not match the search box's request "${request}"`,
    ).toBe(true);
    expect(
      searchBarDir.test(path.dirname(searchBar)),
      `searchBarDir does not match the search box's folder ${path.dirname(searchBar)}`,
    ).toBe(true);
  });

  it('the search box takes its empty template from SearchBar/EmptyTemplate, the module local-search swaps', () => {
    expect(
      importsOf(searchBar),
      `${searchBar} no longer imports ./EmptyTemplate: src/plugins/local-search/empty-template.ts is not used`,
    ).toContain('./EmptyTemplate');
    const template = pluginFile('theme/SearchBar/EmptyTemplate.js');
    expect(
      EMPTY_TEMPLATE_MODULE.test(template),
      `EMPTY_TEMPLATE_MODULE does not match ${template}`,
    ).toBe(true);
  });

  it("the search box's CSS module still has the classes the site's empty template uses", () => {
    const stylesheet = pluginFile('theme/SearchBar/SearchBar.module.css');
    const css = readFileSync(stylesheet, 'utf8');
    const used = [
      ...readFileSync(
        path.join(root, 'src/plugins/local-search/empty-template.ts'),
        'utf8',
      ).matchAll(/\bstyles\.(\w+)/g),
    ].map((match) => match[1]!);
    expect(used).toEqual(expect.arrayContaining(['noResults', 'noResultsIcon', 'hitFooter']));
    const missing = [...new Set(used)].filter((name) => !new RegExp(`\\.${name}\\b`).test(css));
    expect(missing, `${stylesheet} has no rule for these classes`).toEqual([]);
  });

  it('the generated constants the ranking worker imports still give searchIndexUrl', () => {
    const constants = pluginFile('utils/proxiedGeneratedConstants.js');
    expect(
      readFileSync(constants, 'utf8'),
      `${constants} no longer re-exports the generated constants`,
    ).toContain('generated-constants.js');
    const generate = require.resolve(`${PLUGIN}/dist/server/server/utils/generate.js`);
    expect(
      readFileSync(generate, 'utf8'),
      `${generate} no longer writes searchIndexUrl, which src/plugins/local-search/ranking-worker.ts reads`,
    ).toContain('export const searchIndexUrl');
  });
});
