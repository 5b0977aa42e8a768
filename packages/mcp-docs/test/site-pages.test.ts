/**
 * The bundle's pages are the site build's Markdown copies (scripts/site-pages.ts): a build that
 * is missing, lacks a page, has one the docs no longer do, or is older than a docs file is
 * refused with a message naming what is wrong and the command to run, never turned into a bundle
 * without its guides.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, mkdir, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  docRoute,
  leadParagraph,
  pageHead,
  readSitePages,
  registryLinks,
  sidebarPages,
  SITE_BUILD_ENV,
  SiteBuildError,
  type SitePagesSource,
} from '../scripts/site-pages.js';
import { generateBundle } from './support.js';

async function folderWith(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-site-'));
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

const html = (title: string, description: string): string =>
  `<html><head><title data-rh=true>${title} | Weft</title><meta data-rh=true name=description content="${description}"/></head></html>`;

/** A site build of two docs pages and the API index, and the repository they were built from. */
async function fixture(): Promise<{ source: SitePagesSource; build: string; root: string }> {
  const root = await folderWith({
    'docs/index.md': '---\ntitle: Home\n---\nHome.\n',
    'docs/guides/production.md': '---\ntitle: Running in production\n---\nText.\n',
  });
  const build = await folderWith({
    'docs.md': '# Home\n\nHome.\n',
    'docs/index.html': html('Home', 'The start.'),
    'docs/guides/production.md': '# Running in production\n\nSee [home](/docs.md).\n',
    'docs/guides/production/index.html': html('Running in production', 'Service &amp; more.'),
    'api.md': '# API reference\n\nThe core.\n',
    'api/index.html': html('API reference', 'The'),
  });
  const source: SitePagesSource = {
    siteBuild: build,
    rootDir: root,
    sidebar: ['index', { type: 'category', label: 'Guides', items: ['guides/production'] }],
    siteTitle: 'Weft',
    apiPages: [],
    apiSection: () => 'API reference',
  };
  return { source, build, root };
}

function refusal(source: SitePagesSource): string {
  try {
    readSitePages(source);
  } catch (error) {
    expect(error).toBeInstanceOf(SiteBuildError);
    return (error as Error).message;
  }
  throw new Error('the site build was not refused');
}

describe('readSitePages', () => {
  it("takes each page's copy as it is, its title and description from its HTML, its section from the sidebar [claim:tsdoc-docs-bundle-section] [claim:tsdoc-docs-bundle-markdown]", async () => {
    const { source } = await fixture();
    expect(readSitePages(source)).toEqual([
      {
        path: '/docs/',
        title: 'Home',
        description: 'The start.',
        section: 'Docs',
        kind: 'guide',
        markdown: '# Home\n\nHome.\n',
      },
      {
        path: '/docs/guides/production/',
        title: 'Running in production',
        description: 'Service & more.',
        section: 'Guides',
        kind: 'guide',
        markdown: '# Running in production\n\nSee [home](/docs.md).\n',
      },
      {
        path: '/api/',
        title: 'API reference',
        // The HTML's description of an API page is its summary's first line; the bundle's is whole.
        description: 'The core.',
        section: 'API reference',
        kind: 'api',
        markdown: '# API reference\n\nThe core.\n',
      },
    ]);
  });

  it('refuses a folder with no Markdown copies, naming it and `npm run build` at the root [claim:mcp-docs-clone-needs-site-build]', async () => {
    const { source } = await fixture();
    const empty = await folderWith({ 'index.html': '' });
    const message = refusal({ ...source, siteBuild: empty });
    expect(message).toContain(`${empty} has none`);
    expect(message).toContain(`run \`npm run build\` at the repository's root (${source.rootDir})`);
  });

  it('refuses a build that lacks a page of the sidebar or an export, naming the copies [claim:mcp-docs-clone-needs-site-build]', async () => {
    const { source } = await fixture();
    const message = refusal({
      ...source,
      sidebar: [...(source.sidebar as unknown[]), 'guides/testing'],
      apiPages: ['api/classes/Runtime.md'],
    });
    expect(message).toContain('it lacks docs/guides/testing.md, api/classes/Runtime.md');
    expect(message).toContain('npm run build');
  });

  it('refuses a build with a page the docs no longer have [claim:mcp-docs-clone-needs-site-build]', async () => {
    const { source } = await fixture();
    const message = refusal({ ...source, sidebar: ['index'] });
    expect(message).toContain(
      'it has docs/guides/production.md, which no docs page or export has any more',
    );
  });

  it('refuses a build older than a docs file [claim:mcp-docs-clone-needs-site-build] [claim:cg-build-first]', async () => {
    const { source, build } = await fixture();
    const past = new Date(Date.now() - 60_000);
    await utimes(join(build, 'docs/guides/production.md'), past, past);
    expect(refusal(source)).toContain('it is older than docs/guides/production.md');
  });
});

