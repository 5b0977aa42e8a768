/**
 * Every WeftError's docsUrl ends with an anchor (the code in lower case, see
 * packages/core/src/errors/error-registry.ts); the built errors page must have an element with
 * that id for every code heading, or the links land at the top of the page.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ERRORS_REFERENCE_URL, errorDocsUrl } from '../../packages/core/src/errors/error-registry';
import { readDoc } from '../unit/support/doc-tables';
import { assertBuildExists, readRouteHtml } from './support/build-output';

beforeAll(assertBuildExists);

describe('errors page anchors', () => {
  it('has the id of every docsUrl anchor', () => {
    const route = new URL(ERRORS_REFERENCE_URL).pathname;
    const html = readRouteHtml(route);
    // The page's code headings are generated from the registries (tests/unit/errors-registry.test.ts).
    const codes = [...readDoc('reference/errors.md').matchAll(/^#+ (WEFT_[A-Z0-9_]+)$/gm)].map(
      (match) => match[1] ?? '',
    );
    expect(codes.length).toBeGreaterThan(40);
    const missing = codes.filter((code) => {
      const anchor = new URL(errorDocsUrl(code)).hash.slice(1);
      return !new RegExp(`id=["']?${anchor}["' >]`).test(html);
    });
    expect(missing).toEqual([]);
  });
});
