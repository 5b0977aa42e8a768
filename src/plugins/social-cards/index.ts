/**
 * Local Docusaurus plugin: draws the Open Graph / Twitter card of every route at build time.
 *
 * After the pages are rendered, each route's title is read from its HTML and drawn with its
 * section on an SVG template, which sharp turns into a 1200 x 630 PNG at the path
 * socialCardPath() gives. The head tags pointing at the cards come from src/theme/SiteMetadata.
 * A card is redrawn only when its text, the PNG settings or sharp's version change: the cards
 * are kept in .cache/social-cards/ (gitignored, with the generated-asset stamps), keyed by a hash
 * of all three. `docusaurus clear` empties node_modules/.cache but not this folder, so a cold
 * build does not redraw 100-odd unchanged cards (about 7 s of its postBuild). Cards no route of
 * the build uses any more are deleted from the cache.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import sharp from 'sharp';
import { socialCardPath } from './card-path';
import { cardSvg } from './template';

export interface SocialCardsOptions {
  /**
   * Section label by route prefix (or the whole route, when `exact`); the first match wins.
   */
  sections: { prefix: string; label: string; exact?: boolean }[];
  /** Label of routes no prefix matches. */
  defaultSection: string;
}

/** The HTML file a route is written to (trailing-slash routes, and /404.html). */
function routeHtmlFile(outDir: string, routePath: string): string {
  return routePath.endsWith('.html')
    ? path.join(outDir, routePath)
    : path.join(outDir, routePath, 'index.html');
}

const entities: Record<string, string> = {
  '&amp;': '&',
  '&lt;': '<',
  '&gt;': '>',
  '&quot;': '"',
  '&#39;': "'",
  '&#x27;': "'",
};

/** The page's <title>, without the " | {site title}" suffix Docusaurus appends. */
export function pageTitle(html: string, siteTitle: string): string | undefined {
  const match = /<title[^>]*>([^<]*)<\/title>/i.exec(html);
  if (!match) {
    return undefined;
  }
  const title = (match[1] ?? '').replace(
    /&(amp|lt|gt|quot|#39|#x27);/g,
    (entity) => entities[entity] ?? entity,
  );
  const suffix = ` | ${siteTitle}`;
  return title.endsWith(suffix) ? title.slice(0, -suffix.length) : title;
}

export function sectionOf(routePath: string, options: SocialCardsOptions): string {
  return (
    options.sections.find(({ prefix, exact }) =>
      exact ? routePath === prefix : routePath.startsWith(prefix),
    )?.label ?? options.defaultSection
  );
}

export const PNG_OPTIONS = { compressionLevel: 9 } as const;

/** The installed sharp's version: a new libvips may draw the same SVG differently. */
export function sharpVersion(): string {
  const manifest = readFileSync(require.resolve('sharp/package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

/**
 * The cache file of a card: named by a hash of everything that shapes its PNG, the SVG (the
 * template with the page's title and section), sharp's version and the PNG settings.
 */
export function cardCacheFile(
  svg: string,
  version: string,
  pngOptions: Readonly<Record<string, unknown>> = PNG_OPTIONS,
): string {
  const renderer = `sharp@${version} ${JSON.stringify(pngOptions)}`;
  const key = createHash('sha256').update(renderer).update('\0').update(svg).digest('hex');
  return `${key.slice(0, 32)}.png`;
}

export default function socialCards(context: LoadContext, options: SocialCardsOptions): Plugin {
  const { siteConfig } = context;
  const cacheDir = path.join(context.siteDir, '.cache', 'social-cards');
  const version = sharpVersion();

  /** Draws (or copies from the cache) one card; returns its cache file name. */
  async function drawCard(svg: string, target: string): Promise<string> {
    const cacheFile = cardCacheFile(svg, version);
    const cached = path.join(cacheDir, cacheFile);
    await mkdir(path.dirname(target), { recursive: true });
    if (existsSync(cached)) {
      await copyFile(cached, target);
      return cacheFile;
    }
    const png = await sharp(Buffer.from(svg)).png(PNG_OPTIONS).toBuffer();
    await mkdir(cacheDir, { recursive: true });
    await Promise.all([writeFile(cached, png), writeFile(target, png)]);
    return cacheFile;
  }

  async function pruneCache(used: ReadonlySet<string>): Promise<void> {
    const stale = (await readdir(cacheDir)).filter((file) => !used.has(file));
    await Promise.all(stale.map((file) => rm(path.join(cacheDir, file), { force: true })));
  }

  return {
    name: 'social-cards',
    async postBuild({ outDir, routesPaths }) {
      const siteHost = new URL(siteConfig.url).host;
      const routes = [...new Set(routesPaths)].filter((route) =>
        existsSync(routeHtmlFile(outDir, route)),
      );
      const used = new Set<string>();
      // sharp draws on libuv's threads: one card in hand per processor keeps them all busy,
      // while the routes' shared iterator hands each card to exactly one drawer.
      const pending = routes.values();
      const drawer = async (): Promise<void> => {
        for (const route of pending) {
          const html = await readFile(routeHtmlFile(outDir, route), 'utf8');
          const title = pageTitle(html, siteConfig.title) ?? siteConfig.title;
          const svg = cardSvg({
            title,
            section: sectionOf(route, options),
            siteTitle: siteConfig.title,
            siteHost,
          });
          used.add(await drawCard(svg, path.join(outDir, socialCardPath(route))));
        }
      };
      await Promise.all(Array.from({ length: availableParallelism() }, drawer));
      if (used.size > 0) {
        await pruneCache(used);
      }
    },
  };
}
