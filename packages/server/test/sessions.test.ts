import { afterEach, describe, expect, it, vi } from 'vitest';
import type * as Argon2 from '@node-rs/argon2';
import { createHash } from 'node:crypto';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  PASSWORD,
  problem,
  reopen,
  sessionCookie,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { sql } from 'kysely';
import { TABLES, disableUser, listUsers, migrate, resetPassword, setRoles } from '../src/index.js';
import { SESSION_CACHE_TTL_MS } from '../src/auth/session-cache.js';
import { lookupSession } from '../src/auth/sessions.js';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true, create: true } }
  manager: { inherits: employee }
limits: { loginAttemptsPerMinute: 3, sessionIdleMinutes: 30, sessionAbsoluteHours: 8 }
`;

// no User entity: the engine knows a user by their id and roles
const OWN_SPEC = `
product: { name: Notes }
entities:
  Note:
    owner: author
    fields:
      text: { type: string, required: true }
      author: { type: ref, to: User, default: user.id, readonly: true }
roles:
  writer: { Note: { read: own, create: true } }
`;

const MINUTE = 60_000;

/** Creates a claim titled "Taxi" as the cookie's user; its id. */
async function createClaim(server: TestServer, cookie: string): Promise<string> {
  const created = await checkedInject(server.app, server.model, {
    method: 'POST',
    url: '/api/claims',
    headers: { ...CSRF, cookie },
    payload: { title: 'Taxi' },
  });
  expect(created.statusCode).toBe(201);
  return String(created.json().id);
}

// The real argon2, watched: which stored hashes a sign-in verifies against (the same work for an
// unknown email as for a wrong password is what keeps the timing from telling them apart).
const verified = vi.hoisted(() => [] as string[]);
vi.mock('@node-rs/argon2', async (importOriginal) => {
  const argon2 = await importOriginal<typeof Argon2>();
  return {
    ...argon2,
    verify: ((stored, ...rest) => {
      verified.push(String(stored));
      return argon2.verify(stored, ...rest);
    }) satisfies typeof argon2.verify,
  };
});
afterEach(() => {
  verified.length = 0;
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: sessions`, () => {
    it('signs in, says who is signed in, and signs out on the server', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ann = await givenUser(server, 'ann@example.com', ['employee']);

      const { response, cookie } = await login(server.app, 'Ann@Example.com ');
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({
        user: {
          id: ann.id,
          email: 'ann@example.com',
          name: 'ann',
          roles: ['employee'],
          // no language picked yet: the app follows the browser
          locale: null,
          // the user as rules see them, so that the client decides as the server does; never the hash
          context: expect.objectContaining({ id: ann.id, email: 'ann@example.com', roles: ['employee'] }),
        },
      });
      expect(Object.keys(response.json().user.context).join()).not.toMatch(/password|locale/i);
      const set = response.cookies.find((c) => c.name === 'ninefold_session');
      expect(set).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
      expect(set?.secure).toBeUndefined();
      expect(set?.value).toMatch(/^[A-Za-z0-9_-]{22}$/); // 128 random bits
      // only a hash of the id is stored
      const stored = await server.database.db.selectFrom(TABLES.sessions).select('id_hash').execute();
      expect(stored).toHaveLength(1);
      expect(stored[0]?.id_hash).not.toContain(set?.value);
      // its SHA-256 in hex, however it is computed: sessions stored by another version still match
      expect(stored[0]?.id_hash).toBe(createHash('sha256').update(set!.value).digest('hex'));

      const me = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
      expect(me.statusCode).toBe(200);
      // the user as the session lookup read them is the user as signing in read them
      expect(me.json().user).toEqual(response.json().user);

      const out = await checkedInject(server.app, server.model, {
        method: 'DELETE',
        url: '/api/session',
        headers: { ...CSRF, cookie: cookie! },
      });
      expect(out.statusCode).toBe(204);
      const after = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
      expect(problem(after)).toMatchObject({ status: 401, code: 'E_UNAUTHENTICATED' });
      expect(await server.database.db.selectFrom(TABLES.sessions).selectAll().execute()).toHaveLength(0);
    });

    it('marks the cookie Secure when served over HTTPS (behind a trusted proxy)', async () => {
      const server = await testServer(dialect, specModel(SPEC), { trustProxy: true });
      await givenUser(server, 'ann@example.com', ['employee']);
      const signIn = (proto: string) =>
        checkedInject(server.app, server.model, {
          method: 'POST',
          url: '/api/session',
          headers: { ...CSRF, 'x-forwarded-proto': proto },
          payload: { email: 'ann@example.com', password: PASSWORD },
        });
      const secure = (await signIn('https')).cookies.find((c) => c.name === 'ninefold_session');
      expect(secure).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
      const plain = (await signIn('http')).cookies.find((c) => c.name === 'ninefold_session');
      expect(plain?.secure).toBeUndefined();
    });

    it('answers a wrong password and an unknown email identically', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const wrong = await login(server.app, 'ann@example.com', 'not the password');
      const unknown = await login(server.app, 'nobody@example.com', 'not the password');
      for (const r of [wrong.response, unknown.response]) {
        expect(r.statusCode).toBe(401);
        expect(r.cookies).toHaveLength(0);
      }
      const a = problem(wrong.response);
      const b = problem(unknown.response);
      expect({ ...a, correlationId: undefined }).toEqual({ ...b, correlationId: undefined });
      expect(a).toMatchObject({
        code: 'E_INVALID_CREDENTIALS',
        message: 'The email or password is not correct.',
      });
    });

    it('does the same work for an unknown email as for a wrong password', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const hashesVerified = async (email: string) => {
        verified.length = 0;
        await login(server.app, email, 'not the password');
        return verified.map((stored) =>
          stored.slice(0, stored.lastIndexOf('$', stored.lastIndexOf('$') - 1)),
        );
      };
      const wrong = await hashesVerified('ann@example.com');
      const unknown = await hashesVerified('bob@example.com');
      // one argon2id verification each, at the same cost parameters: no short-cut for unknown emails
      expect(wrong).toEqual(['$argon2id$v=19$m=19456,t=2,p=1']);
      expect(unknown).toEqual(wrong);
    });

    it('refuses a malformed sign-in with per-field errors', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const response = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: CSRF,
        payload: { email: 12, remember: true },
      });
      const body = problem(response);
      expect(body).toMatchObject({ status: 422, code: 'E_VALIDATION' });
      expect(body.errors).toEqual([
        { field: 'remember', code: 'E_UNKNOWN_FIELD', message: 'remember is not a field of a sign-in.' },
        { field: 'email', code: 'E_TYPE', message: 'Email must be text.' },
        { field: 'password', code: 'E_REQUIRED', message: 'Password is required.' },
      ]);
    });

    it('rotates the session id at every sign-in', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const first = await login(server.app, 'ann@example.com');
      const second = await login(server.app, 'ann@example.com', PASSWORD, first.cookie);
      expect(second.cookie).toBeDefined();
      expect(second.cookie).not.toBe(first.cookie);
      const old = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: first.cookie! },
      });
      expect(old.statusCode).toBe(401);
      const current = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: second.cookie! },
      });
      expect(current.statusCode).toBe(200);
    });

    it('expires a session left idle, and one past its absolute lifetime however busy', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const whoAmI = (cookie: string) =>
        checkedInject(server.app, server.model, { method: 'GET', url: '/api/session', headers: { cookie } });

      const idle = (await login(server.app, 'ann@example.com')).cookie!;
      server.clock.advance(29 * MINUTE);
      expect((await whoAmI(idle)).statusCode).toBe(200); // and counts as use
      server.clock.advance(29 * MINUTE);
      expect((await whoAmI(idle)).statusCode).toBe(200);
      server.clock.advance(31 * MINUTE);
      const expired = await whoAmI(idle);
      expect(problem(expired)).toMatchObject({ status: 401, code: 'E_SESSION_EXPIRED' });
      expect(sessionCookie(expired)).toBe('ninefold_session='); // cleared
      expect((await whoAmI(idle)).statusCode).toBe(401);

      const busy = (await login(server.app, 'ann@example.com')).cookie!;
      for (let hour = 0; hour < 8; hour += 1) {
        server.clock.advance(20 * MINUTE);
        expect((await whoAmI(busy)).statusCode).toBe(200);
        server.clock.advance(20 * MINUTE);
        expect((await whoAmI(busy)).statusCode).toBe(200);
        server.clock.advance(20 * MINUTE);
        const response = await whoAmI(busy);
        expect(response.statusCode).toBe(hour < 7 ? 200 : 401);
      }
    });

    it('reads a record by id fresh at every request, and only for a live session', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { cookie } = await login(server.app, 'ann@example.com');
      const get = (url: string, session = cookie!) =>
        checkedInject(server.app, server.model, { method: 'GET', url, headers: { cookie: session } });
      const id = await createClaim(server, cookie!);

      const read = await get(`/api/claims/${id}`);
      expect(read.statusCode).toBe(200);
      expect(read.json()).toMatchObject({ id, title: 'Taxi', version: 1 });
      expect(read.headers.etag).toBe('"1"');
      expect(problem(await get('/api/claims/no-such-claim')).status).toBe(404);
      // nothing read with one request's session serves the next
      await server.database.db.updateTable('claims').set({ title: 'Bus', version: 2 }).execute();
      const again = await get(`/api/claims/${id}`);
      expect(again.json()).toMatchObject({ id, title: 'Bus', version: 2 });
      expect(again.headers.etag).toBe('"2"');

      // the lookup itself: an active session with its user as the engine sees them, nothing for an unknown id
      const sessionId = /ninefold_session=([^;]+)/.exec(cookie!)?.[1] ?? '';
      const lookup = (session: string) =>
        lookupSession(server.database, server.model, session, server.clock.now());
      expect(await lookup(sessionId)).toMatchObject({
        status: 'active',
        user: { email: 'ann@example.com', roles: ['employee'] },
        context: { roles: ['employee'] },
      });
      expect(await lookup('A'.repeat(22))).toEqual({ status: 'none' });

      // a session ended or whose user is disabled reads nothing, from the very next request
      const out = await checkedInject(server.app, server.model, {
        method: 'DELETE',
        url: '/api/session',
        headers: { ...CSRF, cookie: cookie! },
      });
      expect(out.statusCode).toBe(204);
      expect(problem(await get(`/api/claims/${id}`))).toMatchObject({
        status: 401,
        code: 'E_UNAUTHENTICATED',
      });
      const second = (await login(server.app, 'ann@example.com')).cookie!;
      expect((await get(`/api/claims/${id}`, second)).statusCode).toBe(200);
      await disableUser(server.database, server.model, 'ann@example.com');
      expect(problem(await get(`/api/claims/${id}`, second)).code).toBe('E_UNAUTHENTICATED');
    }, 60_000);

    it('knows a user by id and roles from the session alone when the model has no User entity', async () => {
      const server = await testServer(dialect, specModel(OWN_SPEC));
      await givenUser(server, 'ann@example.com', ['writer']);
      await givenUser(server, 'bob@example.com', ['writer']);
      const ann = (await login(server.app, 'ann@example.com')).cookie!;
      const bob = (await login(server.app, 'bob@example.com')).cookie!;
      const request = (cookie: string, method: 'GET' | 'POST', url: string, payload?: object) =>
        checkedInject(server.app, server.model, {
          method,
          url,
          headers: { ...CSRF, cookie },
          ...(payload === undefined ? {} : { payload }),
        });
      const note = await request(ann, 'POST', '/api/notes', { text: 'Mine' });
      expect(note.statusCode).toBe(201);
      const id = String(note.json().id);
      expect((await request(ann, 'GET', `/api/notes/${id}`)).json()).toMatchObject({ id, text: 'Mine' });
      expect(problem(await request(bob, 'GET', `/api/notes/${id}`)).status).toBe(404);
      expect((await request(bob, 'GET', '/api/notes')).json().data).toEqual([]);
      expect((await request(ann, 'GET', '/api/notes')).json().data.map((n: { id: string }) => n.id)).toEqual([
        id,
      ]);
    }, 60_000);

    it('ends the sessions of a disabled user and refuses their sign-in like a wrong password', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { cookie } = await login(server.app, 'ann@example.com');
      await disableUser(server.database, server.model, 'ann@example.com');
      const me = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
      expect(problem(me).code).toBe('E_UNAUTHENTICATED');
      const again = await login(server.app, 'ann@example.com');
      expect(problem(again.response).code).toBe('E_INVALID_CREDENTIALS');
      expect((await listUsers(server.database, server.model))[0]?.disabled).toBe(true);
    });

    it('limits sign-in attempts per address, with Retry-After, never locking the account elsewhere', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      for (let i = 0; i < 3; i += 1) {
        expect((await login(server.app, 'ann@example.com', 'wrong password')).response.statusCode).toBe(401);
      }
      // the right password does not get past the limit either
      const limited = await login(server.app, 'ann@example.com');
      expect(problem(limited.response)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
      expect(limited.response.headers['retry-after']).toBe('60');
      expect(problem(limited.response).message).toBe('Too many requests. Try again in 60 seconds.');

      // another account from another address is not affected
      await givenUser(server, 'bob@example.com', ['employee']);
      const bob = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        remoteAddress: '203.0.113.7',
        headers: CSRF,
        payload: { email: 'bob@example.com', password: PASSWORD },
      });
      expect(bob.statusCode).toBe(200);
      // nor is the same account from another address (decision 0027: no lockout by others)
      const elsewhere = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        remoteAddress: '198.51.100.1',
        headers: CSRF,
        payload: { email: 'ann@example.com', password: PASSWORD },
      });
      expect(elsewhere.statusCode).toBe(200);

      server.clock.advance(61_000);
      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(200);
    });

    it('administers users: roles checked against the spec, password resets end sessions', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await expect(givenUser(server, 'ann@example.com', ['pilot'])).rejects.toMatchObject({
        code: 'E_VALIDATION',
      });
      await givenUser(server, 'ann@example.com', ['employee']);
      await expect(givenUser(server, 'ANN@example.com', ['employee'])).rejects.toMatchObject({
        code: 'E_UNIQUE',
      });
      const promoted = await setRoles(server.database, server.model, 'ann@example.com', ['manager']);
      expect(promoted.roles).toEqual(['manager']);
      const { cookie } = await login(server.app, 'ann@example.com');
      const me = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
      expect(me.json().user.roles).toEqual(['manager']);

      await resetPassword(server.database, server.model, 'ann@example.com', 'a brand new password');
      const ended = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
      expect(ended.statusCode).toBe(401);
      expect((await login(server.app, 'ann@example.com', 'a brand new password')).response.statusCode).toBe(
        200,
      );
      const history = await server.database.db
        .selectFrom(TABLES.history)
        .select(['action', 'changes'])
        .execute();
      expect(history.map((h) => h.action)).toEqual(['create', 'update', 'update']);
      expect(JSON.stringify(history)).not.toContain('brand new');
    });
  });
}

