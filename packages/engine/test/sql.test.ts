import { describe, expect, it } from 'vitest';
import {
  SqlTranslationError,
  decodeValue,
  encodeValue,
  numberedPlaceholders,
  toSqlFilter,
} from '../src/index.js';
import { CLAIMS, NOW, alice, model } from './fixtures.js';

const m = model(CLAIMS);
const sqlite = { user: alice, now: NOW, today: '2026-11-23', dialect: 'sqlite' as const };
const postgres = { ...sqlite, dialect: 'postgres' as const };
const f = (source: string, options: typeof sqlite | typeof postgres = sqlite) =>
  toSqlFilter(m, 'Claim', source, options);

describe('toSqlFilter', () => {
  it('translates accesses', () => {
    expect(toSqlFilter(m, 'Claim', true, sqlite)).toEqual({ sql: '1=1', params: [] });
    expect(toSqlFilter(m, 'Claim', false, sqlite)).toEqual({ sql: '1=0', params: [] });
    const access = m.roles['employee']!.entities['Claim']!.read;
    // at the top of a WHERE clause NULL and FALSE exclude alike: a bare comparison an index can serve
    expect(toSqlFilter(m, 'Claim', access, sqlite)).toEqual({ sql: '"submittedBy" = ?', params: [alice.id] });
  });

  it('keeps own false, not NULL, where a negation could turn NULL into a match', () => {
    expect(f('!own')).toEqual({ sql: '(NOT COALESCE("submittedBy" = ?, FALSE))', params: [alice.id] });
    expect(f("own || state == 'x'")).toEqual({
      sql: '("submittedBy" = ? OR ("state" = ?))',
      params: [alice.id, 'x'],
    });
  });

  it('fields, self, constants, user, now and today', () => {
    expect(f("self.title == 'x' && spentOn < today")).toEqual({
      sql: '(("title" = ?) AND ("spentOn" < ?))',
      params: ['x', '2026-11-23'],
    });
    expect(f('decidedAt < now', postgres)).toEqual({
      sql: '("decidedAt" COLLATE "C" < CAST(? AS TEXT))',
      params: [NOW.toISOString()],
    });
    expect(f('nights > MAX_CLAIM - 4990')).toEqual({ sql: '("nights" > 10)', params: [] });
  });

  it('folds what only involves request-time values', () => {
    expect(f("'employee' in user.roles")).toEqual({ sql: '1=1', params: [] });
    expect(f("'admin' in user.roles || nights > 1")).toEqual({
      sql: '(FALSE OR ("nights" > 1))',
      params: [],
    });
  });

  it('compares amounts in exact minor units', () => {
    expect(f('amount > RECEIPT_THRESHOLD')).toEqual({ sql: '("amount" >= 2501)', params: [] });
    expect(f('amount <= 0.015')).toEqual({ sql: '("amount" < 2)', params: [] });
    expect(f('fee == 0.015').sql).toBe('("fee" <> "fee")');
  });

  it('has, in, size, ternaries and string matching', () => {
    expect(f('has(self.receipt)').sql).toBe('("receipt" IS NOT NULL)');
    expect(f("category in ['meals', 'travel']")).toEqual({
      sql: '("category" IN (?, ?))',
      params: ['meals', 'travel'],
    });
    expect(f('size(title) > 3').sql).toBe('(LENGTH("title") > 3)');
    expect(f('urgent ? nights > 1 : true').sql).toBe(
      '(CASE WHEN "urgent" THEN ("nights" > 1) WHEN NOT "urgent" THEN TRUE END)',
    );
    expect(f("title.startsWith('50%_*')")).toEqual({ sql: '("title" GLOB ?)', params: ['50%_[*]*'] });
    expect(f("title.contains('50%_*')", postgres)).toEqual({
      sql: '("title" LIKE CAST(? AS TEXT))',
      params: ['%50\\%\\_*%'],
    });
  });

  it('refuses what is outside the SQL subset', () => {
    expect(() => f("tags.exists(t, t == 'a')")).toThrow(SqlTranslationError);
    expect(() => f('nights % 2 == 0')).toThrow(SqlTranslationError);
  });

  it('a list of refs as subqueries over its join table (decision 0044)', () => {
    const teams = model(`
entities:
  Project:
    fields:
      title: { type: string }
      members: { type: ref, to: User, many: true }
`);
    const lists = { ...sqlite, listTable: (entity: string, field: string) => `${entity}__${field}` };
    const p = (source: string) => toSqlFilter(teams, 'Project', source, lists);
    const rows = 'FROM "Project__members" WHERE "Project__members"."holder" = "id"';
    // through AND/OR alone a bare EXISTS serves; under `!` an empty list stays an error (NULL)
    expect(p('user.id in members')).toEqual({
      sql: `EXISTS (SELECT 1 ${rows} AND "Project__members"."target" = ?)`,
      params: [alice.id],
    });
    expect(p('!(user.id in members)').sql).toBe(
      `(NOT (CASE WHEN NOT EXISTS (SELECT 1 ${rows}) THEN NULL ELSE EXISTS (SELECT 1 ${rows} AND "Project__members"."target" = ?) END))`,
    );
    expect(p('size(members) > 2').sql).toBe(`((SELECT NULLIF(COUNT(*), 0) ${rows}) > 2)`);
    expect(p('has(self.members)').sql).toBe(`EXISTS (SELECT 1 ${rows})`);
    // an item that may be NULL keeps CEL's error for it: NULL, not a non-match turned true by `!`
    expect(p('!(title in members)').sql).toContain('WHEN "title" IS NULL THEN NULL');
    expect(() => p('members == []')).toThrow(SqlTranslationError);
    expect(() => toSqlFilter(teams, 'Project', 'user.id in members', sqlite)).toThrow(/no table to query/);
  });

  it('numbers placeholders for PostgreSQL', () => {
    expect(numberedPlaceholders('"a" = ? AND "b" IN (?, ?)')).toBe('"a" = $1 AND "b" IN ($2, $3)');
  });
});

describe('storage encoding', () => {
  const money = { type: 'money', many: false, scale: 2 } as const;
  it.each([
    [money, '12.5', 'sqlite', 1250, '12.50'],
    [money, '-0.01', 'postgres', -1, '-0.01'],
    [{ type: 'boolean', many: false, scale: null } as const, true, 'sqlite', 1, true],
    [{ type: 'boolean', many: false, scale: null } as const, false, 'postgres', false, false],
    [
      { type: 'datetime', many: false, scale: null } as const,
      '2026-11-23T10:30:00+01:00',
      'sqlite',
      '2026-11-23T09:30:00.000Z',
      '2026-11-23T09:30:00.000Z',
    ],
    [{ type: 'enum', many: true, scale: null } as const, ['a', 'b'], 'postgres', '["a","b"]', ['a', 'b']],
    [{ type: 'integer', many: false, scale: null } as const, 7, 'postgres', 7, 7],
  ] as const)('%j %j on %s', (field, value, dialect, stored, back) => {
    expect(encodeValue(field, value, dialect)).toEqual(stored);
    expect(
      decodeValue(
        field,
        typeof stored === 'number' && dialect === 'postgres' ? String(stored) : stored,
        dialect,
      ),
    ).toEqual(back);
  });
  it('stores absence as NULL', () => {
    expect(encodeValue(money, null, 'sqlite')).toBeNull();
    expect(decodeValue(money, null, 'sqlite')).toBeNull();
  });
});
