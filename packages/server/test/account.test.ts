/**
 * The signed-in user's own account over HTTP (decision 0038): changing the password (the current
 * one required and its guesses counted like sign-ins, the other sessions ended, this one and the
 * API tokens kept) and seeing and ending their own sessions.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DEFAULT_AUTH, SESSION_COOKIE } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  PASSWORD,
  problem,
  sessionCookie,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { TABLES, addUser } from '../src/index.js';
import { createSession } from '../src/auth/sessions.js';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true, create: true } }
`;

/** Three attempts at a password a minute from one address. */
const STRICT_SPEC = `${SPEC}limits: { loginAttemptsPerMinute: 3 }
`;

const NEW_PASSWORD = 'a brand new passphrase';

function call(server: TestServer, cookie: string, method: string, url: string, payload?: object) {
  return checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, cookie },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function signIn(server: TestServer, userAgent: string, password = PASSWORD): Promise<string> {
  const response = await checkedInject(server.app, server.model, {
    method: 'POST',
    url: '/api/session',
    headers: { ...CSRF, 'user-agent': userAgent },
    payload: { email: 'ann@example.com', password },
  });
  expect(response.statusCode, response.body).toBe(200);
  return sessionCookie(response) ?? '';
}

const signedIn = async (server: TestServer, cookie: string) =>
  (await call(server, cookie, 'GET', '/api/session')).statusCode === 200;

const hashOf = (cookie: string) =>
  createHash('sha256')
    .update(cookie.slice(SESSION_COOKIE.length + 1))
    .digest('hex');

