import { Kysely, SqliteDialect, sql } from 'kysely';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { CompiledSql } from '../src/resources/compiled-sql.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a throwaway table
const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) });
const page = (owner: string, limit: number) =>
  sql`select "id" from "t" where "owner" = ${owner} limit ${limit}`.compile(db);

describe('compiled SQL by shape', () => {
  it('compiles a shape once and binds each request’s own values to its text', () => {
    const cache = new CompiledSql();
    let compiles = 0;
    const query = (owner: string, limit: number) =>
      cache.query('own', [owner, limit], () => {
        compiles += 1;
        return page(owner, limit);
      });
    const ann = query('ann', 51);
    const bob = query('bob', 11);
    expect(compiles).toBe(1);
    expect(bob.sql).toBe(ann.sql);
    expect(ann.parameters).toEqual(['ann', 51]);
    expect(bob.parameters).toEqual(['bob', 11]);
  });

  it('keeps apart shapes with different keys', () => {
    const cache = new CompiledSql();
    const one = cache.query('a', ['x', 2], () => page('x', 2));
    const other = cache.query('b', [1], () => sql`select ${1} as n`.compile(db));
    expect(other.sql).not.toBe(one.sql);
    expect(cache.query('a', ['y', 3], () => page('y', 3)).sql).toBe(one.sql);
    expect(cache.size).toBe(2);
  });

  it('never keeps a text whose parameters are not the ones it was given', () => {
    const cache = new CompiledSql();
    // the caller forgot a parameter: the compiled query is answered as it is, and compiled again next time
    const first = cache.query('wrong', ['ann'], () => page('ann', 51));
    expect(first.parameters).toEqual(['ann', 51]);
    expect(cache.size).toBe(0);
    const swapped = cache.query('swapped', [51, 'ann'], () => page('ann', 51));
    expect(swapped.parameters).toEqual(['ann', 51]);
    expect(cache.size).toBe(0);
    let compiles = 0;
    cache.query('wrong', ['bob'], () => {
      compiles += 1;
      return page('bob', 51);
    });
    expect(compiles).toBe(1);
  });

  it('keeps at most its bound, dropping the least recently used', () => {
    const cache = new CompiledSql(2);
    let compiles = 0;
    const query = (key: string) =>
      cache.query(key, ['o', 1], () => {
        compiles += 1;
        return page('o', 1);
      });
    query('a');
    query('b');
    query('a'); // now b is the least recently used
    query('c');
    expect(cache.size).toBe(2);
    expect(compiles).toBe(3);
    query('a');
    expect(compiles).toBe(3);
    query('b');
    expect(compiles).toBe(4);
  });
});
