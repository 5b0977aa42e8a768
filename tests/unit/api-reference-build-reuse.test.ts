/**
 * When a build reuses the API reference's pages instead of running TypeDoc
 * (src/plugins/api-reference): the stamp of what TypeDoc read must cover the core's sources, its
 * package.json and compiler settings, the TypeDoc options, the plugin itself and the TypeDoc
 * packages, and a missing index page or sidebar file must count as stale (the only pages it
 * looks for). The stamps are the real ones, in
 * .cache/generated-assets/, under a name of this test's own; the pages are a test folder's.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  currentSourceHash,
  filesUnder,
  isGenerated,
  recordGenerated,
  type GeneratedAsset,
} from '@weft-internal/generated-assets/stamp';
import { API_SIDEBAR_FILE, API_TSCONFIG, typedocOptions } from '@weft-internal/docs-model/typedoc';
import { apiReferenceAsset } from '../../src/plugins/api-reference';

const siteDir = path.resolve(__dirname, '../..');

describe("a build's reuse of the API pages", () => {
  const name = `test-api-build-${process.pid}-${Date.now()}`;
  const out = path.join('.cache', name);
  const stamp = path.join(siteDir, '.cache', 'generated-assets', `${name}.sha256`);
  /** The build's asset, with this test's stamp name and page folder. */
  const asset = (options: Record<string, unknown> = {}): GeneratedAsset => ({
    ...apiReferenceAsset({ ...typedocOptions, ...options, out }),
    name,
  });

  beforeEach(() => {
    mkdirSync(path.join(siteDir, out), { recursive: true });
    writeFileSync(path.join(siteDir, out, 'index.md'), '# API reference\n');
    writeFileSync(path.join(siteDir, out, API_SIDEBAR_FILE), 'module.exports = [];\n');
  });
  afterEach(() => {
    rmSync(path.join(siteDir, out), { recursive: true, force: true });
    rmSync(stamp, { force: true });
  });

  it("hashes the core's sources, its package.json and compiler settings, the TypeDoc options, the plugin and the TypeDoc packages [claim:cg-api-reference-reuse]", () => {
    const { sources, packages, settings } = asset();
    const coreSources = filesUnder(path.join('packages', 'core', 'src'));
    expect(coreSources.length).toBeGreaterThan(10);
    expect(sources).toEqual(
      expect.arrayContaining([
        ...coreSources,
        path.join('packages', 'core', 'package.json'),
        path.join('packages', 'core', 'tsconfig.json'),
        API_TSCONFIG,
        'libs/docs-model/typedoc.ts',
        'src/plugins/api-reference/index.ts',
      ]),
    );
    expect(packages).toEqual(
      expect.arrayContaining(['typedoc', 'typedoc-plugin-markdown', 'docusaurus-plugin-typedoc']),
    );
    expect(settings).toMatchObject({ entryPoints: typedocOptions.entryPoints, out });
  });

  it('reuses the pages while nothing changed, and runs TypeDoc when an option changed or a page is missing [claim:cg-api-reference-reuse]', () => {
    recordGenerated(asset(), currentSourceHash(asset()));
    expect(isGenerated(asset()), 'nothing changed').toBe(true);
    expect(isGenerated(asset({ excludePrivate: false })), 'a TypeDoc option changed').toBe(false);
    rmSync(path.join(siteDir, out, API_SIDEBAR_FILE));
    expect(isGenerated(asset()), 'a page is missing').toBe(false);
  });

  it('looks for api/index.md and the sidebar file only, not for every page [claim:cg-api-reference-reuse]', () => {
    expect(asset().outputs).toEqual([path.join(out, 'index.md'), path.join(out, API_SIDEBAR_FILE)]);
    const classPage = path.join(siteDir, out, 'classes', 'Runtime.md');
    mkdirSync(path.dirname(classPage), { recursive: true });
    writeFileSync(classPage, '# Class: Runtime\n');
    recordGenerated(asset(), currentSourceHash(asset()));
    rmSync(classPage);
    expect(isGenerated(asset()), 'another page is missing: not noticed').toBe(true);
    rmSync(path.join(siteDir, out, 'index.md'));
    expect(isGenerated(asset()), 'the index page is missing').toBe(false);
  });

  it('runs TypeDoc again whatever the stamp says under FORCE_GENERATE=true [claim:cg-api-reference-reuse]', () => {
    recordGenerated(asset(), currentSourceHash(asset()));
    const before = process.env.FORCE_GENERATE;
    process.env.FORCE_GENERATE = 'true';
    try {
      expect(isGenerated(asset())).toBe(false);
    } finally {
      if (before === undefined) delete process.env.FORCE_GENERATE;
      else process.env.FORCE_GENERATE = before;
    }
  });
});
