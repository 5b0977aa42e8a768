import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  icons,
  pwaHeadTags,
  startupDevices,
  startupImages,
  webManifestJson,
} from '../../src/pwa/assets';
import { site } from '@weft-internal/docs-model/site';

describe('PWA assets', () => {
  it('static/manifest.json is the one written from src/pwa/assets.ts [claim:cg-manifest-from-assets]', () => {
    // tooling/assets/generate-pwa-assets.ts rewrites it; run `npm run generate:assets -- pwa-assets` if this fails.
    const committed = readFileSync(path.join(__dirname, '../../static/manifest.json'), 'utf8');
    expect(committed).toBe(webManifestJson());
  });

  it('declares a maskable icon and a 512 px icon in the manifest', () => {
    const manifest = JSON.parse(webManifestJson()) as {
      icons: { sizes: string; purpose: string }[];
    };
    expect(manifest.icons.some((icon) => icon.purpose === 'maskable')).toBe(true);
    expect(manifest.icons.some((icon) => icon.sizes === '512x512')).toBe(true);
    expect(JSON.parse(webManifestJson())).toMatchObject({
      name: site.title,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      theme_color: site.themeColor,
      background_color: site.themeColor,
    });
  });

  it('keeps maskable icons inside the safe zone', () => {
    for (const icon of icons.filter((item) => item.purpose === 'maskable')) {
      expect(icon.scale).toBeLessThanOrEqual(0.8);
    }
  });

  it('has a portrait and a landscape startup image for every device, with unique media queries', () => {
    const images = startupImages();
    expect(images).toHaveLength(startupDevices.length * 2);
    expect(new Set(images.map((image) => image.media)).size).toBe(images.length);
    for (const image of images) {
      const portrait = image.media.includes('(orientation: portrait)');
      expect(portrait ? image.height > image.width : image.width > image.height).toBe(true);
    }
  });

  it('links every startup image from the page head', () => {
    const startupTags = pwaHeadTags().filter((tag) => tag.rel === 'apple-touch-startup-image');
    expect(startupTags).toHaveLength(startupImages().length);
  });
});
