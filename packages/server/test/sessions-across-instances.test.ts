/**
 * Sessions across instances (decision 0058). On the real PostgreSQL server, two apps on two pools
 * of one database stand for two instances, A and B. A's clock never moves, so its session cache
 * never lets an entry age out: only being told (the triggers' NOTIFY, heard on A's LISTEN
 * connection) can make A forget. Every revocation made through B — sign-out, a session ended by
 * its user, a password reset, a role change, a disabled user, a User record written through the
 * API, an admin ending everyone's — and one made with plain SQL from a third connection is refused
 * (or its new roles seen) on A within a second. A's LISTEN connection killed, A still refuses a
 * revoked session within a second and hears again; silent, it stops counting on it within a second;
 * an instance that cannot listen (also on PGlite) trusts a cached
 * session for no more than a second. The triggers' payloads name hashes, never a session's id, and
 * stay under PostgreSQL's 8000 bytes.
 */
import pg from 'pg';
import { createHash } from 'node:crypto';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  checkedInject,
  givenUser,
  login,
  reopen,
  specModel,
  testClock,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import {
  type Database,
  LISTEN_APPLICATION_NAME,
  TABLES,
  buildApp,
  disableUser,
  resetPassword,
  setRoles,
} from '../src/index.js';
import { listenTo } from '../src/db/postgres-listen.js';
import { SESSIONS_CHANNEL } from '../src/schema/session-triggers.js';

const TEST_DATABASE_URL = process.env['TEST_DATABASE_URL'] ?? '';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Claim: true
    User:
      read: true
      update: true
      fields: { write: [name, email, roles, disabled] }
  employee: { Claim: { read: true, create: true } }
