/**
 * The social cards' cache (src/plugins/social-cards): a card drawn the same way as in the last
 * build is copied from .cache/social-cards/ instead of being drawn again, one drawn differently
 * is drawn, and the cards no page uses any more leave the cache. Run on a site folder of the
 * test's own, with one page.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import socialCards, {
  cardCacheFile,
  PNG_OPTIONS,
  sharpVersion,
} from '../../src/plugins/social-cards';
import { socialCardPath } from '../../src/plugins/social-cards/card-path';
import { cardSvg } from '../../src/plugins/social-cards/template';

describe('the social cards between builds', () => {
  let siteDir: string;
  let outDir: string;
  let plugin: Plugin;
  const cacheDir = (): string => path.join(siteDir, '.cache', 'social-cards');
  const card = (): string => path.join(outDir, socialCardPath('/docs/page/'));

  /** A build of one page titled `title`, then the plugin's postBuild. */
  async function build(title: string): Promise<void> {
    mkdirSync(path.join(outDir, 'docs', 'page'), { recursive: true });
    writeFileSync(
      path.join(outDir, 'docs', 'page', 'index.html'),
      `<html><head><title>${title} | Weft</title></head></html>`,
    );
    await plugin.postBuild?.({ outDir, routesPaths: ['/docs/page/'] } as never);
  }

  beforeEach(() => {
    siteDir = mkdtempSync(path.join(tmpdir(), 'weft-social-cards-'));
    outDir = path.join(siteDir, 'build');
    const context = {
      siteDir,
      siteConfig: { url: 'https://example.org', title: 'Weft' },
    } as unknown as LoadContext;
    plugin = socialCards(context, {
      sections: [{ prefix: '/docs/', label: 'Documentation' }],
      defaultSection: 'Weft',
    });
  });
  afterEach(() => rmSync(siteDir, { recursive: true, force: true }));

  it('copies an unchanged card from the cache, draws a changed one and drops the card no page uses [claim:cg-social-card-cache]', async () => {
    await build('Getting started');
    const [first, ...others] = readdirSync(cacheDir());
    expect(others).toEqual([]);
    expect(readFileSync(card()).subarray(1, 4).toString()).toBe('PNG');

    // Marked in the cache: a card copied from there carries the mark, a card drawn again would not.
    writeFileSync(path.join(cacheDir(), first!), 'cached card');
    rmSync(outDir, { recursive: true });
    await build('Getting started');
    expect(readFileSync(card(), 'utf8')).toBe('cached card');

    await build('Getting started again');
    expect(readFileSync(card()).subarray(1, 4).toString()).toBe('PNG');
    const cached = readdirSync(cacheDir());
    expect(cached).toHaveLength(1);
    expect(cached).not.toContain(first);
  }, 30_000);

  it("names a cached card by its SVG, sharp's version and the PNG settings [claim:cg-social-card-cache]", async () => {
    await build('Getting started');
    const text = {
      title: 'Getting started',
      section: 'Documentation',
      siteTitle: 'Weft',
      siteHost: 'example.org',
    };
    const svg = cardSvg(text);
    // The plugin's cache file is the one these inputs name.
    expect(readdirSync(cacheDir())).toEqual([cardCacheFile(svg, sharpVersion())]);
    const name = cardCacheFile(svg, '1.0.0');
    expect(cardCacheFile(svg, '1.0.0'), 'nothing changed').toBe(name);
    expect(cardCacheFile(svg, '1.0.1'), "sharp's version").not.toBe(name);
    expect(
      cardCacheFile(svg, '1.0.0', { ...PNG_OPTIONS, compressionLevel: 6 }),
      'PNG settings',
    ).not.toBe(name);
    expect(cardCacheFile(cardSvg({ ...text, section: 'API' }), '1.0.0'), 'the section').not.toBe(
      name,
    );
    expect(cardCacheFile(cardSvg({ ...text, title: 'Other' }), '1.0.0'), 'the title').not.toBe(
      name,
    );
  }, 30_000);
});
