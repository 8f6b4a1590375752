/**
 * Timed transitions (`after:` and `at:`) on every database: the write that puts a record in a
 * `from` state schedules its timer, the runner fires it as the system at its time and not before,
 * leaving the state or deleting the record cancels it, a changed `at` field moves it (even while
 * its timer is being fired), an empty one schedules nothing, a guard that does not hold when it
 * fires fires nothing, and a second delivery of the same job does nothing. The clock is the test's;
 * the runner is driven by `runDue()`.
 */
import { describe, expect, it } from 'vitest';
import {
  CSRF,
  DIALECTS,
  checkedInject,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
  type TestDialect,
  type TestServer,
} from '@ninefold/testkit';
import { type Job, JobRunner, TABLES, TIMER_JOB, productJobHandlers, timerKey } from '../src/index.js';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

const model = specModel(`
entities:
  Ticket: { fields: { title: string } }
  Loan: { fields: { title: string, dueAt: datetime } }
  Hold: { fields: { title: string, until: date } }
roles:
  clerk:
    Ticket: { read: true, create: true, update: true, delete: true }
    Loan: { read: true, create: true, update: true, delete: true }
    Hold: { read: true, create: true, update: true, delete: true }
states:
  Ticket:
    initial: new
    transitions:
      resolve: { from: new, to: resolved }
      reopen: { from: resolved, to: new }
      autoClose: { from: resolved, to: closed, after: 7d, when: "title != 'keep'" }
  Loan:
    initial: borrowed
    transitions:
      markOverdue: { from: borrowed, to: overdue, at: dueAt }
      giveBack: { from: [borrowed, overdue], to: returned }
  Hold:
    initial: waiting
    transitions:
      expire: { from: waiting, to: expired, at: until }
`);

type Json = Record<string, unknown>;

/** A server, a signed-in clerk, and a runner of the product's jobs on the server's clock. */
async function world(dialect: TestDialect) {
  const server = await testServer(dialect, model);
  await givenUser(server, 'clerk@example.com', ['clerk']);
  let { cookie } = await login(server.app, 'clerk@example.com');
  const handlers = productJobHandlers({
    model,
    database: server.database,
    files: server.files,
    now: server.clock.now,
  });
  const runner = new JobRunner({ database: server.database, now: server.clock.now, handlers });
  const request = async (
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    payload?: Json,
    version?: unknown,
  ) => {
    const response = await checkedInject(server.app, model, {
      method,
      url,
      headers: {
        ...CSRF,
        cookie: cookie!,
        ...(version === undefined ? {} : { 'if-match': `"${String(version)}"` }),
      },
      ...(payload === undefined ? {} : { payload }),
    });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.statusCode === 204 ? {} : response.json<Json>();
  };
  return {
    server,
    runner,
    cookie: () => cookie!,
    /** Moves the clock, and signs in again: a session idle that long has expired. */
    async advance(ms: number) {
      server.clock.advance(ms);
      ({ cookie } = await login(server.app, 'clerk@example.com'));
    },
    handlers,
    create: (resource: string, payload: Json) => request('POST', `/api/${resource}`, payload),
    get: (resource: string, id: unknown) => request('GET', `/api/${resource}/${String(id)}`),
    patch: (resource: string, record: Json, payload: Json) =>
      request('PATCH', `/api/${resource}/${String(record['id'])}`, payload, record['version']),
    fire: (resource: string, record: Json, transition: string) =>
      request(
        'POST',
        `/api/${resource}/${String(record['id'])}/transitions/${transition}`,
        {},
        record['version'],
      ),
    remove: (resource: string, record: Json) =>
      request('DELETE', `/api/${resource}/${String(record['id'])}`, undefined, record['version']),
    history: async (resource: string, id: unknown) =>
      (await request('GET', `/api/${resource}/${String(id)}/history`))['data'] as Json[],
  };
}

/** The timers' jobs of the database, by state. */
async function timerJobs(server: TestServer, state?: string) {
  let select = server.database.db.selectFrom(TABLES.jobs).selectAll().where('kind', '=', TIMER_JOB);
  if (state !== undefined) select = select.where('state', '=', state);
  return select.execute();
}

const at = (server: TestServer, ms: number) => new Date(server.clock.now().getTime() + ms).toISOString();

