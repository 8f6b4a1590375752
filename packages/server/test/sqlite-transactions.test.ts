/**
 * A transaction on SQLite holds the file's write lock from its start (`db/sqlite-dialect.ts`): a
 * transaction that reads before it writes can no longer find that another process wrote in between
 * and fail with "database is locked". Shown with a second connection to the file, as a second
 * process has: while the server's transaction has only read, the other cannot take the lock.
 */
import SqliteDatabase from 'better-sqlite3';
import { sql } from 'kysely';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../src/index.js';

const dir = mkdtempSync(join(tmpdir(), 'nf-sqlite-tx-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a SQLite transaction', () => {
  it('holds the write lock from its start, so another connection waits rather than the transaction failing', async () => {
    const file = join(dir, 'lock.sqlite');
    const database = await openDatabase({ sqlite: file });
    await sql`create table counter (n integer not null)`.execute(database.db);
    await sql`insert into counter values (0)`.execute(database.db);
    const other = new SqliteDatabase(file);
    other.pragma('busy_timeout = 0');
    try {
      await database.db.transaction().execute(async (tx) => {
        const { rows } = await sql<{ n: number }>`select n from counter`.execute(tx);
        // a second process writing now would make a deferred transaction's write below fail
        expect(() => other.prepare('update counter set n = 100').run()).toThrow(/locked|busy/i);
        await sql`update counter set n = ${rows[0]!.n + 1}`.execute(tx);
      });
      expect(other.prepare('select n from counter').get()).toEqual({ n: 1 });
      // once it has committed, the other connection writes as it likes
      other.prepare('update counter set n = 2').run();
    } finally {
      other.close();
      await database.close();
    }
  });
});
