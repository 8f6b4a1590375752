/**
 * `database.selectValues`, the reads every request makes: the rows Kysely's executor answers, as
 * arrays in the select list's order, and on SQLite, where it skips the executor, never a glimpse of
 * a transaction that is not committed.
 */
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { DIALECTS, freshDatabase } from '@ninefold/testkit';

describe.each(DIALECTS)('%s: selectValues', (dialect) => {
  async function withTable() {
    const { database } = await freshDatabase(dialect);
    await sql`create table t (n integer, label text)`.execute(database.db);
    await sql`insert into t (n, label) values (1, 'one'), (2, null)`.execute(database.db);
    return database;
  }

  it('answers the rows the executor answers, as arrays in the order of the select list', async () => {
    const database = await withTable();
    const query = sql`select label, n from t where n >= ${1} order by n`.compile(database.db);
    const executed = await database.db.executeQuery<Record<string, unknown>>(
      CompiledQuery.raw(query.sql, [...query.parameters]),
    );
    const values = await database.selectValues(query.sql, query.parameters);
    expect(values).toEqual(executed.rows.map((row) => [row['label'], row['n']]));
    expect(values).toEqual([
      ['one', 1],
      [null, 2],
    ]);
  });

  it('keeps columns that share a name apart when each has an alias', async () => {
    const database = await withTable();
    const query = sql`select a.n as c0, b.n as c1, a.label as c2 from t as a join t as b on b.n = a.n + 1`;
    const compiled = query.compile(database.db);
    expect(await database.selectValues(compiled.sql, compiled.parameters)).toEqual([[1, 2, 'one']]);
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
    const read = database.selectValues(count.sql, count.parameters);
    commit();
    await expect(transaction).rejects.toThrow('rolled back');
    expect((await read).map((row) => Number(row[0]))).toEqual([2]);
  });

  it('refuses SQL that is not valid, as a rejected promise', async () => {
    const database = await withTable();
    await expect(database.selectValues('select nope from t', [])).rejects.toThrow();
  });
});
