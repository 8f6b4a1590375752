/**
 * The crucial property: for random records stored with the engine's encoding in real SQLite and
 * PostgreSQL, and random conditions from the SQL subset, the rows the SQL filter returns are exactly
 * the records for which the in-memory evaluation holds.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Value } from '@ninefold/model';
import { DIALECTS, accessFor, activation, can, holds, toSqlFilter, type UserContext } from '../src/index.js';
import { type TestDb, openDb } from './databases.js';
import { NOW, model } from './fixtures.js';

const SPEC = `
product: { name: Items }
entities:
  Item:
    owner: owner
    fields:
      n:     { type: integer }
      k:     { type: integer }
      amt:   { type: money, currency: EUR }
      fee:   { type: decimal, scale: 3, precision: 9 }
      t:     { type: string }
      u:     { type: string }
      e:     { type: enum, values: [x, y, z] }
      b:     { type: boolean }
      at:    { type: datetime }
      d:     { type: date }
      owner: { type: ref, to: User }
      user:  { type: ref, to: User }
states:
  Item: { initial: open, transitions: { close: { from: open, to: closed } } }
roles:
  reader: { Item: { read: own } }
  viewer: { Item: { read: "state == 'open' && (amt > LIMIT || !has(fee))" } }
  critic: { Item: { read: "!(n > 2) || t.startsWith(NAME)" } }
  auditor: { Item: { read: "e in ['x', 'y'] && at < now", fields: { read: [e] } } }
  admin: { Item: { read: all } }
  nobody: { Item: { read: false } }
constants: { LIMIT: 5, RATE: 2.5, NAME: "a", FLAG: true, HALF: 0.5, SLA: "90m", START: "2026-11-20" }
`;
const m = model(SPEC);
const entity = m.entities['Item']!;

const USERS: UserContext[] = [
  { id: 'u1', email: 'one@example.com', name: 'One', roles: ['reader'] },
  { id: 'u2', email: 'two@example.com', name: 'Two', roles: ['viewer', 'critic'] },
  { id: 'u3', name: 'Three', roles: ['auditor', 'reader', 'ghost'] },
  { id: 'u4', email: 'four@example.com', name: 'Four', roles: ['admin'] },
  { id: 'u5', email: 'five@example.com', name: 'Five', roles: [] },
  { id: 'u6', email: 'six@example.com', name: 'Six', roles: ['nobody', 'critic'] },
];

// ---- records ----
const opt = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined, freq: 3 });
const text = fc.string({
  unit: fc.constantFrom('a', 'b', 'A', '%', '_', '*', '[', ']', '\\', 'é', ' '),
  maxLength: 3,
});
const instant = fc
  .integer({ min: -5, max: 5 })
  .map((h) => new Date(NOW.getTime() + h * 1_800_000 + (h % 2) * 1).toISOString());
const date = fc
  .integer({ min: -3, max: 3 })
  .map((d) => new Date(NOW.getTime() + d * 86_400_000).toISOString().slice(0, 10));
const minor = (scale: number) => (n: number) => {
  const neg = n < 0;
  const digits = String(Math.abs(n)).padStart(scale + 1, '0');
  return `${neg ? '-' : ''}${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
};
const recordArb = fc.record({
  n: opt(fc.integer({ min: -4, max: 6 })),
  k: opt(fc.integer({ min: -2, max: 3 })),
  amt: opt(fc.integer({ min: -800, max: 1200 }).map(minor(2))),
  fee: opt(
    fc.oneof(fc.integer({ min: -3000, max: 9000 }), fc.constantFrom(500, 5000, 2500, 100)).map(minor(3)),
  ),
  t: opt(text),
  u: opt(text),
  e: opt(fc.constantFrom('x', 'y', 'z')),
  b: opt(fc.boolean()),
  at: opt(instant),
  d: opt(date),
  owner: opt(fc.constantFrom('u1', 'u2', 'u3')),
  user: opt(fc.constantFrom('u1', 'u2')),
  state: fc.constantFrom('open', 'closed'),
});
const recordsArb = fc.array(recordArb, { maxLength: 24 }).map((rows) =>
  rows.map((r, i) => {
    const out: Record<string, Value> = {
      id: `r${String(i).padStart(2, '0')}`,
      version: 1,
      createdAt: NOW.toISOString(),
    };
    for (const [key, value] of Object.entries(r)) if (value !== undefined) out[key] = value;
    return out;
  }),
);

// ---- conditions from the SQL subset, built by type ----
const leaf = <T extends string>(...xs: T[]) => fc.constantFrom(...xs);
const intLeaf = leaf('n', 'k', 'self.n', 'LIMIT', '0', '2', '-1', 'size(t)', 'size(user.name)');
const dblLeaf = leaf('amt', 'fee', 'self.amt', 'RATE', 'HALF', '0.1', '5.0', '-2.5', '12.34', '0.005');
const strLeaf = leaf(
  't',
  'u',
  'e',
  'self.t',
  'state',
  'NAME',
  "''",
  "'a'",
  "'b%'",
  "'a_'",
  "'*'",
  "'[a]'",
  "'x'",
  'user.id',
  'user.email',
);
const { int, dbl, str } = fc.letrec<{ int: string; dbl: string; str: string }>((tie) => ({
  int: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    intLeaf,
    fc.tuple(tie('int'), leaf('+', '-', '*'), tie('int')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie('int'), leaf('2', '-3', 'k')).map(([a, b]) => `(${a} / ${b})`),
    tie('int').map((a) => `-(${a})`),
  ),
  dbl: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    dblLeaf,
    fc.tuple(tie('dbl'), leaf('+', '-', '*'), tie('dbl')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    fc.tuple(tie('dbl'), leaf('4.0', 'RATE')).map(([a, b]) => `(${a} / ${b})`),
  ),
  str: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    strLeaf,
    fc.tuple(tie('str'), tie('str')).map(([a, b]) => `(${a} + ${b})`),
  ),
}));
// durations, instants and dates (decision 0064): arithmetic and comparisons of each
const durLeaf = leaf(
  "duration('24h')",
  "duration('1h30m')",
  "duration('-2h')",
  "duration('0s')",
  "duration('72h')",
  "duration('1.5s')",
  'duration(SLA)',
);
const { dur, inst, day } = fc.letrec<{ dur: string; inst: string; day: string }>((tie) => ({
  dur: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    durLeaf,
    fc.tuple(tie('inst'), tie('inst')).map(([a, b]) => `(${a} - ${b})`),
    fc.tuple(tie('day'), tie('day')).map(([a, b]) => `(${a} - ${b})`),
    fc.tuple(tie('dur'), leaf('+', '-'), tie('dur')).map(([a, op, b]) => `(${a} ${op} ${b})`),
  ),
  inst: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf('at', 'now', 'createdAt', 'self.at', "timestamp('2026-11-22T10:00:00Z')"),
    fc.tuple(tie('inst'), leaf('+', '-'), tie('dur')).map(([a, op, b]) => `(${a} ${op} ${b})`),
  ),
  day: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf('d', 'self.d', 'today', 'START', "'2026-11-25'", "'2026-02-30'"),
    fc.tuple(tie('day'), leaf('+', '-'), tie('dur')).map(([a, op, b]) => `(${a} ${op} ${b})`),
  ),
}));
const cmp = leaf('==', '!=', '<', '<=', '>', '>=');
const ord = leaf('<', '<=', '>', '>=');
const atom = fc.oneof(
  fc.tuple(int, cmp, int).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(dbl, cmp, dbl).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(dbl, ord, int).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(str, cmp, str).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(str, leaf('startsWith', 'endsWith', 'contains'), str).map(([a, fn, b]) => `${a}.${fn}(${b})`),
  fc
    .tuple(leaf('at', 'createdAt'), cmp, leaf('now', 'self.at', 'createdAt'))
    .map(([a, op, b]) => `${a} ${op} ${b}`),
  fc
    .tuple(leaf('d', 'today', "'2026-11-22'"), cmp, leaf('d', 'today'))
    .map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(dur, cmp, dur).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(inst, cmp, inst).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc.tuple(day, cmp, day).map(([a, op, b]) => `${a} ${op} ${b}`),
  fc
    .tuple(leaf('e', 't', 'state', "'a'"), leaf("['x', 'y']", '[]', "['a', t]", '[u, e]', 'user.roles'))
    .map(([a, l]) => `${a} in ${l}`),
  fc.tuple(int, leaf('[1, 2, LIMIT]', '[n, 0]')).map(([a, l]) => `${a} in ${l}`),
  leaf(
    'b',
    'self.b',
    '!b',
    'b == FLAG',
    'b != (n > 1)',
    'own',
    '!own',
    'FLAG',
    "'admin' in user.roles",
    'has(self.n)',
    'has(self.t)',
    'has(self.amt)',
    'has(self.b)',
    'has(user.email)',
    'owner == user.id',
    // a field named like an expression name is `self.user`; the bare name stays the signed-in user
    'self.user == user.id',
    'has(self.user)',
    "has(user.email) && self.user != 'u1'",
  ),
);
const condition = fc.letrec<{ bool: string }>((tie) => ({
  bool: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    atom,
    atom,
    fc.tuple(tie('bool'), leaf('&&', '||'), tie('bool')).map(([a, op, b]) => `(${a} ${op} ${b})`),
    tie('bool').map((a) => `!(${a})`),
    fc.tuple(tie('bool'), tie('bool'), tie('bool')).map(([c, a, b]) => `(${c} ? ${a} : ${b})`),
    fc.tuple(tie('bool'), int, int, cmp).map(([c, a, b, op]) => `(${c} ? ${a} : ${b}) ${op} n`),
  ),
})).bool;

const clock = { now: NOW, today: '2026-11-23' };

for (const dialect of DIALECTS) {
  describe(`${dialect}: SQL filters select exactly what evaluation allows`, () => {
    let db: TestDb;
    beforeAll(async () => {
      db = await openDb(dialect, entity);
    });
    afterAll(async () => {
      await db?.close();
    });

    const agree = async (source: string, records: Record<string, Value>[], user: UserContext) => {
      await db.reset(records);
      const filter = toSqlFilter(m, 'Item', source, { ...clock, user, dialect });
      const expected = records
        .filter((r) => holds(m, 'Item', source, activation(m, 'Item', r, { ...clock, user })))
        .map((r) => r.id as string)
        .sort();
      let actual: string[];
      try {
        actual = await db.ids(filter.sql, filter.params);
      } catch (error) {
        throw new Error(
          `${source}\n  → ${filter.sql} ${JSON.stringify(filter.params)}\n  ${(error as Error).message}`,
          { cause: error },
        );
      }
      expect({ source, sql: filter.sql, rows: actual }).toEqual({ source, sql: filter.sql, rows: expected });
    };

    it('random conditions over random records', async () => {
      await fc.assert(
        fc.asyncProperty(condition, recordsArb, fc.constantFrom(...USERS), (source, records, user) =>
          agree(source, records, user),
        ),
        { numRuns: Number(process.env['ENGINE_PROPERTY_RUNS'] ?? (dialect === 'sqlite' ? 400 : 200)) },
      );
    });

    it("random records against every role's read permission, as can() decides", async () => {
      await fc.assert(
        fc.asyncProperty(recordsArb, fc.constantFrom(...USERS), async (records, user) => {
          await db.reset(records);
          const filter = toSqlFilter(m, 'Item', accessFor(m, user, 'read', 'Item'), {
            ...clock,
            user,
            dialect,
          });
          const expected = records
            .filter((r) => can(m, user, 'read', 'Item', r, clock))
            .map((r) => r.id as string);
          expect(await db.ids(filter.sql, filter.params)).toEqual(expected.sort());
        }),
        { numRuns: 60 },
      );
    });

    it.each([
      ['x != 3 with x absent', 'n != 3'],
      ['a negated comparison with an absent value', '!(n > 3)'],
      ['own when the record has no owner', '!own'],
      ['a ternary whose condition is absent', '(b ? true : true)'],
      ['a list with an absent item', "'a' in ['a', t]"],
      ['an empty list under negation', '!(t in [])'],
      ['an amount between two cents', 'amt > 0.005 && amt < 0.015'],
      ['a decimal equal to a constant', 'fee == HALF'],
      ['case-sensitive matching', "t.startsWith('A') || t.contains('%') || t.endsWith('_')"],
      ['integer division by zero', 'n / k > 0 || !(n / k > 0)'],
      ['an instant less than a day away', "at - now < duration('24h') && at > now"],
      ['an instant moved by a duration', "at + duration('1h30m') >= now"],
      ['a date moved by whole days', "d + duration('48h') > today"],
      ['a date moved by part of a day', "d + duration('1h') > today || d - duration('36h') < today"],
      ['dates subtracted', "today - d >= duration('24h')"],
      ['an instant far beyond the year 9999', "at + duration('87600000h') > now"],
    ])('%s', async (_what, source) => {
      const records: Record<string, Value>[] = [
        { id: 'r0', state: 'open' },
        {
          id: 'r1',
          state: 'open',
          n: 3,
          k: 0,
          t: 'a',
          owner: 'u1',
          b: true,
          amt: '0.01',
          fee: '0.500',
          at: '2026-11-23T20:00:00.001Z',
          d: '2026-11-22',
        },
        { id: 'r2', state: 'closed', n: 4, k: 2, t: 'A%_', owner: 'u2', b: false, amt: '0.02', fee: '0.499' },
        {
          id: 'r3',
          state: 'open',
          n: -1,
          k: -1,
          t: 'abc',
          amt: '-0.01',
          fee: '-0.500',
          at: NOW.toISOString(),
        },
        { id: 'r4', state: 'open', at: '2026-11-20T09:30:00.000Z', d: '2026-11-25' },
      ];
      for (const user of USERS.slice(0, 2)) await agree(source, records, user);
    });
  });
}
