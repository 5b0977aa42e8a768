/**
 * The packages cannot import the site, so the core keeps its own copy of the errors page's
 * address for `WeftError.docsUrl` (packages/core/src/errors/error-registry.ts). It must be the
 * address the site publishes the page at: the site's URL and base URL (libs/docs-model/site.ts), the
 * docs route and the page's path, with the trailing slash the site uses. The anchors it appends
 * are checked against the built page (tests/build/errors-anchors.test.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ERRORS_REFERENCE_URL } from '../../packages/core/src/errors/error-registry';
import { site } from '@weft-internal/docs-model/site';
import { readDoc } from './support/doc-tables';

const config = readFileSync(join(__dirname, '..', '..', 'docusaurus.config.ts'), 'utf8');

describe('the errors page address of WeftError.docsUrl', () => {
  it('is where the site publishes docs/reference/errors.md', () => {
    const route = /path: 'docs',\s*routeBasePath: '([^']+)'/.exec(config)?.[1];
    expect(route).toBeDefined();
    expect(config).toMatch(/trailingSlash: true/);
    expect(readDoc('reference/errors.md')).not.toMatch(/^slug:/m);
    expect(ERRORS_REFERENCE_URL).toBe(`${site.url}${site.baseUrl}${route}/reference/errors/`);
  });
});
