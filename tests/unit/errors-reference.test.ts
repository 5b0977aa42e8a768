/**
 * The errors reference (docs/reference/errors.md) has a section headed by each error code of the
 * core, so a search for a code finds it, and one headed by each HTTP status the first-party
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

/** Statuses the packages' sources answer: `status: 503`, `.status(404)` and the like. */
function answeredStatuses(): number[] {
  const statuses = new Set<number>();
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
      for (const [, status] of text.matchAll(/\bstatus(?::\s*|\()([45]\d\d)\b/g)) {
        statuses.add(Number(status));
      }
    }
  }
  return [...statuses].sort();
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

  it('has a section headed by each HTTP status the packages answer', () => {
    const statuses = answeredStatuses();
    expect(statuses).toEqual(expect.arrayContaining([400, 404, 413, 500, 502, 503]));
    const missing = statuses.filter(
      (status) => !headings.some((heading) => heading.startsWith(`${status} `)),
    );
    expect(missing).toEqual([]);
  });
});
