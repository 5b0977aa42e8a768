/**
 * loadDocsBundle refuses what it cannot answer from, with the code the errors reference
 * explains and the file it tried.
 */
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WeftError } from '@weft/core';
import { describe, expect, it } from 'vitest';
import { BUNDLE_FORMAT, loadDocsBundle } from '../src/bundle.js';

async function refusal(file: string): Promise<WeftError> {
  const error: unknown = await loadDocsBundle(file).then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(WeftError.is(error, 'WEFT_DOCS_NO_DATA')).toBe(true);
  return error as WeftError;
}

describe('loadDocsBundle', () => {
  it('throws WEFT_DOCS_NO_DATA naming a missing file [claim:mcp-docs-readme-no-data] [claim:tsdoc-docs-bundle-load-throws]', async () => {
    expect((await refusal('/nonexistent/docs-bundle.json')).message).toContain(
      '/nonexistent/docs-bundle.json',
    );
  });

  it('throws WEFT_DOCS_NO_DATA for a file that is not JSON, or not a bundle of this format [claim:tsdoc-docs-bundle-format] [claim:tsdoc-docs-bundle-load-throws]', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'weft-mcp-bundle-'));
    await writeFile(join(dir, 'broken.json'), '{"format": 1, "pages": [');
    expect((await refusal(join(dir, 'broken.json'))).message).toContain('is not valid JSON');
    await writeFile(join(dir, 'old.json'), JSON.stringify({ format: 0, pages: [] }));
    expect((await refusal(join(dir, 'old.json'))).message).toContain(
      `is not a documentation bundle of format ${BUNDLE_FORMAT}`,
    );
  });
});
