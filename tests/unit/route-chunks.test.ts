/**
 * tooling/route-chunks.ts over a small `.docusaurus/` of its own: the chunks a page's routes load
 * before it hydrates, split into the components the routes render (what the build test budgets)
 * and the data they render (the page's Markdown, its sidebar, plugin data), which is not
 * budgeted. What it cannot read or match, it names.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routeChunks } from '../../tooling/route-chunks';

const site = mkdtempSync(path.join(os.tmpdir(), 'weft-route-chunks-'));
const buildDir = path.join(site, 'build');
afterAll(() => rmSync(site, { recursive: true, force: true }));

/** Chunk ids by chunk name, as the client manifest's `origins` gives them. */
const ORIGINS: Record<string, string> = {
  docsLayout: '10',
  docsLayoutProps: '11',
  docPage: '20',
  docMarkdown: '21',
  docsPluginData: '22',
};

beforeAll(() => {
  const generated = path.join(site, '.docusaurus');
  mkdirSync(generated, { recursive: true });
  writeFileSync(
    path.join(generated, 'routes.js'),
    [
      "import ComponentCreator from '@docusaurus/ComponentCreator';",
      'export default [',
      "  { path: '/docs', component: ComponentCreator('/docs', 'a1'), routes: [",
      "    { path: '/docs/intro/', component: ComponentCreator('/docs/intro/', 'b2'), exact: true },",
      '  ] },',
      '];',
      '',
    ].join('\n'),
  );
  writeFileSync(
    path.join(generated, 'routesChunkNames.json'),
    JSON.stringify({
      '/docs-a1': { __comp: 'docsLayout', __props: 'docsLayoutProps' },
      '/docs/intro/-b2': {
        __comp: 'docPage',
        content: 'docMarkdown',
        __context: { plugin: 'docsPluginData' },
      },
    }),
  );
  const assets = Object.fromEntries(
    Object.values(ORIGINS).map((id) => [id, { js: [{ file: `assets/js/${id}.js` }] }]),
  );
  writeFileSync(
    path.join(generated, 'client-manifest.json'),
    JSON.stringify({
      origins: Object.fromEntries(Object.entries(ORIGINS).map(([name, id]) => [name, [id]])),
      assets,
    }),
  );
  mkdirSync(path.join(buildDir, 'assets/js'), { recursive: true });
  for (const id of Object.values(ORIGINS)) {
    writeFileSync(path.join(buildDir, `assets/js/${id}.js`), `/* chunk ${id} */`.repeat(40));
  }
});

const files = (list: readonly { file: string }[]): string[] =>
  list.map(({ file }) => path.basename(file)).sort();

describe('routeChunks', () => {
  it("counts the routes' components apart from the Markdown, sidebar and plugin data they render [claim:cg-budget-leaves-out-page-data]", () => {
    const chunks = routeChunks(site, buildDir, '/docs/intro/');
    expect(files(chunks.components)).toEqual(['10.js', '20.js']);
    expect(files(chunks.data)).toEqual(['11.js', '21.js', '22.js']);
    expect(chunks.componentsGzip).toBe(
      chunks.components.reduce((total, file) => total + file.gzip, 0),
    );
    expect(chunks.componentsGzip).toBeGreaterThan(0);
  });

  it('names the route it cannot match, and the file it cannot read [claim:cg-internal-route-chunks] [claim:cg-internals-tests-name-them]', () => {
    expect(() => routeChunks(site, buildDir, '/docs/missing/')).toThrow(
      'route-chunks: no page route matches /docs/missing/.',
    );
    const empty = mkdtempSync(path.join(os.tmpdir(), 'weft-route-chunks-empty-'));
    try {
      expect(() => routeChunks(empty, buildDir, '/docs/intro/')).toThrow(
        /route-chunks: .*\.docusaurus\/routesChunkNames\.json is missing/,
      );
    } finally {
      rmSync(empty, { recursive: true, force: true });
    }
  });
});
