/**
 * A consistent copy of a SQLite database while servers may be writing to it (decision 0052), with
 * SQLite's online backup API (better-sqlite3's `backup`). The copy is made in one step, inside one
 * read transaction: in WAL mode (the server's) writers go on meanwhile, and the copy is the
 * database as of that transaction's start, never a mix of before and after a write.
 */
import SqliteDatabase from 'better-sqlite3';
import { existsSync } from 'node:fs';

/** Pages per step: every page in one step, so the copy is one read transaction (see above). */
const ALL_PAGES = 2 ** 31 - 1;

/**
 * Copies the database at `source` to `destination` (a new file); throws when `source` is missing.
 *
 * @example await snapshotSqlite('data/ninefold.sqlite', '/tmp/backup/ninefold.sqlite');
 */
export async function snapshotSqlite(source: string, destination: string): Promise<void> {
  if (!existsSync(source)) throw new Error(`there is no database at ${source}`);
  const database = new SqliteDatabase(source, { fileMustExist: true });
  try {
    await database.backup(destination, { progress: () => ALL_PAGES });
  } finally {
    database.close();
  }
}
