/**
 * The triggers that tell every instance of a session change (`schema/session-triggers.ts`, decision
 * 0058). On PGlite and the real server alike, every kind of change to the sessions table, the users
 * table and a User's list of refs commits with them in place (a TRUNCATE too), and `migrate` puts
 * them on exactly those tables. On the real server, a listener hears hashes, never a session's id,
 * in payloads under PostgreSQL's 8000 bytes; the record of a session's use is not told; a statement
 * of many rows is told as "*".
 */
import pg from 'pg';
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSRF,
  checkedInject,
  givenUser,
  login,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { TABLES } from '../src/index.js';
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

const MANY_SPEC = `
product: { name: Crews }
entities:
  Team:
    fields:
      name: { type: string, required: true }
  User:
    fields:
      teams: { type: ref, to: Team, many: true }
roles:
  admin:
    Team: true
    User: true
  employee: { Team: { read: all } }
`;

const closers: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const close of closers.reverse()) await close();
  closers.length = 0;
});

const call = (server: TestServer, method: string, url: string, cookie: string, payload?: object) =>
  checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, cookie },
    ...(payload === undefined ? {} : { payload }),
  });

/** A plain SQL client on the test's schema, as a hand-run `psql` would be. */
async function plainClient(server: TestServer): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: String(server.target) });
  await client.connect();
  closers.push(() => client.end());
  return client;
}

const idOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);
const hashOf = (cookie: string) => createHash('sha256').update(idOf(cookie)).digest('hex');

