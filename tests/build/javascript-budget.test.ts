/**
 * JavaScript shipped per page: the bytes of the <script src> files each page's HTML references
 * (Docusaurus's runtime and main bundle; route chunks load from those afterwards). A budget
 * catches a dependency or a theme change that suddenly grows what every visitor downloads.
 */
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  assertBuildExists,
  buildPath,
  fileSize,
  findTags,
  readRouteHtml,
} from './support/build-output';

/**
 * Budgets in bytes (uncompressed), about 15% above the figures measured on 2026-11-22:
 * 539,616 bytes on each of the four pages (runtime~main 7,436 + main 532,180; 169,263 gzipped).
 * Raise a budget deliberately, with the new measurement and date, when growth is intended.
 */
const JS_BUDGET_BYTES = {
  '/': 620_000,
  '/docs/getting-started/': 620_000,
  '/api/classes/Runtime/': 620_000,
  '/plugins/': 620_000,
} as const;

type BudgetedPage = keyof typeof JS_BUDGET_BYTES;

function scriptSources(route: string): string[] {
  return findTags(readRouteHtml(route), 'script')
    .map((tag) => tag.attributes.src)
    .filter((src): src is string => Boolean(src))
    .filter((src) => src.startsWith('/'));
}

beforeAll(assertBuildExists);

describe('JavaScript per page', () => {
  it.each(Object.keys(JS_BUDGET_BYTES) as BudgetedPage[])('%s stays within budget', (route) => {
    const sources = scriptSources(route);
    expect(sources.length).toBeGreaterThan(0);
    let raw = 0;
    let gzipped = 0;
    for (const src of sources) {
      raw += fileSize(src);
      gzipped += gzipSync(readFileSync(buildPath(src))).length;
    }
    console.info(
      `JS for ${route}: ${raw} bytes (${gzipped} gzipped) in ${sources.length} scripts; budget ${JS_BUDGET_BYTES[route]}`,
    );
    expect(raw).toBeLessThanOrEqual(JS_BUDGET_BYTES[route]);
  });
});
