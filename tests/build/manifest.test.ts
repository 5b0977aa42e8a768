/**
 * SITE-REQUIREMENTS.md, "Head tags and web manifest" and "Offline mode": the web manifest's fields, and every
 * icon it declares exists with the declared size.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { beforeAll, describe, expect, it } from 'vitest';
import { site } from '@weft-internal/docs-model/site';
import { assertBuildExists, buildDir, buildPath } from './support/build-output';

interface ManifestIcon {
  src: string;
  sizes: string;
  type?: string;
  purpose?: string;
}

interface Manifest {
  name: string;
  short_name: string;
  start_url: string;
  scope?: string;
  display: string;
  theme_color: string;
  background_color: string;
  icons: ManifestIcon[];
}

let manifest: Manifest;

beforeAll(() => {
  assertBuildExists();
  manifest = JSON.parse(readFileSync(path.join(buildDir, 'manifest.json'), 'utf8')) as Manifest;
});

describe('manifest.json', () => {
  it('names the site and starts at the base URL, standalone', () => {
    expect(manifest.name).toBe(site.title);
    expect(manifest.short_name).toBe(site.title);
    expect(manifest.short_name.length).toBeLessThanOrEqual(12);
    expect(manifest.start_url).toBe(site.baseUrl);
    expect(manifest.scope ?? site.baseUrl).toBe(site.baseUrl);
    expect(manifest.display).toBe('standalone');
  });

  it('uses the theme colour for the theme and the background', () => {
    expect(manifest.theme_color).toBe('#111412');
    expect(manifest.background_color).toBe(site.themeColor);
  });

  it('declares any-purpose icons of 192 and 512 px and a maskable one', () => {
    const any = manifest.icons.filter((icon) => (icon.purpose ?? 'any').split(' ').includes('any'));
    const maskable = manifest.icons.filter((icon) =>
      (icon.purpose ?? '').split(' ').includes('maskable'),
    );
    expect(any.map((icon) => icon.sizes)).toEqual(expect.arrayContaining(['192x192', '512x512']));
    expect(maskable.length).toBeGreaterThanOrEqual(1);
    expect(maskable.map((icon) => icon.sizes)).toContain('512x512');
  });

  it('each icon exists as a PNG of the declared size', async () => {
    for (const icon of manifest.icons) {
      const [width, height] = icon.sizes.split('x').map(Number);
      const metadata = await sharp(buildPath(icon.src)).metadata();
      expect([metadata.width, metadata.height], icon.src).toEqual([width, height]);
      expect(metadata.format, icon.src).toBe('png');
      expect(icon.type ?? 'image/png', icon.src).toBe('image/png');
    }
  });
});
