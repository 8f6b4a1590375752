/**
 * Durations, dates and fields named like expression names, evaluated (decision 0064): the same
 * answers from `activation` and `lazyActivation` (the server's and the browser's evaluation),
 * and from the SQL filter.
 */
import { describe, expect, it } from 'vitest';
import {
  activation,
  evaluate,
  holds,
  lazyActivation,
  toSqlFilter,
  type UserContext,
  type WireRecord,
} from '../src/index.js';
import { NOW, model } from './fixtures.js';

const m = model(`
product: { name: Library }
entities:
  Loan:
    fields:
      title: string
      borrowedOn: date
      dueOn: date
      dueAt: datetime
      user: { type: ref, to: User }
      now: datetime
      status: { type: enum, values: [out, back] }
`);
const reader: UserContext = { id: 'u1', email: 'one@example.com', name: 'One', roles: ['user'] };
const clock = { now: NOW, today: '2026-11-23' };
const loan: WireRecord = {
  title: 'Dune',
  borrowedOn: '2026-11-01',
  dueOn: '2026-11-29',
  dueAt: '2026-11-24T08:00:00.000Z',
  user: 'u2',
  now: '2026-01-01T00:00:00.000Z',
  status: 'out',
};

/** The value of an expression about the loan, the same from both activations or the test fails. */
function value(source: string, user: UserContext | null = reader): unknown {
  const ctx = { ...clock, user };
  const eager = evaluate(m, 'Loan', source, activation(m, 'Loan', loan, ctx));
  const lazy = evaluate(m, 'Loan', source, lazyActivation(m, 'Loan', loan, ctx));
  expect(lazy).toEqual(eager);
  if (!eager.ok) throw new Error(eager.error);
  return eager.value;
}

describe('durations and dates', () => {
  it('an instant moved by a duration, and the duration between two instants', () => {
    expect(value("dueAt - now < duration('24h')")).toBe(true);
    expect(value("dueAt - now < duration('22h30m')")).toBe(false);
    expect((value("now + duration('672h')") as Date).toISOString()).toBe('2026-12-21T09:30:00.000Z');
    expect(value("duration('1h30m') > duration('90m')")).toBe(false);
  });

  it('a date moved by whole days, and the days between two dates', () => {
    expect(value("borrowedOn + duration('672h')")).toBe('2026-11-29');
    expect(value("dueOn - duration('24h')")).toBe('2026-11-28');
    expect(value("dueOn - borrowedOn == duration('672h')")).toBe(true);
    expect(value("today - dueOn < duration('0s')")).toBe(true);
  });

  it('a date moved by part of a day, or text that is no date, is an error', () => {
    expect(() => value("dueOn + duration('1h')")).toThrow(/whole days/);
    expect(() => value('title - today')).toThrow(/is not a date/);
    expect(() => value("'2026-02-30' - today")).toThrow(/is not a date/);
  });

  it('the SQL filter binds a duration known now as milliseconds', () => {
    const filter = toSqlFilter(m, 'Loan', "dueAt - now < duration('24h')", {
      ...clock,
      user: reader,
      dialect: 'sqlite',
    });
    expect(filter.sql).toContain('< 86400000)');
    expect(filter.sql).toContain('julianday("dueAt")');
  });
});

describe('a field named like an expression name', () => {
  it('is `self.user`, while the bare `user` stays the signed-in user', () => {
    expect(value('self.user')).toBe('u2');
    expect(value('user.id')).toBe('u1');
    expect(value('self.user == user.id')).toBe(false);
    expect(value("self.user == 'u2' && has(self.now)")).toBe(true);
  });

  it("a guest has no `user`: the record's field does not stand in for one", () => {
    const ctx = { ...clock, user: null };
    expect(holds(m, 'Loan', "user.id == 'u2'", activation(m, 'Loan', loan, ctx))).toBe(false);
    expect(holds(m, 'Loan', "user.id == 'u2'", lazyActivation(m, 'Loan', loan, ctx))).toBe(false);
    expect(value("self.user == 'u2'", null)).toBe(true);
  });

  it('`now` is the clock, and the field `now` is `self.now`', () => {
    expect((value('now') as Date).toISOString()).toBe(NOW.toISOString());
    expect((value('self.now') as Date).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    expect(value("status == 'out'")).toBe(true);
  });

  it('in SQL, `self.user` is the column and `user.id` a parameter', () => {
    const filter = toSqlFilter(m, 'Loan', 'self.user == user.id', {
      ...clock,
      user: reader,
      dialect: 'postgres',
    });
    expect(filter).toEqual({ sql: '("user" = CAST(? AS TEXT))', params: ['u1'] });
    const bare = toSqlFilter(m, 'Loan', "user.id == 'u1'", { ...clock, user: reader, dialect: 'postgres' });
    expect(bare).toEqual({ sql: '1=1', params: [] });
  });
});
