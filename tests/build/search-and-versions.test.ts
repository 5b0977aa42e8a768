/**
 * The search index of @easyops-cn/docusaurus-search-local and the docs version data in the
 * client bundle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuildExists, buildDir } from './support/build-output';

let bundles: { file: string; text: string }[];

beforeAll(() => {
  assertBuildExists();
  const jsDir = path.join(buildDir, 'assets', 'js');
  bundles = readdirSync(jsDir)
    .filter((file) => file.endsWith('.js'))
    .map((file) => ({ file, text: readFileSync(path.join(jsDir, file), 'utf8') }));
});

describe('search index', () => {
  // searchContextByPaths gives one index per context (docs, api) plus the combined one.
  const indexFiles = ['search-index.json', 'search-index-docs.json', 'search-index-api.json'];

  it.each(indexFiles)('%s exists and indexes documents', (file) => {
    const index = JSON.parse(readFileSync(path.join(buildDir, file), 'utf8')) as unknown;
    expect(Array.isArray(index)).toBe(true);
    expect(JSON.stringify(index).length).toBeGreaterThan(1000);
  });

  it('the docs index covers the docs and the API index covers the API pages', () => {
    const docs = readFileSync(path.join(buildDir, 'search-index-docs.json'), 'utf8');
    const api = readFileSync(path.join(buildDir, 'search-index-api.json'), 'utf8');
    expect(docs).toContain('/docs/getting-started/');
    expect(api).toContain('/api/classes/Runtime/');
    expect(api).not.toContain('/docs/getting-started/');
  });

  it('is fetched with a content hash, so a new build is never served a cached index', () => {
    // `hashed: true` appends the hash as a query (?_=<hash>), keeping the file names stable.
    const hashed = bundles
      .map(({ text }) => /search-index\{dir\}\.json\?_=([0-9a-f]{8,})/.exec(text))
      .find(Boolean);
    expect(hashed, 'no bundle fetches the index with ?_=<hash>').toBeTruthy();
  });
});

describe('docs versions', () => {
  it('each docs instance has one version, "current", labelled Next', () => {
    // The global data of both docs plugins is in the main bundle.
    const main = bundles.find(({ file }) => /^main\.[0-9a-f]+\.js$/.test(file));
    expect(main, 'main bundle').toBeDefined();
    for (const [pluginId, basePath] of [
      ['default', '/docs'],
      ['api', '/api'],
    ]) {
      const pattern = new RegExp(
        `"${pluginId}":\\{"path":"${basePath}","versions":\\[\\{"name":"current","label":"Next","isLast":true,"path":"${basePath}"`,
      );
      expect(main!.text, pluginId).toMatch(pattern);
    }
  });
});
