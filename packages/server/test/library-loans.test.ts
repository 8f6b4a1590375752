/**
 * The library-loans example over HTTP, on every database: a product that lives in time. A member
 * borrows a book; the loan turns overdue by the system exactly at its due time and not before;
 * renewing before then moves that time (and the timer with it), at most MAX_RENEWALS times and never
 * once due, each refusal with its own catalogue code; returning the book cancels the timer; and a
 * member never reads another member's loans. The spec's `loan-overdue` notification is checked as
 * compiled (its delivery: library-loans-notified.test.ts). The clock is the test’s; the runner is driven by
 * `runDue()`, and every client signs in again after the clock moves (its session would have expired).
 */
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  givenUser,
  login,
  problem,
  testServer,
  type TestDialect,
} from '@ninefold/testkit';
import { JobRunner, TABLES, TIMER_JOB, productJobHandlers } from '../src/index.js';
import { type Json, exampleModel } from './world.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const model = exampleModel('library-loans.md');
const LOAN_DAYS = Number(model.constants['LOAN_DAYS']);
const LOAN = LOAN_DAYS * DAY;

type Name = 'lena' | 'mia' | 'max';
const ROLES: Record<Name, string[]> = { lena: ['librarian'], mia: ['member'], max: ['member'] };

/** A library with a librarian (lena), two members (mia, max), one book, and the product's runner. */
async function library(dialect: TestDialect) {
  const server = await testServer(dialect, model);
  const ids = {} as Record<Name, string>;
  const cookies = {} as Record<Name, string>;
  const signIn = async () => {
    for (const name of Object.keys(ROLES) as Name[]) {
      const { cookie } = await login(server.app, `${name}@example.com`);
      cookies[name] = cookie!;
    }
  };
  for (const [name, roles] of Object.entries(ROLES) as [Name, string[]][]) {
    ids[name] = (await givenUser(server, `${name}@example.com`, roles)).id;
  }
  await signIn();
  // the timers' runner only: the spec's notification jobs wait unclaimed, so each runDue() counts timers
  const handlers = productJobHandlers({
    model,
    database: server.database,
    files: server.files,
    now: server.clock.now,
  });
  const runner = new JobRunner({
    database: server.database,
    now: server.clock.now,
    handlers: { [TIMER_JOB]: handlers[TIMER_JOB]! },
  });
  const request = (
    who: Name,
    method: 'GET' | 'POST' | 'PATCH',
    url: string,
    payload?: Json,
    version?: unknown,
  ) =>
    checkedInject(server.app, model, {
      method,
      url,
      headers: {
        ...CSRF,
        cookie: cookies[who],
        ...(version === undefined ? {} : { 'if-match': `"${String(version)}"` }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
  const ok = async (response: Awaited<ReturnType<typeof request>>) => {
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json<Json>();
  };
  const book = await ok(
    await request('lena', 'POST', '/api/books', {
      title: 'The Odyssey',
      author: 'Homer',
      isbn: '9780140449136',
      shelf: 'CL2',
    }),
  );
  return {
    server,
    ids,
    runner,
    book,
    request,
    ok,
    /** Moves the clock and signs everyone in again. */
    async advance(ms: number) {
      server.clock.advance(ms);
      await signIn();
    },
    borrow: async (who: Name, payload: Json = {}) =>
      ok(await request(who, 'POST', '/api/loans', { book: book['id'], barcode: 'C00123', ...payload })),
    get: (who: Name, loan: Json) => request(who, 'GET', `/api/loans/${String(loan['id'])}`),
    fire: (who: Name, loan: Json, transition: string) =>
      request(who, 'POST', `/api/loans/${String(loan['id'])}/transitions/${transition}`, {}, loan['version']),
    stateOf: async (loan: Json) =>
      (await ok(await request('lena', 'GET', `/api/loans/${String(loan['id'])}`)))['state'],
    history: async (loan: Json) =>
      (await ok(await request('lena', 'GET', `/api/loans/${String(loan['id'])}/history`)))['data'] as Json[],
    pendingTimers: async () =>
      server.database.db
        .selectFrom(TABLES.jobs)
        .select(['dedupe_key', 'run_at'])
        .where('kind', '=', TIMER_JOB)
        .where('state', '=', 'pending')
        .execute(),
  };
}

const iso = (ms: number) => new Date(ms).toISOString();

describe('library loans: the borrower is told', () => {
  it('the spec tells the borrower of an overdue loan, in the app and by e-mail', () => {
    expect(model.notifications['loan-overdue']).toMatchObject({
      on: [{ entity: 'Loan', kind: 'transition', transition: 'markOverdue', name: 'Loan.markOverdue' }],
      to: [{ kind: 'user', field: 'borrower' }],
      channels: ['app', 'email'],
      mandatory: false,
    });
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: library loans`, () => {
    it('a member borrows a book for themselves, due LOAN_DAYS later, without the librarians’ note', async () => {
      const l = await library(dialect);
      const start = l.server.clock.now().getTime();
      const loan = await l.borrow('mia');
      expect(loan).toMatchObject({
        state: 'borrowed',
        book: l.book['id'],
        barcode: 'C00123',
        borrower: l.ids.mia,
        borrowedOn: iso(start).slice(0, 10),
        dueAt: iso(start + LOAN),
        renewals: 0,
        _actions: ['renew'],
      });
      expect(loan).not.toHaveProperty('note');
      expect(await l.pendingTimers()).toEqual([
        expect.objectContaining({ dedupe_key: `Loan/${String(loan['id'])}/markOverdue` }),
      ]);
      // a member borrows only for themselves
      const forMax = problem(
        await l.request('mia', 'POST', '/api/loans', {
          book: l.book['id'],
          barcode: 'C00124',
          borrower: l.ids.max,
        }),
      );
      expect(forMax.status).toBe(422);
      expect(forMax.errors?.[0]).toMatchObject({ field: 'borrower', code: 'E_READONLY_FIELD' });
      const badCopy = problem(
        await l.request('mia', 'POST', '/api/loans', { book: l.book['id'], barcode: '123' }),
      );
      expect(badCopy.errors?.[0]).toMatchObject({ field: 'barcode', code: 'E_PATTERN' });
      // nor changes the due time, nor returns the book
      const patched = problem(
        await l.request('mia', 'PATCH', `/api/loans/${String(loan['id'])}`, { dueAt: iso(start) }, 1),
      );
      expect(patched.code).toBe('E_FORBIDDEN');
      expect(problem(await l.fire('mia', loan, 'returnBook')).code).toBe('E_FORBIDDEN');
      expect(problem(await l.fire('lena', loan, 'markOverdue')).code).toBe('E_FORBIDDEN');
    });

    it('is overdue exactly at its due time and not before, by the system', async () => {
      const l = await library(dialect);
      const loan = await l.borrow('mia');
      await l.advance(LOAN - 1);
      expect(await l.runner.runDue()).toBe(0);
      expect(await l.stateOf(loan)).toBe('borrowed');
      await l.advance(1);
      expect(await l.runner.runDue()).toBe(1);
      expect(await l.stateOf(loan)).toBe('overdue');
      const last = (await l.history(loan)).at(-1)!;
      expect(last).toMatchObject({ transition: 'markOverdue', from: 'borrowed', to: 'overdue', by: null });
      expect(last['at']).toBe(loan['dueAt']);
      // an overdue loan is no longer renewed: the member is offered nothing
      const seen = await l.ok(await l.get('mia', loan));
      expect(seen['_actions']).toEqual([]);
      expect(problem(await l.fire('mia', seen, 'renew')).code).toBe('E_TRANSITION_NOT_ALLOWED');
    });

    it('renewing before the due time moves the timer: not overdue at the old time, overdue at the new', async () => {
      const l = await library(dialect);
      const loan = await l.borrow('mia');
      await l.advance(10 * DAY);
      const renewed = await l.ok(await l.fire('mia', loan, 'renew'));
      const newDue = Date.parse(String(loan['dueAt'])) + LOAN;
      expect(renewed).toMatchObject({ state: 'borrowed', renewals: 1, dueAt: iso(newDue) });
      const timers = await l.pendingTimers();
      expect(timers).toHaveLength(1);
      expect(Number(timers[0]!['run_at'])).toBe(newDue);

      await l.advance(LOAN - 10 * DAY); // the old due time
      expect(await l.runner.runDue()).toBe(0);
      expect(await l.stateOf(loan)).toBe('borrowed');
      await l.advance(LOAN - 1);
      expect(await l.runner.runDue()).toBe(0);
      expect(await l.stateOf(loan)).toBe('borrowed');
      await l.advance(1);
      expect(await l.runner.runDue()).toBe(1);
      expect(await l.stateOf(loan)).toBe('overdue');
      expect((await l.history(loan)).map((e) => [e['transition'], e['by']])).toEqual([
        [null, l.ids.mia],
        ['renew', l.ids.mia],
        ['markOverdue', null],
      ]);
    });

    it('a loan is renewed at most MAX_RENEWALS times, and never once due', async () => {
      const l = await library(dialect);
      const max = Number(model.constants['MAX_RENEWALS']);
      expect(max).toBe(2);
      let loan = await l.borrow('mia');
      for (let k = 1; k <= max; k++) {
        loan = await l.ok(await l.fire(k === 1 ? 'mia' : 'lena', loan, 'renew'));
        expect(loan['renewals']).toBe(k);
      }
      expect(problem(await l.fire('mia', loan, 'renew'))).toMatchObject({
        status: 409,
        code: 'E_RENEWAL_LIMIT',
        message: 'A loan can be renewed at most 2 times: please bring the book back to the desk.',
      });
      expect(await l.ok(await l.get('mia', loan))).toMatchObject({ renewals: max, version: loan['version'] });

      // due, but the runner has not marked it yet: the guard refuses with its own code
      const other = await l.borrow('max');
      await l.advance(LOAN);
      const late = await l.ok(await l.get('max', other));
      expect(late).toMatchObject({ state: 'borrowed', _actions: [] });
      expect(problem(await l.fire('max', late, 'renew'))).toMatchObject({
        status: 409,
        code: 'E_RENEW_TOO_LATE',
        message:
          'This loan is already due and can no longer be renewed: please bring the book back to the desk.',
      });
      expect(await l.runner.runDue()).toBeGreaterThanOrEqual(1);
      expect(await l.stateOf(other)).toBe('overdue');
    });

    it('returning the book cancels the timer, whether borrowed or overdue', async () => {
      const l = await library(dialect);
      const kept = await l.borrow('mia');
      const late = await l.borrow('max');
      const returned = await l.ok(await l.fire('lena', kept, 'returnBook'));
      expect(returned).toMatchObject({
        state: 'returned',
        returnedOn: iso(l.server.clock.now().getTime()).slice(0, 10),
      });
      expect((await l.pendingTimers()).map((t) => t['dedupe_key'])).toEqual([
        `Loan/${String(late['id'])}/markOverdue`,
      ]);
      await l.advance(LOAN);
      expect(await l.runner.runDue()).toBe(1);
      expect(await l.stateOf(kept)).toBe('returned');
      const overdue = await l.ok(await l.get('lena', late));
      expect(overdue['state']).toBe('overdue');
      expect(await l.ok(await l.fire('lena', overdue, 'returnBook'))).toMatchObject({ state: 'returned' });
      await l.advance(30 * DAY);
      expect(await l.runner.runDue()).toBe(0);
      expect(await l.pendingTimers()).toEqual([]);
    });

    it('a librarian records a loan with a due time already past: it turns overdue at once', async () => {
      const l = await library(dialect);
      const dueAt = iso(l.server.clock.now().getTime() - HOUR);
      const loan = await l.borrow('lena', { borrower: l.ids.max, dueAt, note: 'Entered from a paper slip.' });
      expect(loan).toMatchObject({ borrower: l.ids.max, dueAt, note: 'Entered from a paper slip.' });
      expect(await l.runner.runDue()).toBe(1);
      expect(await l.stateOf(loan)).toBe('overdue');
    });

    it('a member never reads, lists or renews another member’s loan', async () => {
      const l = await library(dialect);
      const mine = await l.borrow('mia');
      const theirs = await l.borrow('lena', { borrower: l.ids.max });
      const hidden = problem(await l.get('mia', theirs));
      expect(hidden).toMatchObject({
        status: 404,
        code: 'E_NOT_FOUND',
        message: "This Loan does not exist, or it is another member's.",
      });
      expect(problem(await l.fire('mia', theirs, 'renew')).status).toBe(404);
      const list = await l.ok(await l.request('mia', 'GET', '/api/loans?total=true'));
      expect((list['data'] as Json[]).map((r) => r['id'])).toEqual([mine['id']]);
      expect(list['total']).toBe(1);
      const all = await l.ok(await l.request('lena', 'GET', '/api/loans?total=true'));
      expect(all['total']).toBe(2);
      expect(await l.ok(await l.get('max', theirs))).toMatchObject({ borrower: l.ids.max });
    });
  });
}
