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
 *
 * The docs plugins know their pages' titles once content is loaded, before the bundler starts:
 * those cards are drawn into the cache then, while the bundler compiles and the build waits for
 * the samples' hover types with a processor to spare, so that a first build's postBuild finds
 * them drawn. postBuild still reads every title from the page's HTML; a card drawn ahead with a
 * title the page does not show is not used, and leaves the cache with the other unused ones.
 */
import { createHash } from 'node:crypto';
import { copyFile, mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import type { AllContent, LoadContext, Plugin } from '@docusaurus/types';
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

/** A page's route and the title its docs plugin gives it. */
interface KnownTitle {
  route: string;
  title: string;
}

/** The pages of every docs plugin instance in `allContent`, with their titles. */
export function docsPageTitles(allContent: AllContent): KnownTitle[] {
  const titles: KnownTitle[] = [];
  for (const instance of Object.values(allContent['docusaurus-plugin-content-docs'] ?? {})) {
    const { loadedVersions = [] } = instance as {
      loadedVersions?: { docs?: { permalink: string; title: string }[] }[];
    };
    for (const { docs = [] } of loadedVersions) {
      for (const { permalink, title } of docs) titles.push({ route: permalink, title });
    }
  }
  return titles;
}

/** Runs `work` on every item, `concurrency` at a time. */
async function eachAtOnce<T>(
  items: Iterable<T>,
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  // The shared iterator hands each item to exactly one of the runners.
  const pending = items[Symbol.iterator]();
  const runner = async (): Promise<void> => {
    for (let next = pending.next(); !next.done; next = pending.next()) await work(next.value);
  };
  await Promise.all(Array.from({ length: concurrency }, runner));
}

const PNG_OPTIONS = { compressionLevel: 9 } as const;

/** The installed sharp's version: a new libvips may draw the same SVG differently. */
function sharpVersion(): string {
  const manifest = readFileSync(require.resolve('sharp/package.json'), 'utf8');
  return (JSON.parse(manifest) as { version: string }).version;
}

export default function socialCards(context: LoadContext, options: SocialCardsOptions): Plugin {
  const { siteConfig } = context;
  const cacheDir = path.join(context.siteDir, '.cache', 'social-cards');
  const renderer = `sharp@${sharpVersion()} ${JSON.stringify(PNG_OPTIONS)}`;

  /** The card's file in the cache, drawn there unless it already is. */
  async function cachedCard(svg: string): Promise<string> {
    const key = createHash('sha256').update(renderer).update('\0').update(svg).digest('hex');
    const cacheFile = `${key.slice(0, 32)}.png`;
    const cached = path.join(cacheDir, cacheFile);
    if (!existsSync(cached)) {
      const png = await sharp(Buffer.from(svg)).png(PNG_OPTIONS).toBuffer();
      await mkdir(cacheDir, { recursive: true });
      // Written whole under another name first: a reader never sees half a card.
      const partial = `${cached}.${process.pid}.partial`;
      await writeFile(partial, png);
      await rename(partial, cached);
    }
    return cacheFile;
  }

  const svgFor = (route: string, title: string): string =>
    cardSvg({
      title,
      section: sectionOf(route, options),
      siteTitle: siteConfig.title,
      siteHost: new URL(siteConfig.url).host,
    });

  /** The cards drawn ahead, once content is loaded; settled (never rejected) when done. */
  let drawingAhead: Promise<void> = Promise.resolve();

  async function pruneCache(used: ReadonlySet<string>): Promise<void> {
    const stale = (await readdir(cacheDir)).filter((file) => !used.has(file));
    await Promise.all(stale.map((file) => rm(path.join(cacheDir, file), { force: true })));
  }

  return {
    name: 'social-cards',
    allContentLoaded({ allContent }) {
      const known = docsPageTitles(allContent);
      // Not awaited: the bundler starts meanwhile. sharp draws on libuv's threads, so one card
      // in hand per processor keeps them busy. A card that fails here is drawn again, and its
      // error reported, by postBuild.
      drawingAhead = eachAtOnce(known, availableParallelism(), async ({ route, title }) => {
        await cachedCard(svgFor(route, title));
      }).catch(() => undefined);
    },
    async postBuild({ outDir, routesPaths }) {
      await drawingAhead;
      const routes = [...new Set(routesPaths)].filter((route) =>
        existsSync(routeHtmlFile(outDir, route)),
      );
      const used = new Set<string>();
      await eachAtOnce(routes, availableParallelism(), async (route) => {
        const html = await readFile(routeHtmlFile(outDir, route), 'utf8');
        const title = pageTitle(html, siteConfig.title) ?? siteConfig.title;
        const cacheFile = await cachedCard(svgFor(route, title));
        const target = path.join(outDir, socialCardPath(route));
        await mkdir(path.dirname(target), { recursive: true });
        await copyFile(path.join(cacheDir, cacheFile), target);
        used.add(cacheFile);
      });
      if (used.size > 0) {
        await pruneCache(used);
      }
    },
  };
}
