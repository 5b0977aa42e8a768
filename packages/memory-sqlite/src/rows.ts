import type { Memory } from '@weft/core';

/** A row of the `memories` table as better-sqlite3 returns it. */
export interface MemoryRow {
  /** The memory's id. */
  id: string;
  /** The space id. */
  space: string;
  /** The memory's kind. */
  kind: string;
  /** The content as JSON text. */
  content: string;
  /** The producing task's id, or `null`. */
  task_id: string | null;
  /** The metadata as JSON text. */
  metadata: string;
  /** Creation time in milliseconds since the Unix epoch. */
  created_at: number;
}

/**
 * Turns a row back into a {@link Memory}: JSON columns parsed, `created_at` as a `Date`, and
 * `taskId` present only when the row has one.
 *
 * @param row - The row.
 * @returns The memory.
 */
export function rowToMemory(row: MemoryRow): Memory {
  const memory: {
    id: string;
    space: string;
    kind: string;
    content: unknown;
    taskId?: string;
    metadata: Record<string, unknown>;
    createdAt: Date;
  } = {
    id: row.id,
    space: row.space,
    kind: row.kind,
    content: JSON.parse(row.content) as unknown,
    metadata: JSON.parse(row.metadata) as Record<string, unknown>,
    createdAt: new Date(row.created_at),
  };
  if (row.task_id !== null) memory.taskId = row.task_id;
  return memory;
}