describe('the session cache', () => {
  /** `GET /api/session` as `cookie`. */
  const whoAmI = (server: TestServer, cookie: string) =>
    checkedInject(server.app, server.model, {
      method: 'GET',
      url: '/api/session',
      headers: { cookie },
    });

  for (const dialect of DIALECTS) {
    it(`${dialect}: sees this server's own changes to a user at the very next request`, async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { cookie } = await login(server.app, 'ann@example.com');
      expect((await whoAmI(server, cookie!)).json().user.roles).toEqual(['employee']);
      expect((await whoAmI(server, cookie!)).json().user.roles).toEqual(['employee']);

      await setRoles(server.database, server.model, 'ann@example.com', ['manager']);
      expect((await whoAmI(server, cookie!)).json().user.roles).toEqual(['manager']);
      // a write to another table (a claim) changes nothing about the signed-in user
      await createClaim(server, cookie!);
      expect((await whoAmI(server, cookie!)).json().user.roles).toEqual(['manager']);
      await disableUser(server.database, server.model, 'ann@example.com');
      expect(problem(await whoAmI(server, cookie!)).code).toBe('E_UNAUTHENTICATED');
    }, 60_000);

    it(`${dialect}: sees another process's revocation within its time to live`, async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const { cookie } = await login(server.app, 'ann@example.com');
      expect((await whoAmI(server, cookie!)).statusCode).toBe(200);

      // the CLI, say, or another instance on the same database, through a connection of its own
      // (on PostgreSQL, a write that goes round this server's functions stands for it)
      const elsewhere = dialect === 'sqlite' ? await reopen(server.target) : server.database;
      await elsewhere.db
        .updateTable('users')
        .set({ roles: JSON.stringify(['manager']) })
        .execute();
      // trusted for at most the time to live, then read afresh
      server.clock.advance(SESSION_CACHE_TTL_MS);
      expect((await whoAmI(server, cookie!)).json().user.roles).toEqual(['manager']);

      await elsewhere.db.deleteFrom(TABLES.sessions).execute();
      server.clock.advance(SESSION_CACHE_TTL_MS);
      expect(problem(await whoAmI(server, cookie!)).code).toBe('E_UNAUTHENTICATED');
    }, 60_000);
  }

  it('sqlite: drops the triggers and the table of the retired session stamp when migrating', async () => {
    const server = await testServer('sqlite', specModel(SPEC));
    const other = await reopen(server.target);
    // a file migrated while sessions were stamped (decision 0019)
    await sql
      .raw(`create table "ninefold_session_stamp" ("id" integer primary key, "n" integer not null)`)
      .execute(other.db);
    await sql
      .raw(
        `create trigger "ninefold_session_stamp_users_update" after update on "users" begin update "ninefold_session_stamp" set "n" = "n" + 1; end`,
      )
      .execute(other.db);
    expect((await migrate(other, server.model)).status).toBe('up-to-date');
    const names = await sql<{
      name: string;
    }>`select name from sqlite_master where name like 'ninefold_session_stamp%'`.execute(other.db);
    expect(names.rows).toEqual([]);
  }, 60_000);
});

