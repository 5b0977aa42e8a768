/**
 * Every icon and Apple startup image the site declares, in one list.
 *
 * `tooling/assets/generate-pwa-assets.ts` renders these files from static/img/logo.svg,
 * `docusaurus.config.ts` turns them into <head> tags, and the web manifest is
 * written from `webManifest()`. Adding a device here is the only step needed to
 * support it.
 */
import { site } from '@weft-internal/docs-model/site';

/** Source of every generated image. */
export const LOGO_SOURCE = 'static/img/logo.svg';
/** Output folder under static/ (gitignored, rebuilt by `npm start` and `npm run build`). */
export const PWA_OUT_DIR = 'img/pwa';
export const MANIFEST_PATH = 'manifest.json';

export type IconPurpose = 'any' | 'maskable';

export interface IconSpec {
  file: string;
  size: number;
  /** Share of the canvas the logo covers; maskable icons keep to the safe zone. */
  scale: number;
  purpose: IconPurpose;
  /** Listed in the web manifest (favicons and the Apple icon are not). */
  inManifest: boolean;
}

export const icons: readonly IconSpec[] = [
  { file: 'favicon-16x16.png', size: 16, scale: 1, purpose: 'any', inManifest: false },
  { file: 'favicon-32x32.png', size: 32, scale: 1, purpose: 'any', inManifest: false },
  // iOS draws its own rounded corners over an opaque square.
  { file: 'apple-touch-icon.png', size: 180, scale: 0.86, purpose: 'any', inManifest: false },
  { file: 'icon-192x192.png', size: 192, scale: 1, purpose: 'any', inManifest: true },
  { file: 'icon-256x256.png', size: 256, scale: 1, purpose: 'any', inManifest: true },
  { file: 'icon-384x384.png', size: 384, scale: 1, purpose: 'any', inManifest: true },
  { file: 'icon-512x512.png', size: 512, scale: 1, purpose: 'any', inManifest: true },
  // Maskable icons may be cropped to a circle of 80% diameter; the logo stays inside it.
  { file: 'maskable-192x192.png', size: 192, scale: 0.7, purpose: 'maskable', inManifest: true },
  { file: 'maskable-512x512.png', size: 512, scale: 0.7, purpose: 'maskable', inManifest: true },
];

export const APPLE_TOUCH_ICON = 'apple-touch-icon.png';
export const FAVICON = 'favicon-32x32.png';

/** A device's screen in CSS pixels (portrait) and its pixel ratio. */
export interface StartupDevice {
  name: string;
  width: number;
  height: number;
  pixelRatio: 2 | 3;
}

/** Current iPhone and iPad screens; devices sharing a screen share an entry. */
export const startupDevices: readonly StartupDevice[] = [
  { name: 'iPhone 16 Pro Max', width: 440, height: 956, pixelRatio: 3 },
  { name: 'iPhone 16 Pro', width: 402, height: 874, pixelRatio: 3 },
  {
    name: 'iPhone 16 Plus, 15 Plus, 15 Pro Max, 14 Pro Max',
    width: 430,
    height: 932,
    pixelRatio: 3,
  },
  { name: 'iPhone 16, 15, 15 Pro, 14 Pro', width: 393, height: 852, pixelRatio: 3 },
  { name: 'iPhone 16e, 14, 13, 13 Pro, 12, 12 Pro', width: 390, height: 844, pixelRatio: 3 },
  { name: 'iPhone 14 Plus, 13 Pro Max, 12 Pro Max', width: 428, height: 926, pixelRatio: 3 },
  { name: 'iPhone 13 mini, 12 mini, 11 Pro, XS, X', width: 375, height: 812, pixelRatio: 3 },
  { name: 'iPhone 11 Pro Max, XS Max', width: 414, height: 896, pixelRatio: 3 },
  { name: 'iPhone 11, XR', width: 414, height: 896, pixelRatio: 2 },
  { name: 'iPhone SE (2nd and 3rd generation), 8', width: 375, height: 667, pixelRatio: 2 },
  { name: 'iPad Pro 13-inch (M4)', width: 1032, height: 1376, pixelRatio: 2 },
  { name: 'iPad Pro 12.9-inch, iPad Air 13-inch', width: 1024, height: 1366, pixelRatio: 2 },
  { name: 'iPad Pro 11-inch (M4)', width: 834, height: 1210, pixelRatio: 2 },
  { name: 'iPad Pro 11-inch', width: 834, height: 1194, pixelRatio: 2 },
  {
    name: 'iPad Air 11-inch, iPad Air 10.9-inch, iPad (10th generation)',
    width: 820,
    height: 1180,
    pixelRatio: 2,
  },
  { name: 'iPad 10.2-inch', width: 810, height: 1080, pixelRatio: 2 },
  { name: 'iPad mini (6th generation and later)', width: 744, height: 1133, pixelRatio: 2 },
];

