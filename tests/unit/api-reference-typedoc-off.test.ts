/**
 * A build with TYPEDOC=false (src/plugins/api-reference with `enabled: false`): it runs no
 * TypeDoc, keeps the pages an earlier run left in api/, and in a fresh clone writes a one-page
 * stand-in that says how to get the reference. Run on a site folder of the test's own.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { LoadContext } from '@docusaurus/types';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_SIDEBAR_FILE, typedocOptions } from '@weft-internal/docs-model/typedoc';
import { DEV_API_PAGES_COMMAND } from '../../src/config/api-in-dev-command';
import apiReferencePlugin, { STAND_IN_PAGE } from '../../src/plugins/api-reference';

describe('the API reference under TYPEDOC=false', () => {
  let siteDir: string;
  const out = (file: string): string => path.join(siteDir, 'api', file);
  const run = () =>
    apiReferencePlugin({ siteDir } as LoadContext, {
      enabled: false,
      watch: false,
      typedoc: { ...typedocOptions, out: 'api' },
    });

  beforeEach(() => {
    siteDir = mkdtempSync(path.join(tmpdir(), 'weft-typedoc-off-'));
  });
  afterEach(() => rmSync(siteDir, { recursive: true, force: true }));

  it('writes a one-page stand-in with an empty sidebar in a fresh clone [claim:cg-typedoc-false-links-warn]', async () => {
    const plugin = await run();
    expect(plugin.name).toBe('weft-api-reference');
    expect(readFileSync(out('index.md'), 'utf8')).toBe(STAND_IN_PAGE);
    expect(readFileSync(out(API_SIDEBAR_FILE), 'utf8')).toBe('module.exports = [];\n');
  });

  it('offers only commands that generate the reference: a build or the dev server with the API pages, each without TYPEDOC=false', () => {
    expect(STAND_IN_PAGE).toContain('`TYPEDOC=false`');
    expect(STAND_IN_PAGE).toContain(
      `Run \`npm run build\`, or \`${DEV_API_PAGES_COMMAND}\`, without it`,
    );
    // Plain `npm start` serves its own stand-in, not the reference (src/config/api-in-dev.ts).
    expect(STAND_IN_PAGE).not.toMatch(/`npm start`/);
  });

  it('keeps the pages an earlier run left in api/ [claim:cg-typedoc-false-links-warn]', async () => {
    mkdirSync(path.join(siteDir, 'api', 'classes'), { recursive: true });
    writeFileSync(out('index.md'), '# Earlier index\n');
    writeFileSync(out(API_SIDEBAR_FILE), 'module.exports = ["classes/Runtime"];\n');
    writeFileSync(out('classes/Runtime.md'), '# Runtime\n');
    await run();
    expect(readFileSync(out('index.md'), 'utf8')).toBe('# Earlier index\n');
    expect(readFileSync(out(API_SIDEBAR_FILE), 'utf8')).toContain('classes/Runtime');
    expect(existsSync(out('classes/Runtime.md'))).toBe(true);
  });
});
