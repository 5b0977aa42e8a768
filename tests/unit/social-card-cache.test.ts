/**
 * The social cards' cache (src/plugins/social-cards): a card drawn the same way as in the last
 * build is copied from .cache/social-cards/ instead of being drawn again, one drawn differently
 * is drawn, and the cards no page uses any more leave the cache. The docs pages' cards are drawn
 * into the cache as soon as content is loaded. Run on a site folder of the test's own, with one
 * page.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadContext, Plugin } from '@docusaurus/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import socialCards from '../../src/plugins/social-cards';
import { socialCardPath } from '../../src/plugins/social-cards/card-path';

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

  /** What the docs plugin knows of the page once content is loaded: its title. */
  const docsContent = (title: string) =>
    ({
      'docusaurus-plugin-content-docs': {
        default: { loadedVersions: [{ docs: [{ permalink: '/docs/page/', title }] }] },
      },
    }) as never;

  it("draws a docs page's card into the cache once content is loaded, and the build copies it from there [claim:cg-social-cards-drawn-ahead]", async () => {
    await plugin.allContentLoaded?.({
      allContent: docsContent('Getting started'),
      actions: {} as never,
    });
    // postBuild waits for the cards drawn ahead: by its end the card is in the cache, drawn
    // before any HTML existed.
    await plugin.postBuild?.({ outDir, routesPaths: [] } as never);
    const [ahead, ...others] = readdirSync(cacheDir());
    expect(others).toEqual([]);
    writeFileSync(path.join(cacheDir(), ahead!), 'drawn ahead');

    await plugin.allContentLoaded?.({
      allContent: docsContent('Getting started'),
      actions: {} as never,
    });
    await build('Getting started');
    expect(readFileSync(card(), 'utf8')).toBe('drawn ahead');
  }, 30_000);

  it('draws the title the page shows when the docs plugin knew another, and drops the card drawn ahead [claim:cg-social-cards-drawn-ahead]', async () => {
    await plugin.allContentLoaded?.({
      allContent: docsContent('Draft title'),
      actions: {} as never,
    });
    await plugin.postBuild?.({ outDir, routesPaths: [] } as never);
    const [ahead] = readdirSync(cacheDir());

    await build('Getting started');
    expect(readFileSync(card()).subarray(1, 4).toString()).toBe('PNG');
    const cached = readdirSync(cacheDir());
    expect(cached).toHaveLength(1);
    expect(cached).not.toContain(ahead);
  }, 30_000);
});