export type Orientation = 'portrait' | 'landscape';

export interface StartupImage {
  file: string;
  /** Image size in device pixels. */
  width: number;
  height: number;
  media: string;
}

/** One image per device and orientation, with the media query iOS matches on. */
export function startupImages(): StartupImage[] {
  const orientations: Orientation[] = ['portrait', 'landscape'];
  return startupDevices.flatMap((device) =>
    orientations.map((orientation) => {
      const portraitWidth = device.width * device.pixelRatio;
      const portraitHeight = device.height * device.pixelRatio;
      const [width, height] =
        orientation === 'portrait'
          ? [portraitWidth, portraitHeight]
          : [portraitHeight, portraitWidth];
      // iOS reports device-width and device-height in portrait whatever the orientation.
      const media =
        `screen and (device-width: ${device.width}px) and (device-height: ${device.height}px)` +
        ` and (-webkit-device-pixel-ratio: ${device.pixelRatio}) and (orientation: ${orientation})`;
      return { file: `startup/apple-splash-${width}x${height}.png`, width, height, media };
    }),
  );
}

/** Site-absolute URL of a generated asset. */
export function assetUrl(file: string): string {
  return `${site.baseUrl}${PWA_OUT_DIR}/${file}`;
}

export interface HeadTag {
  tagName: 'link' | 'meta';
  [attribute: string]: string;
}

/** The tags plugin-pwa adds to every page. */
export function pwaHeadTags(): HeadTag[] {
  return [
    { tagName: 'link', rel: 'manifest', href: `${site.baseUrl}${MANIFEST_PATH}` },
    { tagName: 'meta', name: 'theme-color', content: site.themeColor },
    { tagName: 'meta', name: 'mobile-web-app-capable', content: 'yes' },
    { tagName: 'meta', name: 'apple-mobile-web-app-capable', content: 'yes' },
    // The site is dark only, so the status bar shows over the page background.
    {
      tagName: 'meta',
      name: 'apple-mobile-web-app-status-bar-style',
      content: 'black-translucent',
    },
    { tagName: 'meta', name: 'apple-mobile-web-app-title', content: site.title },
    { tagName: 'link', rel: 'apple-touch-icon', href: assetUrl(APPLE_TOUCH_ICON) },
    { tagName: 'link', rel: 'icon', type: 'image/svg+xml', href: `${site.baseUrl}img/logo.svg` },
    ...startupImages().map((image): HeadTag => ({
      tagName: 'link',
      rel: 'apple-touch-startup-image',
      href: assetUrl(image.file),
      media: image.media,
    })),
  ];
}

export interface WebManifest {
  name: string;
  short_name: string;
  description: string;
  start_url: string;
  scope: string;
  display: 'standalone';
  theme_color: string;
  background_color: string;
  icons: { src: string; sizes: string; type: 'image/png'; purpose: IconPurpose }[];
}

export function webManifest(): WebManifest {
  return {
    name: site.title,
    short_name: site.title,
    description: site.description,
    start_url: site.baseUrl,
    scope: site.baseUrl,
    display: 'standalone',
    theme_color: site.themeColor,
    background_color: site.themeColor,
    icons: icons
      .filter((icon) => icon.inManifest)
      .map((icon) => ({
        src: assetUrl(icon.file),
        sizes: `${icon.size}x${icon.size}`,
        type: 'image/png',
        purpose: icon.purpose,
      })),
  };
}

/** The manifest exactly as written to static/manifest.json. */
export function webManifestJson(): string {
  return `${JSON.stringify(webManifest(), null, 2)}\n`;
}