describe('postgres: the session triggers', () => {
  it('the triggers let every kind of change to sessions, users and a User’s lists commit', async () => {
    const a = await testServer('postgres', specModel(MANY_SPEC));
    const ann = await givenUser(a, 'ann@example.com', ['admin']);
    const cookies = await Promise.all(
      Array.from({ length: 3 }, async () => (await login(a.app, 'ann@example.com')).cookie!),
    );
    const db = a.database.db;
    const team = await call(a, 'POST', '/api/teams', cookies[2]!, { name: 'Blue' });
    expect(team.statusCode, team.body).toBe(201);
    const record = await call(a, 'GET', `/api/users/${ann.id}`, cookies[2]!);
    const joined = await checkedInject(a.app, a.model, {
      method: 'PATCH',
      url: `/api/users/${ann.id}`,
      headers: { ...CSRF, cookie: cookies[2]!, 'if-match': String(record.headers.etag) },
      payload: { teams: [team.json().id] },
    });
    expect(joined.statusCode, joined.body).toBe(200);
    await db.updateTable('users__teams').set({ position: 1 }).execute();
    await db.deleteFrom('users__teams').execute();
    await db.updateTable('users').set({ name: 'Annie' }).execute();
    await db.deleteFrom(TABLES.sessions).where('id_hash', '=', hashOf(cookies[0]!)).execute();
    await db.deleteFrom(TABLES.sessions).execute();
    await sql`truncate ${sql.table(TABLES.sessions)}`.execute(db);
    expect((await call(a, 'GET', '/api/session', cookies[1]!)).statusCode).toBe(401);
    const triggers = await sql<{ name: string }>`
      select c.relname || ' ' || t.tgname as name from pg_trigger t join pg_class c on c.oid = t.tgrelid
      where t.tgname like 'ninefold_sessions_%' and c.relnamespace = current_schema()::regnamespace
      order by 1`.execute(db);
    expect(triggers.rows.map((r) => r.name)).toEqual([
      'ninefold_sessions ninefold_sessions_delete',
      'ninefold_sessions ninefold_sessions_truncate',
      'ninefold_sessions ninefold_sessions_update',
      'users ninefold_sessions_delete',
      'users ninefold_sessions_truncate',
      'users ninefold_sessions_update',
      'users__teams ninefold_sessions_delete',
      'users__teams ninefold_sessions_insert',
      'users__teams ninefold_sessions_truncate',
      'users__teams ninefold_sessions_update',
    ]);
  }, 60_000);

  if (TEST_DATABASE_URL !== '')
    it('tells hashes, never ids, in payloads under 8000 bytes, and "*" for a statement of many rows', async () => {
      const a = await testServer('postgres', specModel(SPEC));
      await givenUser(a, 'ann@example.com', ['employee']);
      const cookies = await Promise.all(
        Array.from({ length: 3 }, async () => (await login(a.app, 'ann@example.com')).cookie!),
      );
      const payloads: (string | null)[] = [];
      const listening = listenTo(
        TEST_DATABASE_URL,
        SESSIONS_CHANNEL,
        (p) => payloads.push(p),
        () => undefined,
      );
      closers.push(() => listening.close());
      expect(await listening.ready).toBe(true);
      const psql = await plainClient(a);
      const user = String((await psql.query(`select id from users`)).rows[0].id);
      const fake = (n: number, i: number) => createHash('sha256').update(`fake ${n} ${i}`).digest('hex');
      const insert = async (n: number) => {
        const hashes = Array.from({ length: n }, (_, i) => fake(n, i));
        await psql.query(
          `insert into ${TABLES.sessions} (id_hash, user_id, created_at, last_seen_at)
         select h, $2, now()::text, now()::text from unnest($1::text[]) as h`,
          [hashes, user],
        );
        return hashes;
      };
      // the database's other schemas (other tests) notify the channel too: only these tokens are ours
      const tokens = () => payloads.flatMap((p) => (p === null ? [] : p.split(' ')));
      const toldOf = (ours: ReadonlySet<string>) =>
        payloads.filter((p) => p !== null && p.split(' ').some((t) => ours.has(t))) as string[];

      const many = new Set((await insert(200)).map((h) => `s:${h}`));
      await psql.query(`delete from ${TABLES.sessions} where user_id = $1 and created_at <> last_seen_at`, [
        user,
      ]);
      await psql.query(`delete from ${TABLES.sessions} where id_hash = any($1::text[])`, [
        [...many].map((t) => t.slice(2)),
      ]);
      await expect.poll(() => tokens().filter((t) => many.has(t)).length, { timeout: 5000 }).toBe(200);
      const told = toldOf(many);
      expect(told.length).toBeGreaterThan(1);
      for (const payload of told) expect(Buffer.byteLength(payload)).toBeLessThan(8000);
      expect(told.flatMap((p) => p.split(' ')).every((t) => many.has(t))).toBe(true);

      payloads.length = 0;
      const [first, second] = cookies.map((c) => `s:${hashOf(c)}`) as [string, string];
      const ours = new Set([first, second, `u:${user}`]);
      await psql.query(`delete from ${TABLES.sessions} where id_hash = $1`, [hashOf(cookies[0]!)]);
      await psql.query(`update ${TABLES.sessions} set last_seen_at = now()::text`);
      await psql.query(`update ${TABLES.sessions} set authenticated_at = now()::text where id_hash = $1`, [
        hashOf(cookies[1]!),
      ]);
      await psql.query(`update users set name = 'Annie'`);
      await expect.poll(() => toldOf(ours).length, { timeout: 5000 }).toBe(3);
      // the record of a session's use tells nothing (the third session is not named): it changes nobody
      expect(toldOf(ours)).toEqual([first, second, `u:${user}`]);
      expect(tokens()).not.toContain(`s:${hashOf(cookies[2]!)}`);
      for (const cookie of cookies) expect(payloads.join(' ')).not.toContain(idOf(cookie));

      payloads.length = 0;
      const more = await insert(600);
      await psql.query(`delete from ${TABLES.sessions} where id_hash = any($1::text[])`, [more]);
      await expect.poll(() => payloads.includes('*'), { timeout: 5000 }).toBe(true);
      expect(tokens()).not.toContain(`s:${more[0]!}`);
    }, 60_000);
});