describe('timer keys', () => {
  it('name the entity, record and transition, and stay within a job key’s length for long names', () => {
    expect(timerKey('Loan', 'l1', 'markOverdue')).toBe('Loan/l1/markOverdue');
    const id = '0193a7b0-0000-7000-8000-000000000001';
    const long = timerKey(`L${'o'.repeat(300)}an`, id, 'markOverdue');
    expect(long.length).toBeLessThanOrEqual(200);
    expect(long.startsWith(`${id}/`)).toBe(true);
    expect(timerKey(`L${'o'.repeat(300)}an`, id, 'giveBack')).not.toBe(long);
  });
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: timed transitions`, () => {
    it('`after` fires at its time and not before, as the system', async () => {
      const w = await world(dialect);
      const ticket = await w.create('tickets', { title: 'Printer' });
      expect(await timerJobs(w.server)).toHaveLength(0); // `new` has no timer
      await w.fire('tickets', ticket, 'resolve');
      const [job] = await timerJobs(w.server, 'pending');
      expect(job?.['dedupe_key']).toBe(timerKey('Ticket', String(ticket['id']), 'autoClose'));
      await w.advance(7 * DAY - 1);
      expect(await w.runner.runDue()).toBe(0);
      expect((await w.get('tickets', ticket['id']))['state']).toBe('resolved');
      await w.advance(1);
      expect(await w.runner.runDue()).toBe(1);
      const closed = await w.get('tickets', ticket['id']);
      expect(closed['state']).toBe('closed');
      expect(closed['version']).toBe(3);
      const last = (await w.history('tickets', ticket['id'])).at(-1)!;
      expect(last).toMatchObject({
        action: 'transition',
        transition: 'autoClose',
        from: 'resolved',
        to: 'closed',
      });
      expect(last['by']).toBeNull();
      expect(last['at']).toBe(w.server.clock.now().toISOString());
      expect(await timerJobs(w.server, 'pending')).toHaveLength(0);
    });

    it('no person is offered a timed transition or may fire it', async () => {
      const w = await world(dialect);
      const ticket = await w.fire('tickets', await w.create('tickets', { title: 'Printer' }), 'resolve');
      expect(ticket['_actions']).toEqual(['reopen']);
      const response = await checkedInject(w.server.app, model, {
        method: 'POST',
        url: `/api/tickets/${String(ticket['id'])}/transitions/autoClose`,
        headers: { ...CSRF, cookie: w.cookie(), 'if-match': `"${String(ticket['version'])}"` },
        payload: {},
      });
      expect(response.statusCode).toBe(403);
      expect(problem(response).code).toBe('E_FORBIDDEN');
      expect((await w.get('tickets', ticket['id']))['state']).toBe('resolved');
    });

    it('leaving the state or deleting the record cancels the timer; entering again starts it anew', async () => {
      const w = await world(dialect);
      let ticket = await w.create('tickets', { title: 'Printer' });
      ticket = await w.fire('tickets', ticket, 'resolve');
      await w.advance(3 * DAY);
      ticket = await w.fire('tickets', ticket, 'reopen');
      expect(await timerJobs(w.server)).toHaveLength(0);
      await w.advance(DAY);
      ticket = await w.fire('tickets', ticket, 'resolve'); // day 4: due on day 11
      await w.advance(7 * DAY - 1);
      expect(await w.runner.runDue()).toBe(0);
      await w.advance(1);
      expect(await w.runner.runDue()).toBe(1);
      expect((await w.get('tickets', ticket['id']))['state']).toBe('closed');

      const other = await w.fire('tickets', await w.create('tickets', { title: 'Fax' }), 'resolve');
      expect(await timerJobs(w.server, 'pending')).toHaveLength(1);
      await w.remove('tickets', other);
      expect(await timerJobs(w.server, 'pending')).toHaveLength(0);
      await w.advance(30 * DAY);
      expect(await w.runner.runDue()).toBe(0);
    });

    it('a guard that does not hold when the timer fires fires nothing', async () => {
      const w = await world(dialect);
      const ticket = await w.fire('tickets', await w.create('tickets', { title: 'keep' }), 'resolve');
      await w.advance(7 * DAY);
      expect(await w.runner.runDue()).toBe(1);
      expect((await w.get('tickets', ticket['id']))['state']).toBe('resolved');
      expect((await w.history('tickets', ticket['id'])).map((e) => e['transition'])).toEqual([
        null,
        'resolve',
      ]);
      expect((await timerJobs(w.server)).map((j) => j['state'])).toEqual(['done']);
    });

    it('a second delivery of a timer that fired does nothing', async () => {
      const w = await world(dialect);
      const ticket = await w.fire('tickets', await w.create('tickets', { title: 'Printer' }), 'resolve');
      const [row] = await timerJobs(w.server, 'pending');
      await w.advance(7 * DAY);
      expect(await w.runner.runDue()).toBe(1);
      const fired = await w.history('tickets', ticket['id']);
      // the runner delivers at least once: the same job again, as after a lost lease
      const job = {
        id: String(row!['id']),
        kind: TIMER_JOB,
        payload: JSON.parse(String(row!['payload'])),
      } as Job;
      await w.handlers[TIMER_JOB]!(job, new AbortController().signal);
      await w.handlers[TIMER_JOB]!(job, new AbortController().signal);
      expect(await w.history('tickets', ticket['id'])).toEqual(fired);
      expect((await w.get('tickets', ticket['id']))['version']).toBe(3);
    });

    it('`at` fires at the field’s time; a changed field moves the timer; an empty one schedules nothing', async () => {
      const w = await world(dialect);
      let loan = await w.create('loans', { title: 'Dune' });
      expect(await timerJobs(w.server)).toHaveLength(0);
      loan = await w.patch('loans', loan, { dueAt: at(w.server, 2 * HOUR) });
      expect(await timerJobs(w.server, 'pending')).toHaveLength(1);
      loan = await w.patch('loans', loan, { dueAt: null });
      expect(await timerJobs(w.server)).toHaveLength(0);
      loan = await w.patch('loans', loan, { dueAt: at(w.server, 2 * HOUR) });
      loan = await w.patch('loans', loan, { dueAt: at(w.server, 5 * HOUR) });
      expect(await timerJobs(w.server)).toHaveLength(1);
      await w.advance(2 * HOUR);
      expect(await w.runner.runDue()).toBe(0);
      await w.advance(3 * HOUR - 1);
      expect(await w.runner.runDue()).toBe(0);
      expect((await w.get('loans', loan['id']))['state']).toBe('borrowed');
      await w.advance(1);
      expect(await w.runner.runDue()).toBe(1);
      expect((await w.get('loans', loan['id']))['state']).toBe('overdue');
      const last = (await w.history('loans', loan['id'])).at(-1)!;
      expect(last).toMatchObject({ transition: 'markOverdue', by: null });
    });

    it('`at` moved while its timer is being fired still fires at the new time (a follow-up job)', async () => {
      const w = await world(dialect);
      let entered!: () => void;
      let release!: () => void;
      const handlerEntered = new Promise<void>((resolve) => (entered = resolve));
      const released = new Promise<void>((resolve) => (release = resolve));
      // the timer's handler held at its start: the field changes while its job is running
      const runner = new JobRunner({
        database: w.server.database,
        now: w.server.clock.now,
        handlers: {
          [TIMER_JOB]: async (job, signal) => {
            entered();
            await released;
            await w.handlers[TIMER_JOB]!(job, signal);
          },
        },
      });
      let loan = await w.create('loans', { title: 'Dune', dueAt: at(w.server, 0) });
      const firing = runner.runDue();
      await handlerEntered;
      loan = await w.patch('loans', loan, { dueAt: at(w.server, 2 * HOUR) });
      release();
      expect(await firing).toBe(1);
      // the job that ran found the field moved and did nothing; its follow-up waits for the new time
      expect((await w.get('loans', loan['id']))['state']).toBe('borrowed');
      const [followUp] = await timerJobs(w.server, 'pending');
      expect(Number(followUp?.['run_at'])).toBe(Date.parse(at(w.server, 2 * HOUR)));
      expect(await timerJobs(w.server, 'done')).toHaveLength(1);
      await w.advance(2 * HOUR - 1);
      expect(await runner.runDue()).toBe(0);
      await w.advance(1);
      expect(await runner.runDue()).toBe(1);
      expect((await w.get('loans', loan['id']))['state']).toBe('overdue');
      expect(
        (await w.history('loans', loan['id'])).filter((e) => e['transition'] === 'markOverdue'),
      ).toHaveLength(1);
    });

    it('`at` a date fires at the start of that day in UTC; a time already past fires at once', async () => {
      const w = await world(dialect);
      // the clock starts at 2026-03-01T09:00Z
      const hold = await w.create('holds', { title: 'Dune', until: '2026-03-03' });
      await w.advance(2 * DAY - 9 * HOUR - 1);
      expect(await w.runner.runDue()).toBe(0);
      await w.advance(1); // 2026-03-03T00:00Z
      expect(await w.runner.runDue()).toBe(1);
      expect((await w.get('holds', hold['id']))['state']).toBe('expired');

      const late = await w.create('loans', { title: 'Emma', dueAt: at(w.server, -HOUR) });
      expect(await w.runner.runDue()).toBe(1);
      expect((await w.get('loans', late['id']))['state']).toBe('overdue');
    });
  });
}
