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

/** Every `logger.<level>(..., 'message')` call of the core, as message → level. */
function loggedMessages(): Map<string, string> {
  const messages = new Map<string, string>();
  const call = /\blogger\??\.(trace|debug|info|warn|error|fatal)\(([\s\S]*?)\);/g;
  for (const file of sourceFiles(CORE_SOURCES)) {
    for (const [, level, args] of readFileSync(file, 'utf8').matchAll(call)) {
      // pino takes the message as the last string argument.
      const message = [...(args ?? '').matchAll(/'([^']*)'/g)].at(-1)?.[1];
      if (message === undefined) throw new Error(`${file}: a logger call without a message`);
      messages.set(message, level as string);
    }
  }
  return messages;
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

  it('documents every line the core writes, at its level', () => {
    const missing = [...logged]
      .filter(([message, level]) => documented.get(message) !== level)
      .map(([message, level]) => `${level}: ${message}`);
    expect(missing).toEqual([]);
  });

  it('documents no line the core does not write', () => {
    expect([...documented.keys()].filter((message) => !logged.has(message))).toEqual([]);
  });
});
