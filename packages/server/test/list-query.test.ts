/**
 * The keyset condition of a cursor names its parameters in the order its SQL binds them, so that a
 * page after a cursor is compiled once per shape (`CompiledSql`) and run with each cursor's values.
 */
import { type Value } from '@ninefold/model';
import Database from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import { describe, expect, it } from 'vitest';
import { entityTable } from '../src/resources/records.js';
import { cursorCondition, encodeCursor, parseListQuery } from '../src/resources/list-query.js';
import { specModel } from '@ninefold/testkit';

const model = specModel(`
entities:
  Trip:
    fields:
      title: { type: string, required: true }
      merchant: { type: string }
      km: { type: integer }
      amount: { type: money, currency: EUR }
      day: { type: date }
roles:
  clerk:
    Trip: { read: all }
`);
const info = entityTable(model, model.entities['Trip']!);
const user = { id: 'u1', roles: ['clerk'] };

// compilers only: neither database is ever asked anything
const compilers = {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
  sqlite: new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(':memory:') }) }),
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- tables come from the spec at run time
  postgres: new Kysely<any>({ dialect: new PostgresDialect({ pool: {} as never }) }),
};

/** Every record a cursor could be made from: each nullable sort value null or not. */
const records: Record<string, Value>[] = [
  { id: 'b', createdAt: '2026-01-02T00:00:00.000Z', title: 'Taxi', merchant: 'Cab', km: 12, amount: '3.50' },
  { id: 'c', createdAt: '2026-01-03T00:00:00.000Z', title: 'Bus', merchant: null, km: null, amount: null },
  { id: 'd', createdAt: '2026-01-04T00:00:00.000Z', title: 'Tram', merchant: null, km: 7, amount: '1.00' },
];

const SORTS = ['-createdAt', 'merchant', '-merchant', 'km,-merchant', '-amount,title', 'title', '-id'];

describe.each(Object.entries(compilers))('%s: keyset conditions', (dialect, db) => {
  const name = dialect as 'sqlite' | 'postgres';
  it('names its parameters in the order of its SQL for every sort and cursor shape', () => {
    let cases = 0;
    for (const sort of SORTS) {
      const query = parseListQuery(model, info, { sort }, user, name);
      for (const record of records) {
        const keyset = cursorCondition(info, query.sort, encodeCursor(query.sort, record), name);
        const compiled = keyset.condition.compile(db);
        expect(compiled.parameters, `${sort} after ${String(record['id'])}`).toEqual(keyset.parameters);
        cases += 1;
      }
    }
    expect(cases).toBe(SORTS.length * records.length);
  });

  it('gives cursors whose null values differ different shapes, and one text per shape', () => {
    const query = parseListQuery(model, info, { sort: 'merchant,km' }, user, name);
    const keysets = records.map((record) =>
      cursorCondition(info, query.sort, encodeCursor(query.sort, record), name),
    );
    expect(new Set(keysets.map((k) => k.shape)).size).toBe(3);
    const again = cursorCondition(
      info,
      query.sort,
      encodeCursor(query.sort, { ...records[0]!, merchant: 'Other', km: 99, id: 'z' }),
      name,
    );
    expect(again.shape).toBe(keysets[0]!.shape);
    expect(again.condition.compile(db).sql).toBe(keysets[0]!.condition.compile(db).sql);
    expect(again.parameters).not.toEqual(keysets[0]!.parameters);
  });
});
