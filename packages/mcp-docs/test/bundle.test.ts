/**
 * loadDocsBundle refuses what it cannot answer from, with the code the errors reference
 * explains and the file it tried.
 */
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, DEFAULT_BUNDLE_FILE, loadDocsBundle } from '../src/bundle.js';
import { PACKAGE_DIR, TOOLS_BUNDLE as bundle } from './support.js';

async function refusal(file: string): Promise<WeftError> {
  const error: unknown = await loadDocsBundle(file).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(WeftError.is(error, 'WEFT_DOCS_NO_DATA')).toBe(true);
  return error as WeftError;
}

describe('loadDocsBundle', () => {
  it('throws WEFT_DOCS_NO_DATA naming a missing file [claim:mcp-docs-readme-no-data] [claim:errors-docs-no-data-file] [claim:tsdoc-docs-bundle-load-throws] [claim:mcp-docs-readme-data-invalid]', async () => {
    expect((await refusal('/nonexistent/docs-bundle.json')).message).toContain(
      '/nonexistent/docs-bundle.json',
    );
  });

  it('throws WEFT_DOCS_NO_DATA for a file that is not JSON, or not a bundle of this format [claim:tsdoc-docs-bundle-format] [claim:mcp-docs-readme-no-data] [claim:tsdoc-docs-bundle-load-throws] [claim:mcp-docs-readme-data-invalid]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-bundle-'));
    await writeFile(join(dir, 'broken.json'), '{"format": 1, "pages": [');
    expect((await refusal(join(dir, 'broken.json'))).message).toContain('is not valid JSON');
    await writeFile(join(dir, 'old.json'), JSON.stringify({ format: 0, pages: [] }));
    expect((await refusal(join(dir, 'old.json'))).message).toContain(
      `is not a documentation bundle of format ${BUNDLE_FORMAT}`,
    );
  });

  it('reads the bundle from data/ in the package, beside dist/, by default [claim:tsdoc-docs-bundle-default-file]', () => {
    expect(dirname(DEFAULT_BUNDLE_FILE)).toBe(join(PACKAGE_DIR, 'data'));
  });

  it('refuses a file of the right format that lacks a list [claim:tsdoc-docs-bundle-load-throws]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-bundle-'));
    const file = join(dir, 'partial.json');
    await writeFile(file, JSON.stringify({ ...bundle, errors: undefined }));
    const error = await loadDocsBundle(file).catch((caught: unknown) => caught);
    expect(WeftError.is(error, 'WEFT_DOCS_NO_DATA')).toBe(true);
    expect((error as Error).message).toContain(`${file} is not a documentation bundle`);
  });

  it('refuses a file of the right format whose entries have another shape, naming the file and the field [claim:mcp-docs-readme-no-data] [claim:mcp-docs-readme-data-invalid]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-bundle-'));
    const cases: [string, object, string][] = [
      ['null-page.json', { ...bundle, pages: [null] }, '(pages.0:'],
      [
        'no-path.json',
        { ...bundle, pages: [{ ...bundle.pages[0], path: undefined }] },
        '(pages.0.path:',
      ],
      ['no-version.json', { ...bundle, version: undefined }, '(version:'],
      [
        'no-members.json',
        { ...bundle, symbols: [{ ...bundle.symbols[0], members: null }] },
        '(symbols.0.members:',
      ],
    ];
    for (const [name, content, field] of cases) {
      const file = join(dir, name);
      await writeFile(file, JSON.stringify(content));
      const { message } = await refusal(file);
      expect(message, name).toContain(
        `${file} is not a documentation bundle of format ${BUNDLE_FORMAT}`,
      );
      expect(message, name).toContain(field);
    }
    // The tools' bundle itself is one.
    const good = join(dir, 'good.json');
    await writeFile(good, JSON.stringify(bundle));
    expect((await loadDocsBundle(good)).version).toBe(bundle.version);
  });
});

describe("the bundle's version", () => {
  it("is every Weft package's: they are released together under one version [claim:mcp-docs-offline-version]", async () => {
    const root = join(PACKAGE_DIR, '..', '..');
    const config = JSON.parse(await readFile(join(root, '.changeset', 'config.json'), 'utf8')) as {
      fixed: string[][];
    };
    expect(config.fixed).toContainEqual(expect.arrayContaining(['@weft/*']));
    const own = JSON.parse(await readFile(join(PACKAGE_DIR, 'package.json'), 'utf8')) as {
      version: string;
    };
    const packagesDir = join(root, 'packages');
    const versions = new Map<string, string>();
    for (const entry of await readdir(packagesDir, { withFileTypes: true })) {
      if (!entry.isDirectory()) continue;
      const manifest = JSON.parse(
        await readFile(join(packagesDir, entry.name, 'package.json'), 'utf8'),
      ) as { name: string; version: string };
      if (manifest.name.startsWith('@weft/')) versions.set(manifest.name, manifest.version);
    }
    expect(versions.get('@weft/core')).toBe(own.version);
    expect(new Set(versions.values())).toEqual(new Set([own.version]));
  });
});