describe('sqlite: sessions cached between requests', () => {
  it('still expires a cached session, and records its use once a minute', async () => {
    const server = await testServer('sqlite', specModel(SPEC));
    await givenUser(server, 'ann@example.com', ['employee']);
    const { cookie } = await login(server.app, 'ann@example.com');
    const lastSeen = async () =>
      (await server.database.db.selectFrom(TABLES.sessions).select('last_seen_at').executeTakeFirst())
        ?.last_seen_at;
    const whoAmI = () =>
      checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/session',
        headers: { cookie: cookie! },
      });
    const signedIn = await lastSeen();
    expect((await whoAmI()).statusCode).toBe(200);
    server.clock.advance(30_000);
    expect((await whoAmI()).statusCode).toBe(200);
    expect(await lastSeen()).toBe(signedIn);
    server.clock.advance(31_000);
    expect((await whoAmI()).statusCode).toBe(200);
    expect(await lastSeen()).toBe(server.clock.now().toISOString());
    server.clock.advance(29 * MINUTE);
    expect((await whoAmI()).statusCode).toBe(200); // cached, and still live
    server.clock.advance(30 * MINUTE + 1);
    expect(problem(await whoAmI())).toMatchObject({ status: 401, code: 'E_SESSION_EXPIRED' });
  }, 60_000);
});
