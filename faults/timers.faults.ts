/**
 * Timed transitions under load on the real PostgreSQL server (decision 0029): 100 records created
 * through the API each get a timer; two runners, each with a connection pool of its own as two
 * processes have, fire them at once — and each record's transition fires exactly once (one history
 * entry, one version step), by the system.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { CSRF_HEADER, CSRF_HEADER_VALUE } from '@ninefold/model';
import {
  type Database,
  JobRunner,
  TABLES,
  TIMER_JOB,
  addUser,
  buildApp,
  migrate,
  openDatabase,
  productJobHandlers,
  tableName,
} from '@ninefold/server';
import { type ProductStore, postgresStore } from './child-product.js';

const TIMERS = 100;
const compiled = compile(
  `
entities:
  Ticket: { fields: { title: string } }
roles:
  clerk: { Ticket: { read: true, create: true, update: true } }
states:
  Ticket:
    initial: fresh
    transitions:
      settle: { from: fresh, to: settled, after: 1m }
`,
  { file: 'timers.yaml' },
);
if (!compiled.ok) throw new Error('The spec of the timers fault test does not compile.');
const model = compiled.model;

const dir = mkdtempSync(join(tmpdir(), 'ninefold-timers-'));
const stores: ProductStore[] = [];
const databases: Database[] = [];
afterAll(async () => {
  for (const database of databases) await database.close().catch(() => undefined);
  for (const store of stores) await store.drop();
  rmSync(dir, { recursive: true, force: true });
});

async function open(url: string): Promise<Database> {
  const database = await openDatabase(url);
  databases.push(database);
  return database;
}

describe('postgres: timers under load', () => {
  it(`two runners with pools of their own fire each of ${TIMERS} timers once`, async () => {
    const store = await postgresStore(dir);
    stores.push(store);
    const url = store.env['DATABASE_URL'] ?? '';
    const first = await open(url);
    await migrate(first, model);
    const second = await open(url);
    const created = new Date('2026-03-01T09:00:00.000Z');
    const app = buildApp({ model, database: first, now: () => created });
    await addUser(first, model, {
      email: 'c@example.com',
      name: 'C',
      roles: ['clerk'],
      password: 'pw-pw-pw-pw',
    });
    const headers = { [CSRF_HEADER]: CSRF_HEADER_VALUE };
    const session = await app.inject({
      method: 'POST',
      url: '/api/session',
      headers,
      payload: { email: 'c@example.com', password: 'pw-pw-pw-pw' },
    });
    const cookie = session.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    for (let n = 0; n < TIMERS; n += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...headers, cookie },
        payload: { title: `Ticket ${n}` },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
    await app.close();

    const due = () => new Date(created.getTime() + 60_000);
    const runner = (database: Database) =>
      new JobRunner({
        database,
        now: due,
        pollMs: 5,
        concurrency: 8,
        handlers: productJobHandlers({ model, database, now: due }),
      });
    const runners = [runner(first), runner(second)];
    for (const r of runners) r.start();
    const deadline = Date.now() + 60_000;
    const doneCount = async () =>
      Number(
        (
          await first.db
            .selectFrom(TABLES.jobs)
            .select((eb) => eb.fn.countAll().as('n'))
            .where('kind', '=', TIMER_JOB)
            .where('state', '=', 'done')
            .executeTakeFirstOrThrow()
        ).n,
      );
    while ((await doneCount()) < TIMERS) {
      if (Date.now() > deadline) throw new Error('The timers did not all fire within a minute.');
      await sleep(20);
    }
    await Promise.all(runners.map((r) => r.stop()));

    const tickets = await first.db.selectFrom(tableName('tickets')).select(['state', 'version']).execute();
    expect(tickets).toHaveLength(TIMERS);
    expect(tickets.filter((t) => t.state !== 'settled' || Number(t.version) !== 2)).toEqual([]);
    const fired = await first.db
      .selectFrom(TABLES.history)
      .select(['record_id', 'by'])
      .where('transition', '=', 'settle')
      .execute();
    expect(fired).toHaveLength(TIMERS);
    expect(new Set(fired.map((f) => f.record_id)).size).toBe(TIMERS);
    expect(fired.every((f) => f.by === null)).toBe(true);
  }, 120_000);
});
