/**
 * SITE-REQUIREMENTS.md, "Head tags and web manifest": theme colour #111412, a web manifest and the Apple
 * startup images, declared in the head of every page and each pointing at a file of the build.
 */
import { existsSync } from 'node:fs';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { site } from '@weft-internal/docs-model/site';
import { siteRoutes } from '../e2e/support/site-routes';
import {
  attributeOf,
  assertBuildExists,
  buildPath,
  findTags,
  headOf,
  readRouteHtml,
  type Tag,
} from './support/build-output';

beforeAll(assertBuildExists);

const sampleRoutes = ['/', '/docs/getting-started/', '/api/classes/Runtime/', '/plugins/'];

function headTags(route: string): { links: Tag[]; metas: Tag[] } {
  const head = headOf(readRouteHtml(route));
  return { links: findTags(head, 'link'), metas: findTags(head, 'meta') };
}

const linksWithRel = (links: Tag[], rel: string): Tag[] =>
  links.filter((tag) => tag.attributes.rel === rel);

describe.each(sampleRoutes)('head of %s', (route) => {
  it('links the web manifest', () => {
    const manifests = linksWithRel(headTags(route).links, 'manifest');
    expect(manifests).toHaveLength(1);
    const href = attributeOf(manifests[0]!, 'href');
    expect(href).toBe('/manifest.json');
    expect(existsSync(buildPath(href))).toBe(true);
  });

  it('sets theme-color #111412', () => {
    const themeColors = headTags(route).metas.filter((tag) => tag.attributes.name === 'theme-color');
    expect(themeColors.map((tag) => tag.attributes.content)).toEqual(['#111412']);
    expect(site.themeColor).toBe('#111412');
  });

  it('links an existing apple-touch-icon', () => {
    const icons = linksWithRel(headTags(route).links, 'apple-touch-icon');
    expect(icons).toHaveLength(1);
    const href = attributeOf(icons[0]!, 'href');
    expect(existsSync(buildPath(href)), href).toBe(true);
  });

  it('links existing apple-touch-startup-images', () => {
    const images = linksWithRel(headTags(route).links, 'apple-touch-startup-image');
    expect(images.length).toBeGreaterThanOrEqual(10);
    for (const image of images) {
      const href = attributeOf(image, 'href');
      expect(existsSync(buildPath(href)), href).toBe(true);
      expect(image.attributes.media).toMatch(/device-width/);
    }
  });
});

describe('startup images', () => {
  it('each matches the screen its media query names, in device pixels', async () => {
    const images = linksWithRel(headTags('/').links, 'apple-touch-startup-image');
    const seenMedia = new Set<string>();
    for (const image of images) {
      const media = attributeOf(image, 'media');
      const href = attributeOf(image, 'href');
      expect(seenMedia.has(media), `duplicate media ${media}`).toBe(false);
      seenMedia.add(media);
      const match =
        /device-width: (\d+)px\) and \(device-height: (\d+)px\) and \(-webkit-device-pixel-ratio: (\d)\) and \(orientation: (portrait|landscape)\)/.exec(
          media,
        );
      expect(match, media).not.toBeNull();
      const [, width, height, ratio, orientation] = match!;
      const portrait = [Number(width) * Number(ratio), Number(height) * Number(ratio)];
      const expected = orientation === 'portrait' ? portrait : [portrait[1], portrait[0]];
      const metadata = await sharp(buildPath(href)).metadata();
      expect([metadata.width, metadata.height], href).toEqual(expected);
    }
  });

  it('the apple-touch-icon is a 180 px square PNG', async () => {
    const [icon] = linksWithRel(headTags('/').links, 'apple-touch-icon');
    expect(icon).toBeDefined();
    const metadata = await sharp(buildPath(attributeOf(icon!, 'href'))).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(['png', 180, 180]);
  });
});

it('every route page declares the manifest and theme colour', () => {
  for (const { path } of siteRoutes) {
    const { links, metas } = headTags(path);
    expect(linksWithRel(links, 'manifest'), path).toHaveLength(1);
    expect(
      metas.some((tag) => tag.attributes.name === 'theme-color' && tag.attributes.content === '#111412'),
      path,
    ).toBe(true);
  }
});
