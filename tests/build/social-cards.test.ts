/**
 * Social cards: every page of the build declares an Open Graph / Twitter card whose image was
 * drawn at build time for that page (src/plugins/social-cards), at 1200 x 630.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { site } from '@weft-internal/docs-model/site';
import { assertBuildExists, buildDir, buildPath, findTags, headOf } from './support/build-output';
import { readFileSync, existsSync } from 'node:fs';

/** Every HTML page of the build, as the route it is served at ("/docs/", "/404.html"). */
function builtPages(): string[] {
  return (readdirSync(buildDir, { recursive: true }) as string[])
    .map((file) => file.split(path.sep).join('/'))
    .filter((file) => file.endsWith('.html'))
    .map((file) => (file.endsWith('/index.html') || file === 'index.html' ? `/${file.slice(0, -'index.html'.length)}` : `/${file}`))
    .sort();
}

function metaContent(html: string, key: string): string[] {
  return findTags(headOf(html), 'meta')
    .filter((tag) => tag.attributes.property === key || tag.attributes.name === key)
    .map((tag) => tag.attributes.content ?? '');
}

function htmlOf(route: string): string {
  return readFileSync(route.endsWith('.html') ? buildPath(route) : path.join(buildPath(route), 'index.html'), 'utf8');
}

let routes: string[];

beforeAll(() => {
  assertBuildExists();
  routes = builtPages();
});

describe('social cards', () => {
  it('cover the main routes, every docs page and every API page', () => {
    for (const route of ['/', '/plugins/', '/docs/', '/docs/bounty-program/', '/api/', '/api/classes/Runtime/', '/404.html']) {
      expect(routes, route).toContain(route);
    }
    expect(routes.filter((route) => route.startsWith('/api/')).length).toBeGreaterThan(48);
  });

  it('every page has og:title, og:description and twitter:card summary_large_image', () => {
    for (const route of routes) {
      const html = htmlOf(route);
      const [title] = metaContent(html, 'og:title');
      expect(title, `${route} og:title`).toBeTruthy();
      const [description] = metaContent(html, 'og:description');
      expect(description, `${route} og:description`).toBeTruthy();
      expect(metaContent(html, 'twitter:card'), route).toEqual(['summary_large_image']);
    }
  });

  it('every page points og:image and twitter:image at its own absolute card URL', () => {
    const images = new Set<string>();
    for (const route of routes) {
      const html = htmlOf(route);
      const ogImages = metaContent(html, 'og:image');
      expect(ogImages, `${route} og:image`).toHaveLength(1);
      expect(metaContent(html, 'twitter:image'), route).toEqual(ogImages);
      const url = new URL(ogImages[0] ?? '');
      expect(url.origin, route).toBe(site.url);
      expect(existsSync(buildPath(url.pathname)), `${route}: ${url.pathname}`).toBe(true);
      images.add(url.pathname);
    }
    // One card per page, not a shared default.
    expect(images.size).toBe(routes.length);
  });

  it('every card is a 1200 x 630 PNG', async () => {
    for (const route of routes) {
      const [image] = metaContent(htmlOf(route), 'og:image');
      const metadata = await sharp(buildPath(new URL(image ?? '').pathname)).metadata();
      expect([metadata.format, metadata.width, metadata.height], route).toEqual(['png', 1200, 630]);
    }
  });

  it('cards differ with the page title', async () => {
    const [a, b] = await Promise.all(
      ['/docs/getting-started/', '/api/classes/Runtime/'].map(async (route) => {
        const [image] = metaContent(htmlOf(route), 'og:image');
        return sharp(buildPath(new URL(image ?? '').pathname)).raw().toBuffer();
      }),
    );
    expect(a?.equals(b ?? Buffer.alloc(0))).toBe(false);
  });
});
