/**
 * SITE-REQUIREMENTS.md, "Routes": every route of the table and every API reference page is a page of the build,
 * and the sitemap lists them with trailing slashes.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { SEARCH_PAGE_PATH } from '../../src/data/search-page';
import { site } from '@weft-internal/docs-model/site';
import { apiPages } from '../e2e/support/api-pages';
import { siteRoutes } from '../e2e/support/site-routes';
import { assertBuildExists, buildDir, readRouteHtml, routeHtmlFile } from './support/build-output';


/**
 * The route of every page under docs/: its path without the extension, an `index` file
 * standing for its folder, or the `slug` its front matter sets.
 */
function docsPageRoutes(): string[] {
  const docsDir = path.resolve(__dirname, '../../docs');
  return readdirSync(docsDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.mdx?$/.test(file))
    .map((file) => {
      const slug = /^---\n[\s\S]*?^slug: (\S+)$[\s\S]*?^---$/m.exec(
        readFileSync(path.join(docsDir, file), 'utf8'),
      )?.[1];
      const route = slug ?? `/${file.replace(/\.mdx?$/, '').replace(/(^|\/)index$/, '')}`;
      return `/docs${route}/`.replace(/\/+/g, '/');
    });
}

const allRoutes = [...siteRoutes.map((route) => route.path), ...apiPages.map((page) => page.path)];

beforeAll(assertBuildExists);

describe('route pages', () => {
  it.each(allRoutes)('%s has an index.html', (route) => {
    expect(route.endsWith('/')).toBe(true);
    expect(existsSync(routeHtmlFile(route)), routeHtmlFile(route)).toBe(true);
    // Pre-rendered, not an empty shell: the page's own canonical URL is in it.
    expect(readRouteHtml(route)).toContain(`rel=canonical href=${site.url}${route}`);
  });

  it('has a not-found page for the server to answer 404 with', () => {
    const html = readFileSync(path.join(buildDir, '404.html'), 'utf8');
    expect(html).toContain('Page Not Found');
  });
});

describe("the API reference's sidebar", () => {
  it('lists the pages TypeDoc generated, not only the overview', () => {
    // The unit tests cannot see this: the generated sidebar (api/typedoc-sidebar.cjs) exists only
    // after a build has run TypeDoc.
    const html = readRouteHtml('/api/');
    const menu = html.slice(html.indexOf('theme-doc-sidebar-menu'));
    const links = [...menu.slice(0, menu.indexOf('</nav>')).matchAll(/href=([^ >]+)/g)].map(
      (match) => match[1]!,
    );
    const pages = new Set(apiPages.map((page) => page.path));
    const linkedPages = links.filter((link) => pages.has(link));
    expect(linkedPages.length, links.join(' ')).toBeGreaterThan(3);
  });

  it("lists the pages of each category in the order of the core's sources, as the specification asks", () => {
    // Where each export is declared, found in the sources without TypeDoc: its file (from the
    // package's folder, as TypeDoc compares them) and the place of its declaration in it.
    const coreDir = path.resolve(__dirname, '../../packages/core');
    const sources = (readdirSync(path.join(coreDir, 'src'), { recursive: true }) as string[])
      .filter((file) => file.endsWith('.ts'))
      .map((file) => {
        const relative = path.join('src', file).split(path.sep).join('/');
        return { file: relative, text: readFileSync(path.join(coreDir, relative), 'utf8') };
      });
    const placeOf = (name: string): { file: string; pos: number } => {
      const declaration = new RegExp(
        `^export (?:declare )?(?:abstract )?(?:class|interface|type|const|function|enum) ${name}\\b`,
        'm',
      );
      for (const { file, text } of sources) {
        const match = declaration.exec(text);
        if (match) return { file, pos: match.index };
      }
      throw new Error(`no declaration of ${name} in packages/core/src`);
    };
    const file = path.resolve(__dirname, '../../api/typedoc-sidebar.cjs');
    const categories = createRequire(import.meta.url)(file) as {
      label: string;
      items?: { label: string }[];
    }[];
    const classes = categories.find((category) => category.label === 'Classes');
    expect(classes?.items?.length).toBeGreaterThan(3);
    for (const category of categories) {
      const labels = (category.items ?? []).map((item) => item.label);
      const places = labels.map((label) => ({ label, ...placeOf(label) }));
      const inSourceOrder = [...places].sort((a, b) =>
        a.file === b.file ? a.pos - b.pos : a.file < b.file ? -1 : 1,
      );
      expect(labels, category.label).toEqual(inSourceOrder.map((place) => place.label));
    }
  });
});

describe('sitemap.xml', () => {
  let locations: string[];

  beforeAll(() => {
    const xml = readFileSync(path.join(buildDir, 'sitemap.xml'), 'utf8');
    locations = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]!);
  });

  it('lists every route and API page', () => {
    for (const route of allRoutes) {
      expect(locations, route).toContain(`${site.url}${route}`);
    }
  });

  it('lists only trailing-slash paths on the production origin, once each', () => {
    expect(locations.length).toBeGreaterThanOrEqual(allRoutes.length);
    for (const location of locations) {
      expect(location.startsWith(`${site.url}/`), location).toBe(true);
      expect(location.endsWith('/'), location).toBe(true);
      expect(location, location).not.toMatch(/\.html\/?$/);
    }
    expect(new Set(locations).size).toBe(locations.length);
  });

  it('lists exactly the docs pages, the API pages and the other routes of the specification', () => {
    const expected = new Set([...siteRoutes.map((route) => route.path), ...docsPageRoutes(), ...apiPages.map((page) => page.path), SEARCH_PAGE_PATH]);
    const listed = locations.map((location) => location.slice(site.url.length));
    expect([...listed].sort()).toEqual([...expected].sort());
  });

  it('leaves out the not-found page', () => {
    expect(locations.some((location) => location.includes('404'))).toBe(false);
  });
});
