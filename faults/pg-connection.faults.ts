/**
 * The real PostgreSQL server cutting the API's connections under load (decision 0023):
 * `pg_terminate_backend`, as a restart, a failover or an idle timeout would. The process survives;
 * every answer is a success or a 503 E_UNAVAILABLE problem with Retry-After (no other 5xx, no
 * hang); every acknowledged create is in the database with its history entry, and nothing is
 * written by halves; requests succeed again afterwards. `/ready` names the database while it is
 * unreachable, and is ready again when it is back.
 */
import { compile } from '@ninefold/language';
import { CSRF_HEADER, CSRF_HEADER_VALUE, PROBLEM_MEDIA_TYPE, SESSION_COOKIE } from '@ninefold/model';
import { type FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Database, TABLES, addUser, buildApp, migrate, openDatabase } from '@ninefold/server';

const BASE_URL = process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const SPEC = 'examples/expense-claims.md';
const PASSWORD = 'correct horse battery';
const CLAIM = { title: 'Train to Lyon', category: 'travel', amount: '20.00' };

/** The example, its rate limit out of the way: this load is one user's, and it is the point. */
const model = (() => {
  const result = compile(readFileSync(SPEC, 'utf8'), { file: SPEC });
  if (!result.ok) throw new Error('the example does not compile');
  const unlimited = Object.fromEntries(
    Object.keys(result.model.limits.requestsPerMinute).map((role) => [role, 1_000_000]),
  );
  return { ...result.model, limits: { ...result.model.limits, requestsPerMinute: unlimited } };
})();

