/**
 * Timed transitions under load on the real PostgreSQL server (decision 0029): 100 records created
 * through the API each get a timer; two runners, each with a connection pool of its own as two
 * processes have, fire them at once — and each record's transition fires exactly once (one history
 * entry, one version step), by the system. Then the same with two runner processes
 * (`timer-child.mjs`) that poll once a minute, running while the records are created: each timer is
 * due at its write, both processes are woken by its NOTIFY, and each fires once, by one of them.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  diskFileStore,
  migrate,
  openDatabase,
  productJobHandlers,
  tableName,
} from '@ninefold/server';
import { type ProductStore, postgresStore } from './child-product.js';

const TIMERS = 100;
const CHILD = fileURLToPath(new URL('timer-child.mjs', import.meta.url));
const SPEC = `
entities:
  Ticket: { fields: { title: string } }
roles:
  clerk: { Ticket: { read: true, create: true, update: true } }
states:
  Ticket:
    initial: fresh
    transitions:
      settle: { from: fresh, to: settled, after: 1m }
`;
const compiled = compile(SPEC, { file: 'timers.yaml' });
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

/** A signed-in clerk's way of creating tickets through the API of `app`. */
async function clerkOf(app: ReturnType<typeof buildApp>, database: Database) {
  await addUser(database, model, {
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
  return async (count: number) => {
    for (let n = 0; n < count; n += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/tickets',
        headers: { ...headers, cookie },
        payload: { title: `Ticket ${n}` },
      });
      expect(response.statusCode, response.body).toBe(201);
    }
  };
}

async function doneTimers(database: Database): Promise<number> {
  const row = await database.db
    .selectFrom(TABLES.jobs)
    .select((eb) => eb.fn.countAll().as('n'))
    .where('kind', '=', TIMER_JOB)
    .where('state', '=', 'done')
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

async function untilAllFired(database: Database): Promise<void> {
  const deadline = Date.now() + 60_000;
  while ((await doneTimers(database)) < TIMERS) {
    if (Date.now() > deadline) throw new Error('The timers did not all fire within a minute.');
    await sleep(20);
  }
}

/** Every ticket settled by its timer once: one step of its version, one history entry, by the system. */
async function expectEachFiredOnce(database: Database): Promise<void> {
  const tickets = await database.db.selectFrom(tableName('tickets')).select(['state', 'version']).execute();
  expect(tickets).toHaveLength(TIMERS);
  expect(tickets.filter((t) => t.state !== 'settled' || Number(t.version) !== 2)).toEqual([]);
  const fired = await database.db
    .selectFrom(TABLES.history)
    .select(['record_id', 'by'])
    .where('transition', '=', 'settle')
    .execute();
  expect(fired).toHaveLength(TIMERS);
  expect(new Set(fired.map((f) => f.record_id)).size).toBe(TIMERS);
  expect(fired.every((f) => f.by === null)).toBe(true);
}

/** A runner process of the spec on `url`, once it listens; what it printed so far, as it comes. */
async function runnerProcess(
  url: string,
  specFile: string,
): Promise<{ child: ChildProcess; output: () => string }> {
  let output = '';
  const child = spawn(process.execPath, [CHILD], {
    env: { ...process.env, DATABASE_URL: url, SPEC_FILE: specFile },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const deadline = Date.now() + 30_000;
  while (!output.includes('listening\n')) {
    if (child.exitCode !== null || Date.now() > deadline)
      throw new Error(`The runner process did not start: ${output}`);
    await sleep(20);
  }
  expect(output).toBe('listening\n');
  return { child, output: () => output };
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
    await (
      await clerkOf(app, first)
    )(TIMERS);
    await app.close();

    const due = () => new Date(created.getTime() + 60_000);
    const runner = (database: Database) =>
      new JobRunner({
        database,
        now: due,
        pollMs: 5,
        concurrency: 8,
        // no file jobs run here: the store is never written
        handlers: productJobHandlers({
          model,
          database,
          files: diskFileStore(join(tmpdir(), 'ninefold-timers-faults-files')),
          now: due,
        }),
      });
    const runners = [runner(first), runner(second)];
    for (const r of runners) r.start();
    await untilAllFired(first);
    await Promise.all(runners.map((r) => r.stop()));
    await expectEachFiredOnce(first);
  }, 120_000);

  it(`two runner processes, woken by NOTIFY, fire each of ${TIMERS} timers once`, async () => {
    const store = await postgresStore(dir);
    stores.push(store);
    const url = store.env['DATABASE_URL'] ?? '';
    const database = await open(url);
    await migrate(database, model);
    const specFile = join(dir, 'timers.yaml');
    writeFileSync(specFile, SPEC);
    const processes = [await runnerProcess(url, specFile), await runnerProcess(url, specFile)];
    try {
      // the API's clock a minute behind the runners': each timer (after: 1m) is due at its write
      const app = buildApp({ model, database, now: () => new Date(Date.now() - 60_000) });
      await (
        await clerkOf(app, database)
      )(TIMERS);
      await app.close();
      await untilAllFired(database);
    } finally {
      for (const { child } of processes) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGKILL');
        await exited;
      }
    }
    await expectEachFiredOnce(database);
    const ran = processes.map(({ output }) => [...output().matchAll(/^ran (\S+)$/gm)].map((m) => m[1]));
    console.log(`timers fired by each process: ${ran.map((ids) => ids.length).join(' + ')}`);
    expect(ran.flat()).toHaveLength(TIMERS);
    expect(new Set(ran.flat()).size).toBe(TIMERS);
    // both took part: each write's NOTIFY woke both, which poll only once a minute
    expect(ran[0]!.length).toBeGreaterThan(0);
    expect(ran[1]!.length).toBeGreaterThan(0);
  }, 120_000);
});
