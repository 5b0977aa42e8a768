/**
 * Links to other sites open in a new tab, without giving that tab a handle on ours: what
 * Docusaurus's Link does for a Markdown link, the navbar and the footer. A page that writes a raw
 * `<a>` in MDX gets none of it, so every page of the build is read.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { assertBuildExists, buildDir, findTags } from './support/build-output';

beforeAll(assertBuildExists);

/** Every HTML page of the build, as a path under build/. */
function htmlPages(directory = buildDir): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(directory, entry.name);
    if (entry.isDirectory()) return htmlPages(full);
    return entry.name.endsWith('.html') ? [full] : [];
  });
}

describe('links to other sites', () => {
  it('open in a new tab with rel="noopener noreferrer" on every page', () => {
    const pages = htmlPages();
    expect(pages.length).toBeGreaterThan(100);
    const wrong: string[] = [];
    let external = 0;
    for (const file of pages) {
      // Scripts' strings are not links on the page (Docusaurus's banner for a wrong baseUrl).
      const html = readFileSync(file, 'utf8').replace(/<script\b[\s\S]*?<\/script>/gi, '');
      for (const tag of findTags(html, 'a')) {
        const href = tag.attributes.href ?? '';
        if (!/^https?:\/\//i.test(href)) continue;
        external += 1;
        const rel = (tag.attributes.rel ?? '').split(/\s+/);
        if (tag.attributes.target !== '_blank' || !rel.includes('noopener')) {
          wrong.push(`${path.relative(buildDir, file)}: ${href}`);
        }
      }
    }
    expect(external).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });
});
