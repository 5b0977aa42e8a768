import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A docs page's markdown, by its path under `docs/`. */
export function readDoc(path: string): string {
  return readFileSync(join(__dirname, '..', '..', '..', 'docs', path), 'utf8');
}

/**
 * The rows of every markdown table on a page whose first cell is code, keyed by
 * that code: `` | `options.maxSteps` | ... `` gives `options.maxSteps` and the
 * row's cells, trimmed, without their claim ids.
 */
export function codeRows(markdown: string): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  // Claim ids (`<!-- claim: id -->`, tests/claims/) are not part of what a reader sees.
  for (const line of markdown.replace(/[ \t]*<!--\s*claim:[\s\S]*?-->/g, '').split('\n')) {
    const match = /^\|\s*`([^`]+)`\s*\|(.*)\|\s*$/.exec(line);
    if (!match?.[1] || match[2] === undefined) continue;
    rows.set(
      match[1],
      match[2].split('|').map((cell) => cell.trim()),
    );
  }
  return rows;
}
