/**
 * The errors reference (docs/reference/errors.md) has a section headed by each error code of the
 * core and of the first-party packages, so a search for a code finds it, and one headed by each HTTP status the first-party
 * packages answer, found by reading their sources.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { WEFT_ERROR_CODES } from '../../packages/core/src/errors/codes';
import { readDoc } from './support/doc-tables';

const PACKAGES = join(__dirname, '..', '..', 'packages');

function sourceFiles(directory: string): string[] {
  return readdirSync(directory, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? sourceFiles(join(directory, entry.name))
      : entry.name.endsWith('.ts')
        ? [join(directory, entry.name)]
        : [],
  );
}

/**
 * The codes a first-party package lists in its `src/errors.ts` (the `Object.keys({ CODE: true })`
 * list its code union must agree with). Read as text: the site's type-check does not resolve the
 * packages' imports of `@weft/core`.
 */
function packageCodes(name: string): string[] {
  const text = readFileSync(join(PACKAGES, name, 'src', 'errors.ts'), 'utf8');
  const codes = [...text.matchAll(/^\s+(WEFT_[A-Z_]+): true,$/gm)].map((match) => match[1] ?? '');
  if (codes.length === 0) throw new Error(`packages/${name}/src/errors.ts lists no error codes`);
  return codes;
}

const PACKAGE_CODES = ['model-openai', 'plugin-chat', 'memory-sqlite', 'testing'].flatMap(
  packageCodes,
);

/**
 * The statuses the server answers by construction: malformed, refused, unknown, timed-out and
 * oversized requests, unexpected failures, the chat plugin's missing reply, a full queue.
 */
const KNOWN_STATUSES = [400, 403, 404, 408, 413, 500, 502, 503];

/**
 * Those, and every status the packages' sources name in `status: 429`, `.status(404)` or
 * `answer(413, ...)`, so a new one needs a section before the tests pass.
 */
function answeredStatuses(): number[] {
  const statuses = new Set<number>(KNOWN_STATUSES);
  for (const name of readdirSync(PACKAGES)) {
    const sources = join(PACKAGES, name, 'src');
    let files: string[];
    try {
      files = sourceFiles(sources);
    } catch {
      continue;
    }
    for (const file of files) {
      const text = readFileSync(file, 'utf8');
      for (const [, status] of text.matchAll(/\b(?:status(?::\s*|\()|answer\(\s*)([45]\d\d)\b/g)) {
        statuses.add(Number(status));
      }
    }
  }
  return [...statuses].sort((a, b) => a - b);
}

describe('errors reference page', () => {
  const headings = readDoc('reference/errors.md')
    .split('\n')
    .filter((line) => line.startsWith('#'))
    .map((line) => line.replace(/^#+\s*/, '').trim());

  it('has a section headed by each core error code', () => {
    expect(WEFT_ERROR_CODES.length).toBeGreaterThan(10);
    expect(WEFT_ERROR_CODES.filter((code) => !headings.includes(code))).toEqual([]);
  });

  it('has a section headed by each error code of the first-party packages', () => {
    expect(PACKAGE_CODES).toContain('WEFT_OPENAI_HTTP_STATUS');
    expect(PACKAGE_CODES.filter((code) => !headings.includes(code))).toEqual([]);
  });

  it('has no code heading for a code that does not exist', () => {
    const known = new Set<string>([...WEFT_ERROR_CODES, ...PACKAGE_CODES]);
    const stale = headings.filter((heading) => /^WEFT_/.test(heading) && !known.has(heading));
    expect(stale).toEqual([]);
  });

  it('has a section headed by each HTTP status the packages answer', () => {
    const statuses = answeredStatuses();
    const missing = statuses.filter(
      (status) => !headings.some((heading) => heading.startsWith(`${status} `)),
    );
    expect(missing).toEqual([]);
  });
});
