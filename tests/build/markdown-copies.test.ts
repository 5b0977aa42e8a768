/**
 * Docs for AI assistants and for copying: llms.txt indexes every docs and API page with its
 * description, llms-full.txt holds their full text, each page has a Markdown copy next to it, and
 * the copies are in the offline precache (src/plugins/markdown-copies).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuildExists, buildDir } from './support/build-output';

/** Every docs and API route of the build ("/docs/", "/api/classes/Runtime/"). */
function docsRoutes(): string[] {
  return (readdirSync(buildDir, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => /^(docs|api)(\/.*)?\/index\.html$|^(docs|api)\/index\.html$/.test(file))
    .map((file) => `/${file.slice(0, -'index.html'.length)}`)
    .sort();
}

/** "/docs/getting-started/" → "/docs/getting-started.md", as the Copy page control fetches it. */
const markdownOf = (route: string) => `${route.replace(/\/$/, '')}.md`;

const read = (sitePath: string) => readFileSync(path.join(buildDir, sitePath), 'utf8');

let routes: string[];

beforeAll(() => {
  assertBuildExists();
  routes = docsRoutes();
});

describe('Markdown copies', () => {
  it('exist for every docs and API page, starting with the page title', () => {
    expect(routes.filter((route) => route.startsWith('/docs/')).length).toBeGreaterThan(15);
    expect(routes.filter((route) => route.startsWith('/api/')).length).toBeGreaterThan(48);
    for (const route of routes) {
      const file = markdownOf(route);
      expect(existsSync(path.join(buildDir, file)), file).toBe(true);
      const html = read(`${route}index.html`);
      const h1 = (/<h1[^>]*>(.*?)<\/h1>/s.exec(html)?.[1] ?? '')
        .replace(/<[^>]+>/g, '')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
      // Markdown escapes "<" and "[" in text; compare the text itself.
      const firstLine = (read(file).split('\n')[0] ?? '').replace(/\\(.)/g, '$1');
      expect(firstLine, file).toBe(`# ${h1}`);
    }
  });

  it('hold code samples embedded from examples/ in full, as fenced code', () => {
    const markdown = read('/docs/getting-started.md');
    for (const sample of ['assistant-plugin.ts', 'scripted-model.ts']) {
      const source = readFileSync(
        path.join(__dirname, '../../examples/getting-started', sample),
        'utf8',
      ).trimEnd();
      expect(markdown, sample).toContain(`\`\`\`ts\n${source}\n\`\`\``);
    }
    expect(markdown).not.toMatch(/file=<rootDir>/);
  });

  it('leave out the Run panel, whose prose stays', () => {
    const markdown = read('/docs/getting-started.md');
    expect(markdown).toContain('to run this agent in your browser');
    // The line beside the panel's button (the prose names the button itself).
    expect(markdown).not.toContain('the scripted model, in-memory memory, no network');
  });

  it('read like Markdown: no heading anchors, links to other copies', () => {
    const markdown = read('/api/classes/Runtime.md');
    expect(markdown).not.toContain('Direct link to');
    expect(markdown).not.toMatch(/\/\.md\b/);
    const links = [...markdown.matchAll(/\]\((\/(?:docs|api)[^)#\s]*)/g)].map((match) => match[1] ?? '');
    expect(links.length).toBeGreaterThan(0);
    for (const link of links) {
      expect(link).toMatch(/\.md$/);
      expect(existsSync(path.join(buildDir, link)), link).toBe(true);
    }
  });

  it('write a heading that may wrap inside a name as the name alone, with no hidden character', () => {
    const markdown = read('/docs/reference/errors.md');
    expect(markdown).toMatch(/^### WEFT_TOO_MANY_CONNECTIONS$/m);
    expect(markdown).not.toContain('\u200b');
  });

  it('are precached by the service worker, so Copy page works offline', () => {
    const sw = read('/sw.js');
    for (const route of routes) {
      expect(sw, route).toContain(`"url":"${markdownOf(route).slice(1)}"`);
    }
  });
});

describe('llms.txt', () => {
  it('names the site and links every docs and API page with its description [claim:mcp-docs-llms-txt]', () => {
    const index = read('/llms.txt');
    expect(index.split('\n')[0]).toBe('# Weft');
    for (const route of routes) {
      const entry = new RegExp(`^- \\[[^\\]]+\\]\\(${markdownOf(route).replace(/[.]/g, '\\.')}\\): \\S`, 'm');
      expect(index, route).toMatch(entry);
    }
    expect(index).not.toContain('/search');
  });

  it('lists the guides before the API reference', () => {
    const index = read('/llms.txt');
    expect(index.indexOf('(/docs/getting-started.md)')).toBeLessThan(
      index.indexOf('(/api/classes/Runtime.md)'),
    );
  });
});

describe('llms-full.txt', () => {
  it('holds the full text of every docs and API page', () => {
    const full = read('/llms-full.txt');
    for (const route of routes) {
      const body = read(markdownOf(route)).trim();
      expect(full.includes(body), route).toBe(true);
    }
  });
});