describe('the generator without a site build', () => {
  it('fails with the message, not a stack, and writes no bundle [claim:mcp-docs-clone-needs-site-build] [claim:cg-mcp-docs-after-site-build] [claim:cg-build-first]', async () => {
    const empty = await folderWith({});
    const out = join(await folderWith({}), 'docs-bundle.json');
    const error = await generateBundle(empty, process.env, out).then(
      () => undefined,
      (reason: unknown) => reason as Error,
    );
    expect(existsSync(out)).toBe(false);
    expect(error?.message).toMatch(
      /^Could not generate the docs bundle: The bundle's pages come from the site build's Markdown copies/,
    );
    expect(error?.message).toContain('run `npm run build` at the repository');
    expect(error?.message).not.toMatch(/\n\s+at /);
  }, 60_000);

  it('reads the folder WEFT_SITE_BUILD names, and --site-build over it', async () => {
    const [fromEnv, fromFlag] = [await folderWith({}), await folderWith({})];
    const env = { ...process.env, [SITE_BUILD_ENV]: fromEnv };
    const refused = (siteBuild?: string): Promise<string | undefined> =>
      generateBundle(siteBuild, env).then(
        () => undefined,
        (reason: unknown) => (reason as Error).message,
      );
    expect(await refused()).toContain(`${fromEnv} has none`);
    expect(await refused(fromFlag)).toContain(`${fromFlag} has none`);
  }, 60_000);
});

describe('what the pages are made of', () => {
  it('reads a page head with its entities and without the site title', () => {
    expect(
      pageHead(
        '<title data-rh=true>A &amp; B &#x27;C&#39; | Weft</title><meta name="description" content="x &lt; y"/>',
        'Weft',
      ),
    ).toEqual({ title: "A & B 'C'", description: 'x < y' });
  });

  it('decodes every character reference HTML has in a page head, and leaves an unknown name as written', () => {
    expect(
      pageHead(
        '<title>Spaces &mdash; rooms &rarr; users&hellip; &#128512; &#0; &#x110000; &amp;nosuch; | Weft</title>' +
          '<meta name="description" content="&ldquo;one&rdquo; &#x1F600; &nosuch; a&copy=b"/>',
        'Weft',
      ),
    ).toEqual({
      title: 'Spaces \u2014 rooms \u2192 users\u2026 \u{1F600} \uFFFD \uFFFD &nosuch;',
      // In an attribute, a name without its ";" before "=" is text, as a browser reads it.
      description: '\u201Cone\u201D \u{1F600} &nosuch; a&copy=b',
    });
  });

  it('takes the paragraph under the title, whole, unless the page opens with code or a table', () => {
    expect(leadParagraph('# T\n\nOne\nline.\n\nTwo.\n')).toBe('One line.');
    expect(leadParagraph('# T\n\n```ts\nx\n```\n')).toBeUndefined();
    expect(leadParagraph('# T\n\n| a |\n')).toBeUndefined();
  });

  it('lists the sidebar in reading order, a category link under its own label', () => {
    expect(
      sidebarPages([
        'index',
        { type: 'category', label: 'B', link: { type: 'doc', id: 'b/index' }, items: ['b/x'] },
      ]),
    ).toEqual([
      { id: 'index', section: 'Docs' },
      { id: 'b/index', section: 'B' },
      { id: 'b/x', section: 'B' },
    ]);
    expect(['index', 'b/index', 'b/x'].map(docRoute)).toEqual(['/docs/', '/docs/b/', '/docs/b/x/']);
  });

  it("makes the registries' links, relative to the errors page, page paths [claim:tsdoc-docs-bundle-error-path]", () => {
    const sidebar = ['reference/configuration', 'guides/production'];
    expect(
      registryLinks(
        'See [a](./configuration.md#server-options), [b](../guides/production.md) and [c](../gone.md).',
        sidebar,
      ),
    ).toBe(
      'See [a](/docs/reference/configuration/#server-options), [b](/docs/guides/production/) and [c](../gone.md).',
    );
  });
});