limits: { loginAttemptsPerMinute: 100 }
`;

/** What a revocation is allowed to take to reach every instance (issue 20). */
const WITHIN_MS = 1000;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers.length = 0;
});

/** Another instance on the same database: an app on a pool of its own. */
async function instanceBeside(a: TestServer, database?: Database): Promise<TestServer> {
  const other = database ?? (await reopen(a.target));
  const clock = testClock();
  const app = buildApp({ model: a.model, database: other, now: clock.now, files: a.files });
  closers.push(() => app.close());
  return { ...a, app, database: other, clock };
}

const call = (server: TestServer, method: string, url: string, cookie: string, payload?: object) =>
  checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, cookie },
    ...(payload === undefined ? {} : { payload }),
  });

/** `GET /api/session` on an instance: the user it sees, or the status of its refusal. */
async function seen(
  server: TestServer,
  cookie: string,
): Promise<{ roles?: string[]; name?: string } | number> {
  const response = await call(server, 'GET', '/api/session', cookie);
  return response.statusCode === 200 ? response.json().user : response.statusCode;
}

/** Waits (by its poll) until what `probe` answers is `expected`, for at most `ms` from now. */
async function within(ms: number, probe: () => Promise<unknown>, expected: unknown): Promise<void> {
  await expect.poll(probe, { timeout: ms, interval: 10 }).toEqual(expected);
}

/** A and B on one database, each with a signed-in, cached session of its own user; A hears B. */
async function twoInstances() {
  const a = await testServer('postgres', specModel(SPEC));
  const b = await instanceBeside(a);
  await givenUser(a, 'ada@example.com', ['admin']);
  const ann = await givenUser(a, 'ann@example.com', ['employee']);
  await givenUser(a, 'probe@example.com', ['employee']);
  // A hears once a change made through B reaches it while its clock stands still
  const probe = (await login(a.app, 'probe@example.com')).cookie!;
  expect(await seen(a, probe)).toMatchObject({ roles: ['employee'] });
  await setRoles(b.database, b.model, 'probe@example.com', ['admin']);
  await within(10_000, async () => ((await seen(a, probe)) as { roles: string[] }).roles, ['admin']);
  const cookie = (await login(a.app, 'ann@example.com')).cookie!;
  expect(await seen(a, cookie)).toMatchObject({ roles: ['employee'] });
  return { a, b, ann, cookie };
}

/** The pids of the connections listening for session changes on the server. */
async function sessionListeners(): Promise<number[]> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>(
      'select pid from pg_stat_activity where application_name = $1 and query = $2',
      [LISTEN_APPLICATION_NAME, `listen "${SESSIONS_CHANNEL}"`],
    );
    return rows.map((row) => row.pid);
  } finally {
    await client.end();
  }
}

/** A plain SQL client on the test's schema, as a hand-run `psql` would be. */
async function plainClient(server: TestServer): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: String(server.target) });
  await client.connect();
  closers.push(() => client.end());
  return client;
}

/** A TCP relay to the PostgreSQL server that can fall silent: it drops every byte, closing nothing. */
async function silenceableRelay(target: URL) {
  const sockets: net.Socket[] = [];
  let silent = false;
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.push(client, upstream);
    client.on('data', (data: Buffer) => void (silent || upstream.write(data)));
    upstream.on('data', (data: Buffer) => void (silent || client.write(data)));
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) socket.on('error', end).on('close', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.host = `127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  return {
    url: url.toString(),
    silence: () => (silent = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const idOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const hashOf = (cookie: string) => createHash('sha256').update(idOf(cookie)).digest('hex');

function realPostgresTests() {
  it('a sign-out through B is refused on A within a second', async () => {
    const { a, b, cookie } = await twoInstances();
    expect((await call(b, 'DELETE', '/api/session', cookie)).statusCode).toBe(204);
    await within(WITHIN_MS, () => seen(a, cookie), 401);
  }, 60_000);

  it('a session its user ends from another session through B is refused on A within a second', async () => {
    const { a, b, cookie } = await twoInstances();
    const other = (await login(b.app, 'ann@example.com')).cookie!;
    const ended = await call(b, 'DELETE', `/api/account/sessions/${hashOf(cookie)}`, other);
    expect(ended.statusCode).toBe(204);
    await within(WITHIN_MS, () => seen(a, cookie), 401);
  }, 60_000);

  it('a password reset, a role change and a disabled user through B reach A within a second', async () => {
    const { a, b, cookie } = await twoInstances();
    await setRoles(b.database, b.model, 'ann@example.com', ['admin']);
    await within(WITHIN_MS, async () => ((await seen(a, cookie)) as { roles: string[] }).roles, ['admin']);

    await resetPassword(b.database, b.model, 'ann@example.com', 'a brand new password');
    await within(WITHIN_MS, () => seen(a, cookie), 401);

    const again = (await login(a.app, 'ann@example.com', 'a brand new password')).cookie!;
    expect(await seen(a, again)).toMatchObject({ roles: ['admin'] });
    await disableUser(b.database, b.model, 'ann@example.com');
    await within(WITHIN_MS, () => seen(a, again), 401);
  }, 60_000);

  it('a User record written through B’s API and an admin ending everyone’s sessions reach A within a second', async () => {
    const { a, b, ann, cookie } = await twoInstances();
    const ada = (await login(b.app, 'ada@example.com')).cookie!;
    const record = await call(b, 'GET', `/api/users/${ann.id}`, ada);
    const renamed = await checkedInject(b.app, b.model, {
      method: 'PATCH',
      url: `/api/users/${ann.id}`,
      headers: { ...CSRF, cookie: ada, 'if-match': String(record.headers.etag) },
      payload: { name: 'Annie' },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    await within(WITHIN_MS, async () => ((await seen(a, cookie)) as { name: string }).name, 'Annie');

    const all = await call(b, 'DELETE', '/api/admin/sessions?all=true', ada);
    expect(all.statusCode).toBe(200);
    await within(WITHIN_MS, () => seen(a, cookie), 401);
  }, 60_000);

  it('a change made with plain SQL from a third connection reaches A within a second', async () => {
    const { a, cookie } = await twoInstances();
    const psql = await plainClient(a);
    await psql.query(`update users set roles = '["admin"]' where email = 'ann@example.com'`);
    await within(WITHIN_MS, async () => ((await seen(a, cookie)) as { roles: string[] }).roles, ['admin']);
    await psql.query(`delete from ${TABLES.sessions} where id_hash = $1`, [hashOf(cookie)]);
    await within(WITHIN_MS, () => seen(a, cookie), 401);
  }, 60_000);

  it('its LISTEN connection killed, A still refuses a revoked session within a second, and hears again', async () => {
    const { a, b, cookie } = await twoInstances();
    const bob = await givenUser(a, 'bob@example.com', ['employee']);
    const bobs = (await login(a.app, 'bob@example.com')).cookie!;
    expect(await seen(a, bobs)).toMatchObject({ roles: ['employee'] });
    const before = await sessionListeners();
    const psql = await plainClient(a);
    // every instance's (other tests' too, which resynchronise as A does)
    await psql.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [before]);
    await disableUser(b.database, b.model, 'ann@example.com');
    await within(WITHIN_MS, () => seen(a, cookie), 401);

    await expect
      .poll(async () => (await sessionListeners()).some((pid) => !before.includes(pid)), { timeout: 10_000 })
      .toBe(true);
    // a revocation A can learn of only by hearing it, once it listens again
    await setRoles(b.database, b.model, bob.email, ['admin']);
    await within(5000, async () => ((await seen(a, bobs)) as { roles: string[] }).roles, ['admin']);
  }, 60_000);

  it('its LISTEN connection silent without an error, A stops counting on it within a second', async () => {
    const a = await testServer('postgres', specModel(SPEC));
    const relay = await silenceableRelay(new URL(String(a.target)));
    const opened = await reopen(a.target);
    // the pool reaches the server; the LISTEN connection goes through the relay
    const quiet: Database = {
      ...opened,
      listen: (channel, onNotify, onError) => listenTo(relay.url, channel, onNotify, onError),
    };
    const c = await instanceBeside(a, quiet);
    closers.push(relay.close); // before the app closes: a silent connection would hold its end
    await givenUser(a, 'ann@example.com', ['employee']);
    await givenUser(a, 'probe@example.com', ['employee']);
    const probe = (await login(c.app, 'probe@example.com')).cookie!;
    expect(await seen(c, probe)).toMatchObject({ roles: ['employee'] });
    await setRoles(a.database, a.model, 'probe@example.com', ['admin']);
    await within(10_000, async () => ((await seen(c, probe)) as { roles: string[] }).roles, ['admin']);
    const cookie = (await login(c.app, 'ann@example.com')).cookie!;
    expect(await seen(c, cookie)).toMatchObject({ roles: ['employee'] });
    // a second old: trusted while C hears (the backstop is 5 s), not once it does not
    c.clock.advance(WITHIN_MS);
    relay.silence();
    await disableUser(a.database, a.model, 'ann@example.com');
    await within(WITHIN_MS, () => seen(c, cookie), 401);
  }, 60_000);
}

describe('postgres: sessions across instances', () => {
  it('an instance that cannot listen trusts a cached session for at most a second', async () => {
    const a = await testServer('postgres', specModel(SPEC));
    // A's database with a LISTEN connection to a server that is not there: it keeps trying and never
    // hears (PGlite, which cannot listen, stands for a server here)
    const deaf: Database = {
      ...a.database,
      listen: (channel, onNotify, onError) =>
        listenTo('postgres://postgres@127.0.0.1:1/none', channel, onNotify, onError),
    };
    const c = await instanceBeside(a, deaf);
    await givenUser(a, 'ann@example.com', ['employee']);
    const cookie = (await login(c.app, 'ann@example.com')).cookie!;
    expect(await seen(c, cookie)).toMatchObject({ roles: ['employee'] });
    await disableUser(a.database, a.model, 'ann@example.com');
    c.clock.advance(WITHIN_MS);
    expect(await seen(c, cookie)).toBe(401);
  }, 60_000);

  if (TEST_DATABASE_URL !== '') realPostgresTests();
});
