/**
 * Renders every PWA icon, favicon and Apple startup image from
 * static/img/logo.svg into static/img/pwa/, and writes static/manifest.json.
 * The list of files comes from src/pwa/assets.ts.
 *
 * Run: npm run generate:assets -- pwa-assets (also run by `npm start` and `npm run build`). Skipped when its sources
 * are unchanged since the last run (libs/generated-assets/stamp.ts).
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type Sharp from 'sharp';
import {
  LOGO_SOURCE,
  MANIFEST_PATH,
  PWA_OUT_DIR,
  icons,
  startupImages,
  webManifestJson,
} from '../../src/pwa/assets';
import { site } from '@weft-internal/docs-model/site';
import { generateIfChanged } from '@weft-internal/generated-assets/stamp';
import { runWhenMain } from '../run-when-main';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const outDir = path.join(siteDir, 'static', PWA_OUT_DIR);

/** The logo, `logoSize` pixels wide, centred on an opaque canvas of the theme colour. */
async function renderOnBackground(
  sharp: typeof Sharp,
  logo: Buffer,
  width: number,
  height: number,
  logoSize: number,
): Promise<Sharp.Sharp> {
  const size = Math.max(1, Math.round(logoSize));
  const mark = await sharp(logo, { density: 72 * Math.max(1, size / 512) * 2 })
    .resize(size, size)
    .png()
    .toBuffer();
  return sharp({
    create: { width, height, channels: 4, background: site.themeColor },
  }).composite([
    {
      input: mark,
      left: Math.round((width - size) / 2),
      top: Math.round((height - size) / 2),
    },
  ]);
}

async function main(): Promise<void> {
  // Loaded only when the icons are stale: `npm start` runs this script first every time.
  const { default: sharp } = await import('sharp');
  const logo = await readFile(path.join(siteDir, LOGO_SOURCE));
  await mkdir(path.join(outDir, 'startup'), { recursive: true });

  const iconJobs = icons.map(async (icon) => {
    const target = path.join(outDir, icon.file);
    if (icon.scale === 1) {
      // Full-size icons keep the logo's own rounded corners and transparency.
      await sharp(logo, { density: 72 * Math.max(1, icon.size / 512) * 2 })
        .resize(icon.size, icon.size)
        .png()
        .toFile(target);
      return;
    }
    const image = await renderOnBackground(
      sharp,
      logo,
      icon.size,
      icon.size,
      icon.size * icon.scale,
    );
    await image.png().toFile(target);
  });

  const startupJobs = startupImages().map(async (image) => {
    const logoSize = Math.min(image.width, image.height) * 0.28;
    const rendered = await renderOnBackground(sharp, logo, image.width, image.height, logoSize);
    // Full colour, not a palette: quantising millions of pixels an image was most of this
    // generator's time, to save a few KB on an image that iOS fetches once, at install, and the
    // service worker does not precache.
    await rendered.png({ compressionLevel: 9 }).toFile(path.join(outDir, image.file));
  });

  await Promise.all([...iconJobs, ...startupJobs]);
  await writeFile(path.join(siteDir, 'static', MANIFEST_PATH), webManifestJson());

  console.log(
    `PWA assets: ${icons.length} icons and ${startupJobs.length} startup images in static/${PWA_OUT_DIR}/, static/${MANIFEST_PATH} written.`,
  );
}

export const pwaAssets = {
  name: 'pwa-assets',
  sources: [
    LOGO_SOURCE,
    'src/pwa/assets.ts',
    'libs/docs-model/site.ts',
    'tooling/assets/generate-pwa-assets.ts',
  ],
  packages: ['sharp'],
  outputs: [
    ...icons.map((icon) => `static/${PWA_OUT_DIR}/${icon.file}`),
    ...startupImages().map((image) => `static/${PWA_OUT_DIR}/${image.file}`),
    `static/${MANIFEST_PATH}`,
  ],
};

export const generatePwaAssets = (): Promise<void> => generateIfChanged(pwaAssets, main);

runWhenMain(import.meta.url, 'generate the PWA assets', generatePwaAssets);