for (const dialect of DIALECTS) {
  describe(`${dialect}: own password`, () => {
    it('changes the password, ends the other sessions and keeps this one and the API tokens', async () => {
      const model = { ...specModel(SPEC), auth: { ...DEFAULT_AUTH, tokens: ['employee'] } };
      const server = await testServer(dialect, model);
      const ann = await givenUser(server, 'ann@example.com', ['employee']);
      const laptop = await signIn(server, 'Laptop');
      const phone = await signIn(server, 'Phone');
      // the phone's session is in the session cache: the change must reach it there too
      expect(await signedIn(server, phone)).toBe(true);
      const made = await call(server, laptop, 'POST', '/api/tokens', { name: 'CI' });
      const token = made.json<{ token: string }>().token;

      const changed = await checkedInject(server.app, model, {
        method: 'PUT',
        url: '/api/account/password',
        headers: { ...CSRF, cookie: laptop, 'user-agent': 'Laptop' },
        payload: { currentPassword: PASSWORD, password: NEW_PASSWORD },
      });
      expect(changed.statusCode, changed.body).toBe(204);
      expect(await signedIn(server, laptop)).toBe(true);
      expect(await signedIn(server, phone)).toBe(false);
      const script = await checkedInject(server.app, model, {
        method: 'GET',
        url: '/api/claims',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(script.statusCode).toBe(200);

      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(401);
      expect((await login(server.app, 'ann@example.com', NEW_PASSWORD)).response.statusCode).toBe(200);
      const recorded = await server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['user_id', 'user_agent', 'address'])
        .where('kind', '=', 'password-changed')
        .execute();
      expect(recorded).toEqual([{ user_id: ann.id, user_agent: 'Laptop', address: '127.0.0.1' }]);
    });

    it('refuses a wrong current password and counts it as a failed sign-in', async () => {
      const server = await testServer(dialect, specModel(STRICT_SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const cookie = await signIn(server, 'Laptop');
      const change = () =>
        call(server, cookie, 'PUT', '/api/account/password', {
          currentPassword: 'a wrong guess',
          password: NEW_PASSWORD,
        });
      for (let i = 0; i < 2; i++) {
        const wrong = await change();
        expect(wrong.statusCode).toBe(422);
        expect(problem(wrong).errors?.map((e) => [e.field, e.code])).toEqual([
          ['currentPassword', 'E_WRONG_PASSWORD'],
        ]);
      }
      // three attempts a minute from one address (the spec's limit): the sign-in was the first
      const limited = await change();
      expect(problem(limited).code).toBe('E_RATE_LIMITED');
      // and the limit is the sign-in's: signing in from that address waits too
      const { response } = await login(server.app, 'ann@example.com');
      expect(problem(response).code).toBe('E_RATE_LIMITED');
      server.clock.advance(60_000);
      // the password did not change
      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(200);
    });

    it('holds the new password to the policy and the body to its two fields', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const cookie = await signIn(server, 'Laptop');
      const issues = async (body: object) => {
        const response = await call(server, cookie, 'PUT', '/api/account/password', body);
        expect(response.statusCode).toBe(422);
        return problem(response).errors?.map((e) => [e.field, e.code]);
      };
      expect(await issues({ currentPassword: PASSWORD, password: 'short' })).toEqual([
        ['password', 'E_TOO_SHORT'],
      ]);
      expect(await issues({ currentPassword: PASSWORD, password: 'password123' })).toEqual([
        ['password', 'E_PASSWORD_COMMON'],
      ]);
      expect(await issues({ password: NEW_PASSWORD })).toEqual([['currentPassword', 'E_REQUIRED']]);
      expect(
        await issues({ currentPassword: PASSWORD, password: NEW_PASSWORD, email: 'eve@example.com' }),
      ).toEqual([['email', 'E_UNKNOWN_FIELD']]);
      expect((await login(server.app, 'ann@example.com')).response.statusCode).toBe(200);
      const signedOut = await checkedInject(server.app, server.model, {
        method: 'PUT',
        url: '/api/account/password',
        headers: CSRF,
        payload: { currentPassword: PASSWORD, password: NEW_PASSWORD },
      });
      expect(problem(signedOut).code).toBe('E_UNAUTHENTICATED');
    });

    it('refuses a user who has no password of their own', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const invited = await addUser(server.database, server.model, {
        email: 'ivy@example.com',
        name: 'Ivy',
        roles: ['employee'],
      });
      // signed in some other way (single sign-on, say)
      const id = await createSession(server.database, invited.id, server.clock.now());
      const cookie = `${SESSION_COOKIE}=${id}`;
      const response = await call(server, cookie, 'PUT', '/api/account/password', {
        currentPassword: '',
        password: NEW_PASSWORD,
      });
      expect(problem(response).errors?.map((e) => [e.field, e.code])).toEqual([
        ['currentPassword', 'E_REQUIRED'],
      ]);
      const guessed = await call(server, cookie, 'PUT', '/api/account/password', {
        currentPassword: 'anything at all',
        password: NEW_PASSWORD,
      });
      expect(problem(guessed).errors?.map((e) => [e.field, e.code])).toEqual([
        ['currentPassword', 'E_WRONG_PASSWORD'],
      ]);
      expect((await login(server.app, 'ivy@example.com', NEW_PASSWORD)).response.statusCode).toBe(401);
    });
  });

  describe(`${dialect}: own sessions`, () => {
    it('lists one’s own sessions with where and how they began, never the cookie', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      await givenUser(server, 'bob@example.com', ['employee']);
      const laptop = await signIn(server, 'Laptop');
      server.clock.advance(1000);
      const phone = await signIn(server, 'Phone');
      await login(server.app, 'bob@example.com');

      const listed = await call(server, laptop, 'GET', '/api/account/sessions');
      expect(listed.statusCode).toBe(200);
      const at = (ms: number) => new Date(Date.parse('2026-03-01T09:00:00.000Z') + ms).toISOString();
      expect(listed.json().data).toEqual([
        {
          id: hashOf(phone),
          createdAt: at(1000),
          lastSeenAt: at(1000),
          current: false,
          userAgent: 'Phone',
          address: '127.0.0.1',
          method: 'password',
        },
        {
          id: hashOf(laptop),
          createdAt: at(0),
          lastSeenAt: at(0),
          current: true,
          userAgent: 'Laptop',
          address: '127.0.0.1',
          method: 'password',
        },
      ]);
      expect(listed.body).not.toContain(laptop.split('=')[1]);
      expect(listed.body).not.toContain(phone.split('=')[1]);
    });

    it('ends one of one’s own sessions, never someone else’s, and all but this one', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const ann = await givenUser(server, 'ann@example.com', ['employee']);
      await givenUser(server, 'bob@example.com', ['employee']);
      const laptop = await signIn(server, 'Laptop');
      const phone = await signIn(server, 'Phone');
      const tablet = await signIn(server, 'Tablet');
      const bob = (await login(server.app, 'bob@example.com')).cookie ?? '';
      for (const cookie of [laptop, phone, tablet, bob]) expect(await signedIn(server, cookie)).toBe(true);

      const others = await call(server, laptop, 'DELETE', `/api/account/sessions/${hashOf(bob)}`);
      expect(problem(others).code).toBe('E_NOT_FOUND');
      expect(await signedIn(server, bob)).toBe(true);
      expect(problem(await call(server, laptop, 'DELETE', '/api/account/sessions/not-a-session')).code).toBe(
        'E_NOT_FOUND',
      );

      const one = await call(server, laptop, 'DELETE', `/api/account/sessions/${hashOf(phone)}`);
      expect(one.statusCode).toBe(204);
      expect(await signedIn(server, phone)).toBe(false);
      expect(await signedIn(server, tablet)).toBe(true);

      const all = await call(server, laptop, 'DELETE', '/api/account/sessions');
      expect(all.statusCode).toBe(204);
      expect(await signedIn(server, tablet)).toBe(false);
      expect(await signedIn(server, laptop)).toBe(true);
      expect(await signedIn(server, bob)).toBe(true);
      const left = await call(server, laptop, 'GET', '/api/account/sessions');
      expect(left.json().data.map((s: { current: boolean }) => s.current)).toEqual([true]);

      const ended = await server.database.db
        .selectFrom(TABLES.authEvents)
        .select(['user_id', 'detail'])
        .where('kind', '=', 'session-ended')
        .orderBy('id')
        .execute();
      expect(ended.map((e) => [e['user_id'], JSON.parse(String(e['detail']))])).toEqual([
        [ann.id, { sessions: '1' }],
        [ann.id, { sessions: '1', kept: 'this one' }],
      ]);
    });
  });
}
