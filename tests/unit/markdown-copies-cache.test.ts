/**
 * What the Markdown copies' cache key holds besides the built pages
 * (src/plugins/markdown-copies): the converter's version and options, and the site's own
 * cleaning step, so a change to any of them converts every page again. Read from a site folder
 * of the test's own, with a stand-in converter package and cleaner.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  CLEANER_FILE,
  CONVERSION_FILE,
  copiesCacheSettings,
} from '../../src/plugins/markdown-copies';
import { outputCacheKey } from '../../src/plugins/shared/output-cache';

const siteRoot = path.resolve(__dirname, '../..');

describe("the Markdown copies' cache key", () => {
  let siteDir: string;
  let outDir: string;
  const site = { url: 'https://example.org', baseUrl: '/', trailingSlash: true };
  const converterManifest = (): string =>
    path.join(siteDir, 'node_modules', '@signalwire/docusaurus-plugin-llms-txt', 'package.json');
  const key = (options: Record<string, unknown> = { depth: 2 }): Promise<string> =>
    outputCacheKey({ outDir, settings: copiesCacheSettings(siteDir, options, site) });

  beforeEach(() => {
    siteDir = mkdtempSync(path.join(tmpdir(), 'weft-copies-key-'));
    outDir = path.join(siteDir, 'build');
    mkdirSync(path.join(outDir, 'docs'), { recursive: true });
    writeFileSync(path.join(outDir, 'docs', 'index.html'), '<article>A page</article>');
    mkdirSync(path.dirname(converterManifest()), { recursive: true });
    writeFileSync(converterManifest(), JSON.stringify({ version: '1.0.0' }));
    mkdirSync(path.dirname(path.join(siteDir, CLEANER_FILE)), { recursive: true });
    writeFileSync(path.join(siteDir, CLEANER_FILE), 'export default () => {};\n');
    writeFileSync(path.join(siteDir, CONVERSION_FILE), 'export const steps = [clean];\n');
  });
  afterEach(() => rmSync(siteDir, { recursive: true, force: true }));

  it('names the site’s own cleaning step and the module that hands it to the converter, which exist', () => {
    expect(readFileSync(path.join(siteRoot, CLEANER_FILE), 'utf8')).toContain('export default');
    expect(readFileSync(path.join(siteRoot, CONVERSION_FILE), 'utf8')).toMatch(
      /export function withCleaner\b[\s\S]*cleanDocusaurusHtml/,
    );
  });

  it("changes with the converter's version and options and with the cleaning step [claim:cg-output-cache-key]", async () => {
    const before = await key();
    expect(await key(), 'nothing changed').toBe(before);
    expect(await key({ depth: 3 }), "the converter's options").not.toBe(before);

    writeFileSync(converterManifest(), JSON.stringify({ version: '1.0.1' }));
    const newConverter = await key();
    expect(newConverter, "the converter's version").not.toBe(before);

    writeFileSync(path.join(siteDir, CLEANER_FILE), 'export default () => { /* more */ };\n');
    const newCleaner = await key();
    expect(newCleaner, 'the cleaning step').not.toBe(newConverter);

    // The cleaning step is handed to the converter in a module of its own, outside the options.
    writeFileSync(path.join(siteDir, CONVERSION_FILE), 'export const steps = [];\n');
    expect(await key(), 'how the cleaning step is handed to the converter').not.toBe(newCleaner);
  });
});
