import Database from 'better-sqlite3';

/**
 * Copies a live SQLite memory database into a new file with `VACUUM INTO`. It
 * opens its own read-only connection, so the agent keeps running: WAL mode lets
 * it read a consistent snapshot while the agent writes. The destination must not
 * exist yet; the copy is compacted and needs no `-wal` file beside it.
 */
export function backupMemory(databasePath: string, destination: string): void {
  const db = new Database(databasePath, {
    readonly: true,
    fileMustExist: true,
  });
  try {
    db.prepare('VACUUM INTO ?').run(destination);
  } finally {
    db.close();
  }
}
