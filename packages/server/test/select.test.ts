/**
 * `database.select`, the reads every request makes: the same rows as Kysely's executor, and on
 * SQLite, where it skips the executor, never a glimpse of a transaction that is not committed.
 */
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase } from './helpers.js';

describe.each(DIALECTS)('%s: select', (dialect) => {
  async function withTable() {
    const { database } = await freshDatabase(dialect);
    await sql`create table t (n integer, label text)`.execute(database.db);
    await sql`insert into t (n, label) values (1, 'one'), (2, null)`.execute(database.db);
    return database;
  }

  it('answers the rows the executor answers', async () => {
    const database = await withTable();
    const query = sql`select n, label from t where n >= ${1} order by n`.compile(database.db);
    const executed = await database.db.executeQuery(CompiledQuery.raw(query.sql, [...query.parameters]));
    expect(await database.select(query.sql, query.parameters)).toEqual(executed.rows);
    expect(await database.select(query.sql, query.parameters)).toEqual([
      { n: 1, label: 'one' },
      { n: 2, label: null },
    ]);
  });

  it('waits for an open transaction instead of reading its uncommitted writes', async () => {
    const database = await withTable();
    const count = sql`select count(*) as c from t`.compile(database.db);
    let inserted!: () => void;
    const insertedYet = new Promise<void>((resolve) => (inserted = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const transaction = database.db.transaction().execute(async (tx) => {
      await sql`insert into t (n, label) values (3, 'three')`.execute(tx);
      inserted();
      await mayCommit;
      throw new Error('rolled back');
    });
    await insertedYet;
    const read = database.select(count.sql, count.parameters);
    commit();
    await expect(transaction).rejects.toThrow('rolled back');
    expect((await read).map((row) => Number(row['c']))).toEqual([2]);
  });

  it('refuses SQL that is not valid, as a rejected promise', async () => {
    const database = await withTable();
    await expect(database.select('select nope from t', [])).rejects.toThrow();
  });
});
