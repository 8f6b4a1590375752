/**
 * Demo records of an entity with a timed transition (`at:`): the field it fires at is spread around
 * the demo's start, mostly in the past, so that a demo opens on timers that fired (a loan already
 * overdue) beside timers still waiting; a record its creator may make for someone else (a loan the
 * desk records) is another demo user's. Checked on the values alone, and on the library-loans
 * example seeded through the API on every database and then run by the product's job runner.
 */
import { describe, expect, it } from 'vitest';
import { JobRunner, buildApp, migrate, productJobHandlers, tableName } from '@ninefold/server';
import { DIALECTS, exampleModel, freshDatabase, specModel, tempFileStore } from '@ninefold/testkit';
import { aroundNow, generateRecord, seedDemoAccounts, seedDemoData, timedFields } from '../src/index.js';

const DAY = 86_400_000;
const NOW = new Date('2026-03-10T09:00:00.000Z');

const model = specModel(`
entities:
  Loan: { fields: { title: { type: string, required: true }, dueAt: { type: datetime, default: now }, until: date } }
  Note: { fields: { title: string, at: datetime } }
states:
  Loan:
    initial: borrowed
    transitions:
      markOverdue: { from: borrowed, to: overdue, at: dueAt }
      expire: { from: [borrowed, overdue], to: expired, at: until }
      giveBack: { from: [borrowed, overdue], to: returned }
`);

const demo = (ordinal: number) => ({ prefix: 'Sample', ordinal });

describe('timed fields in demo values', () => {
  it('are the fields an `at` transition fires at, and only those', () => {
    expect(timedFields(model, 'Loan')).toEqual(['dueAt', 'until']);
    expect(timedFields(model, 'Note')).toEqual([]);
  });

  it('lie around now for a demo series, some before and some after; never for test values', () => {
    const dueAt = model.entities['Loan']!.fields['dueAt']!;
    const until = model.entities['Loan']!.fields['until']!;
    const times = [1, 2, 3, 4, 5, 6].map((k) => Date.parse(String(aroundNow(dueAt, NOW, k)[0])));
    expect(times.filter((t) => t < NOW.getTime()).length).toBeGreaterThanOrEqual(2);
    expect(times.filter((t) => t > NOW.getTime()).length).toBeGreaterThanOrEqual(1);
    for (const t of times) expect(Math.abs(t - NOW.getTime())).toBeLessThanOrEqual(10 * DAY);
    expect(aroundNow(dueAt, NOW, 2)).toEqual([new Date(NOW.getTime() - 2 * DAY).toISOString()]);
    expect(aroundNow(until, NOW, 2)).toEqual(['2026-03-08']);
    expect(aroundNow(dueAt, NOW, 0)).toEqual([]);
    expect(aroundNow(model.entities['Loan']!.fields['title']!, NOW, 2)).toEqual([]);
  });

  it('replace a default in a demo record, and leave it alone in a test record', () => {
    const options = { writable: ['title', 'dueAt', 'until'], refIds: {}, now: NOW, spread: ['dueAt'] };
    const sample = generateRecord(model, 'Loan', null, { ...options, wording: demo(2) });
    expect(sample.input['dueAt']).toBe(new Date(NOW.getTime() - 2 * DAY).toISOString());
    expect(sample.input).not.toHaveProperty('until'); // not spread: optional fields stay empty
    const test = generateRecord(model, 'Loan', null, options);
    expect(test.input).not.toHaveProperty('dueAt');
    expect(test.record['dueAt']).toBe(NOW.toISOString()); // its default
    const unwritable = generateRecord(model, 'Loan', null, {
      ...options,
      writable: ['title'],
      wording: demo(2),
    });
    expect(unwritable.input).not.toHaveProperty('dueAt');
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: library-loans demo`, () => {
    it('opens with loans overdue by the system right after start, and loans due later', async () => {
      const loans = exampleModel('library-loans.md');
      const { database } = await freshDatabase(dialect);
      await migrate(database, loans);
      const accounts = await seedDemoAccounts(database, loans);
      const app = buildApp({ model: loans, database, logger: false });
      const { created } = await seedDemoData(app, database, loans, accounts);
      expect(created['Loan']).toBe(6);
      const now = () => new Date();
      const runner = new JobRunner({
        database,
        now,
        handlers: productJobHandlers({ model: loans, database, files: tempFileStore(), now }),
      });
      await runner.runDue();
      const rows = await database.db
        .selectFrom(tableName('loans'))
        .select(['id', 'state', 'dueAt'])
        .execute();
      const start = Date.now();
      const overdue = rows.filter((r) => r['state'] === 'overdue');
      const waiting = rows.filter((r) => r['state'] === 'borrowed');
      expect(overdue.length).toBeGreaterThanOrEqual(1);
      expect(waiting.length).toBeGreaterThanOrEqual(1);
      for (const r of overdue) expect(Date.parse(String(r['dueAt']))).toBeLessThan(start);
      for (const r of waiting) expect(Date.parse(String(r['dueAt']))).toBeGreaterThan(start);
      const marked = await database.db
        .selectFrom('ninefold_history')
        .select(['record_id', 'by'])
        .where('transition', '=', 'markOverdue')
        .execute();
      expect(marked.map((h) => h['record_id']).sort()).toEqual(overdue.map((r) => r['id']).sort());
      expect(marked.every((h) => h['by'] === null)).toBe(true);
      // the desk records loans for the member: the member has overdue loans of their own to see
      const member = accounts.find((a) => a.role === 'member')!;
      const borrowers = await database.db
        .selectFrom(tableName('loans'))
        .innerJoin(tableName('users'), `${tableName('users')}.id`, `${tableName('loans')}.borrower`)
        .select(['email'])
        .where(`${tableName('loans')}.state`, '=', 'overdue')
        .execute();
      expect(borrowers.map((b) => b['email'])).toEqual(overdue.map(() => member.email));
      await app.close();
    }, 90_000);
  });
}
