/**
 * Reads the hover types of every sample a docs page shows into the hover-type cache
 * (src/remark/type-hovers/hover-cache.ts). `npm run build` runs it in a process of its own while
 * Docusaurus loads (scripts/build-site.ts), and the rehype step waits for its entries
 * (src/remark/type-hovers/pending.ts) instead of loading TypeScript beside the bundler, so no
 * process holds both. Samples whose inputs did not change are not read again.
 *
 * Run: npm run generate:assets -- hover-types (also run by `npm run build`, through
 * scripts/build-site.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MAGIC_COMMENT,
  OPT_OUT_FLAG,
  sampleFileOf,
  TYPESCRIPT,
} from '../../src/remark/type-hovers';
import { withoutTitleClaimTags } from '@weft-internal/docs-model/claim-comments';
import { hoverCache } from '../../src/remark/type-hovers/hover-cache';
import { runWhenMain } from '../run-when-main';

const siteDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const FENCE = /^[ \t]*```(\w+)[ \t]+([^\n]*)$/gm;

function pagesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.mdx?$/.test(entry.name))
    .map((entry) => path.join(entry.parentPath, entry.name));
}

/**
 * The sample files the docs show with hover types, as the rehype step selects them, each with
 * the pages (relative to the site) that show it.
 */
export function samplesWithHoverTypes(docsDir = path.join(siteDir, 'docs')): Map<string, string[]> {
  const samples = new Map<string, string[]>();
  for (const page of pagesUnder(docsDir).sort()) {
    for (const [, language = '', meta = ''] of readFileSync(page, 'utf8').matchAll(FENCE)) {
      const file = TYPESCRIPT.has(language) ? sampleFileOf(meta, siteDir) : undefined;
      if (file && !/#L\d/.test(meta) && !meta.split(/\s+/).includes(OPT_OUT_FLAG)) {
        const pages = samples.get(file) ?? [];
        const shownOn = path.relative(siteDir, page);
        if (!pages.includes(shownOn)) pages.push(shownOn);
        samples.set(file, pages);
      }
    }
  }
  return new Map([...samples].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/**
 * A sample's text as the rehype step sees it: remark-code-import drops the file's final newline
 * and the Markdown-to-HTML step adds one back, so it is the file as it is, less the claim ids of
 * its tests' titles, which the page drops (src/remark/sample-claim-tags.ts).
 */
export function readShownSample(file: string): string {
  return withoutTitleClaimTags(readFileSync(file, 'utf8'));
}

/** A sample whose types the cache lacks: its text and the pages that show it. */
export interface UncachedSample {
  code: string;
  pages: string[];
}

/**
 * The samples the pages under `docsDir` show with hover types whose types the cache lacks, and
 * how many it holds.
 */
export function uncachedSamples(
  docsDir = path.join(siteDir, 'docs'),
  readSample: (file: string) => string = readShownSample,
): { uncached: Map<string, UncachedSample>; cached: number } {
  const uncached = new Map<string, UncachedSample>();
  let cached = 0;
  for (const [file, pages] of samplesWithHoverTypes(docsDir)) {
    const code = readSample(file);
    if (MAGIC_COMMENT.test(code)) {
      continue;
    }
    if (hoverCache().read(file, code) !== undefined) {
      cached += 1;
    } else {
      uncached.set(file, { code, pages });
    }
  }
  return { uncached, cached };
}

/**
 * Reads the types of every sample the pages under `docsDir` show. A sample that does not
 * type-check stops it with the pages that show the sample, its path and TypeScript's errors, as
 * the rehype step would name them had the build reached it.
 */
export async function generateHoverTypes(
  docsDir = path.join(siteDir, 'docs'),
  readSample: (file: string) => string = readShownSample,
): Promise<void> {
  const started = performance.now();
  const { uncached, cached } = uncachedSamples(docsDir, readSample);
  let expected = false;
  for (const [file, { code, pages }] of uncached) {
    // TypeScript holds the thread for the whole sample: yield first, so the generators running
    // beside this one (generate-assets.ts) start their next step, and sharp's work goes on
    // libuv's threads while TypeScript reads.
    await new Promise((resolve) => setImmediate(resolve));
    try {
      // Loaded for the first sample the cache lacks: a build with every sample cached never loads TypeScript.
      const { expectSamples, sampleTypes } =
        await import('../../src/remark/type-hovers/sample-types');
      if (!expected) {
        expectSamples([...uncached].map(([sample, { code: text }]) => [sample, text] as const));
        expected = true;
      }
      sampleTypes(code, file);
    } catch (error) {
      throw new Error(`Hover types for ${pages.join(', ')}: ${(error as Error).message}`, {
        cause: error,
      });
    }
  }
  console.info(
    `hover types: ${uncached.size} samples read by TypeScript and ${cached} found in the cache, in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
}

runWhenMain(import.meta.url, 'read the hover types of the samples', () => generateHoverTypes());