/** A side connection of the test's own, never the server's. */
async function adminQuery(text: string, values: unknown[] = []) {
  const client = new pg.Client({ connectionString: BASE_URL });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** Ends every connection the server holds (its application_name), as the database would. */
async function terminateServerConnections(applicationName: string): Promise<number> {
  const result = await adminQuery(
    'select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1 and pid <> pg_backend_pid()',
    [applicationName],
  );
  return result.rows.filter((r: { ended: boolean }) => r.ended).length;
}

interface Answer {
  readonly method: string;
  readonly status: number;
  readonly contentType: string;
  readonly retryAfter: string | null;
  readonly body: Record<string, unknown> | null;
}

const name = `nf_pgfault_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
let database: Database;
let app: FastifyInstance;
let base: string;
let cookie: string;

/** What would have ended a server process: an exception nothing caught (an unheard 'error' event). */
const uncaught: unknown[] = [];
const onUncaught = (error: unknown) => uncaught.push(error);

/** The test's database, as the server connects to it: its connections carry the application_name. */
function serverUrl(applicationName?: string): string {
  const url = new URL(BASE_URL);
  url.pathname = `/${name}`;
  if (applicationName !== undefined) url.searchParams.set('application_name', applicationName);
  return url.toString();
}

beforeAll(async () => {
  process.on('uncaughtException', onUncaught);
  await adminQuery(`create database ${name}`);
  database = await openDatabase(serverUrl(name));
  await migrate(database, model);
  await addUser(database, model, {
    email: 'ann@example.com',
    name: 'Ann',
    roles: ['employee'],
    password: PASSWORD,
  });
  app = buildApp({ model, database, logger: false });
  base = await app.listen({ host: '127.0.0.1', port: 0 });
  const session = await fetch(`${base}/api/session`, {
    method: 'POST',
    headers: { [CSRF_HEADER]: CSRF_HEADER_VALUE, 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD }),
  });
  expect(session.status).toBe(200);
  const set = session.headers.getSetCookie().find((c) => c.startsWith(`${SESSION_COOKIE}=`));
  cookie = set!.split(';')[0]!;
});

afterAll(async () => {
  process.off('uncaughtException', onUncaught);
  await app?.close();
  await database?.close();
  await adminQuery(`alter database ${name} allow_connections true`).catch(() => undefined);
  await adminQuery(`drop database if exists ${name} with (force)`);
});

/** A request as Ann over HTTP; a request that fails or takes longer than 20 s fails the test. */
async function call(method: string, path: string, payload?: unknown, headers: Record<string, string> = {}) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: {
      [CSRF_HEADER]: CSRF_HEADER_VALUE,
      cookie,
      ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
      ...headers,
    },
    ...(payload === undefined ? {} : { body: JSON.stringify(payload) }),
    signal: AbortSignal.timeout(20_000),
  });
  const text = await response.text();
  const answer: Answer = {
    method,
    status: response.status,
    contentType: response.headers.get('content-type') ?? '',
    retryAfter: response.headers.get('retry-after'),
    body: text === '' ? null : (JSON.parse(text) as Record<string, unknown>),
  };
  return answer;
}

describe('PostgreSQL: connections ended by the database under load', () => {
  it('answers every request with a success or a 503 problem, loses no acknowledged write and writes nothing by halves', async () => {
    const answers: Answer[] = [];
    const created: string[] = [];
    let stop = false;
    let serial = 0;

    // the database ends the server's connections again and again while the load runs
    let ended = 0;
    const killer = (async () => {
      while (!stop) {
        ended += await terminateServerConnections(name);
        await new Promise((resolve) => setTimeout(resolve, 40));
      }
    })();

    const worker = async (w: number) => {
      while (!stop) {
        const key = `fault-${w}-${(serial += 1)}`;
        const write = await call('POST', '/api/claims', CLAIM, { 'idempotency-key': key });
        answers.push(write);
        if (write.status === 201) created.push(String(write.body!['id']));
        answers.push(await call('GET', '/api/claims?limit=20'));
        const last = created.at(-1);
        if (last !== undefined) answers.push(await call('GET', `/api/claims/${last}`));
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    await new Promise((resolve) => setTimeout(resolve, 8000));
    stop = true;
    await Promise.all([load, killer]);

    const unavailable = answers.filter((a) => a.status === 503);
    const others = answers.filter((a) => a.status >= 300 && a.status !== 503);
    console.log(
      `pg-connection: ${answers.length} requests while ${ended} server connections were ended; ` +
        `${answers.length - unavailable.length - others.length} succeeded, ${unavailable.length} answered 503 E_UNAVAILABLE, ` +
        `${others.length} other failures, ${uncaught.length} uncaught errors`,
    );
    expect(ended, 'the database ended some of the server connections').toBeGreaterThan(0);
    expect(uncaught.map(String), 'the process would have died').toEqual([]);
    expect(others.map((a) => `${a.method} ${a.status} ${JSON.stringify(a.body)}`)).toEqual([]);
    for (const a of unavailable) {
      expect(a.contentType).toContain(PROBLEM_MEDIA_TYPE);
      expect(a.body).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
      expect(Number(a.retryAfter)).toBeGreaterThan(0);
    }
    expect(created.length).toBeGreaterThan(0);

    // every acknowledged create is there, and every claim there has its history entry
    const claims = await database.db.selectFrom('claims').select('id').execute();
    const ids = new Set(claims.map((c) => String(c.id)));
    for (const id of created) expect(ids.has(id), id).toBe(true);
    const history = await database.db
      .selectFrom(TABLES.history)
      .select('record_id')
      .where('entity', '=', 'Claim')
      .where('action', '=', 'create')
      .execute();
    const logged = new Set(history.map((h) => String(h.record_id)));
    expect([...ids].filter((id) => !logged.has(id))).toEqual([]);
    expect(logged.size).toBe(ids.size);

    // and the server works again on fresh connections
    const read = await call('GET', '/api/claims?limit=5');
    expect(read.status, JSON.stringify(read.body)).toBe(200);
    const write = await call('POST', '/api/claims', CLAIM);
    expect(write.status, JSON.stringify(write.body)).toBe(201);
  });

  /**
   * A request stuck on a lock the test holds, its connection then ended by the database: which
   * request it is and when its connection goes are the test's to choose.
   */
  async function cutWhileWaiting(request: () => Promise<Answer>): Promise<Answer> {
    const side = new pg.Client({ connectionString: serverUrl() });
    await side.connect();
    try {
      await side.query('begin');
      await side.query('lock table claims in access exclusive mode');
      const pending = request();
      let cut = 0;
      for (let tries = 0; cut === 0 && tries < 200; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
        const result = await side.query(
          "select pg_terminate_backend(pid) as ended from pg_stat_activity where application_name = $1 and wait_event_type = 'Lock'",
          [name],
        );
        cut = result.rows.filter((r: { ended: boolean }) => r.ended).length;
      }
      expect(cut, 'the request was waiting on the lock, and its connection was ended').toBe(1);
      await side.query('rollback');
      return await pending;
    } finally {
      await side.end();
    }
  }

  it('reads again on a fresh connection when a read loses its connection', async () => {
    const read = await cutWhileWaiting(() => call('GET', '/api/claims?limit=5'));
    expect(read.status, JSON.stringify(read.body)).toBe(200);
  });

  it('answers a write that lost its connection with 503, writes nothing, and takes its repeat', async () => {
    const count = async () => (await database.db.selectFrom('claims').select('id').execute()).length;
    const logged = async () =>
      (await database.db.selectFrom(TABLES.history).select('id').where('entity', '=', 'Claim').execute())
        .length;
    const [claimsBefore, historyBefore] = [await count(), await logged()];
    const headers = { 'idempotency-key': `cut-${Date.now()}` };
    const write = await cutWhileWaiting(() => call('POST', '/api/claims', CLAIM, headers));
    expect(write.status, JSON.stringify(write.body)).toBe(503);
    expect(write.contentType).toContain(PROBLEM_MEDIA_TYPE);
    expect(write.body).toMatchObject({ code: 'E_UNAVAILABLE' });
    expect(Number(write.retryAfter)).toBeGreaterThan(0);
    expect([await count(), await logged()]).toEqual([claimsBefore, historyBefore]);
    const again = await call('POST', '/api/claims', CLAIM, headers);
    expect(again.status, JSON.stringify(again.body)).toBe(201);
    expect([await count(), await logged()]).toEqual([claimsBefore + 1, historyBefore + 1]);
  });

  it('says at /ready that the database is unreachable while it is, and is ready again when it is back', async () => {
    expect((await call('GET', '/ready')).status).toBe(200);
    await adminQuery(`alter database ${name} allow_connections false`);
    try {
      await terminateServerConnections(name);
      const ready = await call('GET', '/ready');
      expect(ready.status).toBe(503);
      expect(ready.contentType).toContain(PROBLEM_MEDIA_TYPE);
      expect(ready.body).toMatchObject({ code: 'E_UNAVAILABLE' });
      expect(String(ready.body!['detail'])).toContain(`PostgreSQL database "${name}"`);
      expect(Number(ready.retryAfter)).toBeGreaterThan(0);
      const read = await call('GET', '/api/claims?limit=5');
      expect(read.status).toBe(503);
      expect(read.body).toMatchObject({ code: 'E_UNAVAILABLE' });
      const write = await call('POST', '/api/claims', CLAIM);
      expect(write.status).toBe(503);
      expect(write.body).toMatchObject({ code: 'E_UNAVAILABLE' });
    } finally {
      await adminQuery(`alter database ${name} allow_connections true`);
    }
    const back = await call('GET', '/ready');
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect((await call('GET', '/api/claims?limit=5')).status).toBe(200);
  });

  it('says at /ready which database it cannot reach when nothing listens at its address', async () => {
    const nowhere = await openDatabase('postgres://postgres@127.0.0.1:9/nowhere_db');
    const lost = buildApp({ model, database: nowhere, logger: false });
    try {
      const ready = await lost.inject({ method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(503);
      expect(ready.json()).toMatchObject({ code: 'E_UNAVAILABLE' });
      expect(String(ready.json().detail)).toContain('PostgreSQL database "nowhere_db"');
      expect(Number(ready.headers['retry-after'])).toBeGreaterThan(0);
    } finally {
      await lost.close();
      await nowhere.close();
    }
  });
});
