/**
 * The observability guide (docs/guides/observability.md) lists every log line the core writes,
 * with its level: a line added to, removed from or moved to another level in packages/core/src
 * without the table following fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { codeRows, readDoc } from './support/doc-tables';

const CORE_SOURCES = join(__dirname, '..', '..', 'packages', 'core', 'src');

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
 * Every `logger.<level>(..., message)` call of the core, as message → level. A template
 * literal's message is kept up to its first placeholder and ends with `…`; the page shows such a
 * message with the placeholder spelled out, and is matched by that prefix.
 */
function loggedMessages(): Map<string, string> {
  const messages = new Map<string, string>();
  const call = /\blogger\??\.(trace|debug|info|warn|error|fatal)\(([\s\S]*?)\);/g;
  for (const file of sourceFiles(CORE_SOURCES)) {
    for (const [, level, args] of readFileSync(file, 'utf8').matchAll(call)) {
      // pino takes the message as the last string argument.
      const last = [...(args ?? '').matchAll(/'([^']*)'|`([^`]*)`/g)].at(-1);
      if (last === undefined) throw new Error(`${file}: a logger call without a message`);
      const message = last[1] ?? `${(last[2] ?? '').split('${')[0]}…`;
      messages.set(message, level as string);
    }
  }
  return messages;
}

/** Whether a message of the page is the logged one, or spells out a template's placeholders. */
function matches(documented: string, logged: string): boolean {
  return logged.endsWith('…') ? documented.startsWith(logged.slice(0, -1)) : documented === logged;
}

describe('log lines in the observability guide', () => {
  const logged = loggedMessages();
  const rows = codeRows(readDoc('guides/observability.md'));
  // Rows of the log table: message, then level, component, fields, meaning.
  const documented = new Map(
    [...rows]
      .filter(([, cells]) => cells.length === 4)
      .map(([message, cells]) => [message, cells[0]]),
  );

  it('finds the log calls of the core', () => {
    expect(logged.get('runtime started')).toBe('info');
  });

  it('documents every line the core writes, at its level [claim:obs-lines-table]', () => {
    const missing = [...logged]
      .filter(
        ([message, level]) =>
          ![...documented].some(([row, rowLevel]) => matches(row, message) && rowLevel === level),
      )
      .map(([message, level]) => `${level}: ${message}`);
    expect(missing).toEqual([]);
  });

  it('documents no line the core does not write [claim:obs-lines-table]', () => {
    const unknown = [...documented.keys()].filter(
      (row) => ![...logged.keys()].some((message) => matches(row, message)),
    );
    expect(unknown).toEqual([]);
  });
});
