/**
 * Local Docusaurus plugin: draws the Open Graph / Twitter card of every route at build time.
 *
 * After the pages are rendered, each route's title is read from its HTML and drawn with its
 * section on an SVG template, which sharp turns into a 1200 x 630 PNG at the path
 * socialCardPath() gives. The head tags pointing at the cards come from src/theme/SiteMetadata.
 * A card is redrawn only when its text changes: the previous build's cards are kept in the
 * Docusaurus cache directory, keyed by a hash of the SVG.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
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
  const title = match[1].replace(/&(amp|lt|gt|quot|#39|#x27);/g, (entity) => entities[entity]);
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

export default function socialCards(context: LoadContext, options: SocialCardsOptions): Plugin {
  const { siteConfig } = context;
  const cacheDir = path.join(context.siteDir, 'node_modules', '.cache', 'social-cards');

  async function drawCard(svg: string, target: string): Promise<void> {
    const key = createHash('sha256').update(svg).digest('hex').slice(0, 32);
    const cached = path.join(cacheDir, `${key}.png`);
    await mkdir(path.dirname(target), { recursive: true });
    if (existsSync(cached)) {
      await copyFile(cached, target);
      return;
    }
    const png = await sharp(Buffer.from(svg)).png({ compressionLevel: 9 }).toBuffer();
    await mkdir(cacheDir, { recursive: true });
    await Promise.all([writeFile(cached, png), writeFile(target, png)]);
  }

  return {
    name: 'social-cards',
    async postBuild({ outDir, routesPaths }) {
      const siteHost = new URL(siteConfig.url).host;
      const routes = [...new Set(routesPaths)].filter((route) =>
        existsSync(routeHtmlFile(outDir, route)),
      );
      for (const route of routes) {
        const html = await readFile(routeHtmlFile(outDir, route), 'utf8');
        const title = pageTitle(html, siteConfig.title) ?? siteConfig.title;
        const svg = cardSvg({
          title,
          section: sectionOf(route, options),
          siteTitle: siteConfig.title,
          siteHost,
        });
        await drawCard(svg, path.join(outDir, socialCardPath(route)));
      }
    },
  };
}
