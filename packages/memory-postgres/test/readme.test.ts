/**
 * The README's Configure and Example blocks, run as a reader would run them one after the
 * other, against a real PostgreSQL server: type-checking alone (tests/unit/code-samples.test.ts)
 * cannot tell that a provider is used before it is opened.
 */
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import type { Memory } from '@weft/core';
import { PostgresMemoryProvider } from '../src/index.js';
import { MIGRATIONS, tablesOf } from '../src/migrations.js';
import { useServer } from './helpers.js';

const db = useServer();

/** The README's ```ts blocks, in order. */
function readmeBlocks(): string[] {
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  return [...readme.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

type Sample = (
  provider: typeof PostgresMemoryProvider,
  process: { env: Record<string, string> },
) => Promise<{ note: Memory; recent: Memory[] }>;

describe('the memory-postgres README', () => {
  it('runs its Configure and Example blocks as shown: the provider is opened before it is used [claim:pg-readme-example-runs]', async () => {
    const blocks = readmeBlocks();
    expect(blocks).toHaveLength(2);
    // The blocks are plain JavaScript apart from their import, which the parameter stands for.
    const body = blocks
      .join('\n')
      .replace(/^import \{ PostgresMemoryProvider \} from '@weft\/memory-postgres';$/m, '');
    expect(body).not.toContain('import ');
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => Sample;
    const sample = new AsyncFunction(
      'PostgresMemoryProvider',
      'process',
      `${body}\nreturn { note, recent };`,
    );
    const { note, recent } = await sample(PostgresMemoryProvider, {
      env: { DATABASE_URL: db.url() },
    });
    expect(recent.map((memory) => memory.id)).toEqual([note.id]);
    expect(recent[0]?.metadata).toEqual({ source: 'profile', confirmed: true });
    // The block removed its memory and shut the provider down: the schema it named is empty.
    const client = new pg.Client({ connectionString: db.url(), connectionTimeoutMillis: 10_000 });
    await client.connect();
    try {
      const { rows } = await client.query<{ count: string }>(
        'SELECT count(*) AS count FROM weft.weft_memories',
      );
      expect(rows[0]?.count).toBe('0');
    } finally {
      await client.end();
    }
  }, 60_000);

  it('shows version 1 of the schema as migration 1 creates it: one table and four indexes of its own [claim:pg-readme-schema-sql]', () => {
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    const blocks = [...readme.matchAll(/^```sql\n([\s\S]*?)^```$/gm)].map(
      (match) => match[1] ?? '',
    );
    expect(blocks).toHaveLength(1);
    // Comments and spacing aside, and the schema-qualified table name written plainly.
    const normalise = (sql: string): string =>
      sql
        .replace(/--[^\n]*/g, '')
        .replace(/\s+/g, ' ')
        .replace(/\s*([(),;])\s*/g, '$1')
        .trim();
    const shown = normalise(blocks[0] ?? '')
      .split(';')
      .filter((statement) => statement !== '');
    const migration = MIGRATIONS.find((each) => each.version === 1);
    const created = (migration?.statements(tablesOf('weft')) ?? [])
      .filter((statement) => !statement.startsWith('COMMENT'))
      .map((statement) =>
        normalise(statement.replaceAll('"weft"."weft_memories"', 'weft_memories')),
      );
    expect(shown).toEqual(created);
    expect(shown.filter((statement) => statement.startsWith('CREATE INDEX'))).toHaveLength(4);
  });
});
