/**
 * The built-in User entity as a resource: denied unless a role grants it, emails normalised as
 * `ninefold users add` does, no sign-in without a password, and the password hash out of reach.
 */
import { describe, expect, it } from 'vitest';
import { PASSWORD_HASH_COLUMN, addUser, resetPassword } from '../src/index.js';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  PASSWORD,
  problem,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: People }
entities:
  Note:
    fields:
      title: { type: string, required: true }
roles:
  admin:
    Note: true
    User:
      read: true
      create: true
      update: true
      delete: false
      fields: { write: [name, email, roles, disabled] }
  staff:
    Note: true
    User: { read: true }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: users over HTTP`, () => {
    it('creates users only when a role grants it, with the email normalised as `users add` does', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['admin']);
      await givenUser(server, 'sam@example.com', ['staff']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const sam = (await login(server.app, 'sam@example.com')).cookie ?? '';
      const call = (cookie: string, method: string, url: string, payload?: object, version?: number) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) },
          ...(payload === undefined ? {} : { payload }),
        });
      const users = () => server.database.db.selectFrom('users').select(['email']).execute();

      const zoe = { email: '  Zoe@Example.COM ', name: 'Zoe', roles: ['staff'] };
      expect(problem(await call(sam, 'POST', '/api/users', zoe))).toMatchObject({
        status: 403,
        code: 'E_FORBIDDEN',
      });
      expect(await users()).toHaveLength(2);

      const created = await call(ada, 'POST', '/api/users', zoe);
      expect(created.statusCode, created.body).toBe(201);
      const record = created.json<Record<string, unknown>>();
      expect(record).toMatchObject({
        email: 'zoe@example.com',
        name: 'Zoe',
        roles: ['staff'],
        disabled: false,
      });
      expect(record).not.toHaveProperty(PASSWORD_HASH_COLUMN);

      // one address, however it is typed, over HTTP or on the command line
      const again = problem(await call(ada, 'POST', '/api/users', { ...zoe, email: 'ZOE@example.com' }));
      expect(again).toMatchObject({ status: 409, code: 'E_UNIQUE' });
      await expect(
        addUser(server.database, model, { ...zoe, email: 'zoe@EXAMPLE.com', password: PASSWORD }),
      ).rejects.toMatchObject({ code: 'E_UNIQUE' });

      // without a password nobody can sign in as her, and the answer is that of a wrong password
      const refused = await login(server.app, 'zoe@example.com', '');
      expect(problem(refused.response).code).toBe('E_VALIDATION');
      const wrong = await login(server.app, 'Zoe@Example.com', 'any password at all');
      expect(problem(wrong.response)).toMatchObject({ status: 401, code: 'E_INVALID_CREDENTIALS' });
      await resetPassword(server.database, model, 'zoe@example.com', PASSWORD);
      const signedIn = await login(server.app, ' ZOE@example.com');
      expect(signedIn.response.statusCode, signedIn.response.body).toBe(200);
      const zoeCookie = signedIn.cookie ?? '';

      // an email changed over HTTP is normalised too
      const id = String(record['id']);
      // the password reset moved her record's version on
      const current = Number(
        (await call(ada, 'GET', `/api/users/${id}`)).json<{ version: number }>().version,
      );
      const renamed = await call(ada, 'PATCH', `/api/users/${id}`, { email: ' Zoe.B@Example.com' }, current);
      expect(renamed.statusCode, renamed.body).toBe(200);
      expect(renamed.json()).toMatchObject({ email: 'zoe.b@example.com' });

      // disabling her over HTTP ends her session at its next request
      const version = Number(renamed.json<{ version: number }>().version);
      const disabled = await call(ada, 'PATCH', `/api/users/${id}`, { disabled: true }, version);
      expect(disabled.statusCode, disabled.body).toBe(200);
      const session = await call(zoeCookie, 'GET', '/api/session');
      expect(problem(session).code).toBe('E_UNAUTHENTICATED');
    });

    it('never reads, writes, filters, sorts or searches the password hash', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      const admin = await givenUser(server, 'ada@example.com', ['admin']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const call = (method: string, url: string, payload?: object, version?: number) =>
        checkedInject(server.app, model, {
          method,
          url,
          headers: { ...CSRF, cookie: ada, ...(version === undefined ? {} : { 'if-match': `"${version}"` }) },
          ...(payload === undefined ? {} : { payload }),
        });
      const stored = async () =>
        (
          await server.database.db
            .selectFrom('users')
            .select([PASSWORD_HASH_COLUMN, 'version'])
            .where('id', '=', admin.id)
            .executeTakeFirstOrThrow()
        )[PASSWORD_HASH_COLUMN] as string;
      const hash = await stored();
      expect(hash).toMatch(/^\$argon2id\$/);

      const everything = JSON.stringify([
        (await call('GET', `/api/users/${admin.id}`)).json(),
        (await call('GET', '/api/users?total=true')).json(),
        (await call('GET', `/api/users/${admin.id}/history`)).json(),
      ]);
      expect(everything).not.toContain(PASSWORD_HASH_COLUMN);
      expect(everything).not.toContain('argon2');

      for (const field of [PASSWORD_HASH_COLUMN, 'password', 'passwordHash']) {
        const created = problem(
          await call('POST', '/api/users', {
            email: 'eve@example.com',
            name: 'Eve',
            roles: ['staff'],
            [field]: 'x',
          }),
        );
        expect(
          created.errors?.map((e) => [e.field, e.code]),
          field,
        ).toEqual([[field, 'E_UNKNOWN_FIELD']]);
        const patched = problem(
          await call('PATCH', `/api/users/${admin.id}`, { [field]: '$argon2id$forged' }, 1),
        );
        expect(
          patched.errors?.map((e) => [e.field, e.code]),
          field,
        ).toEqual([[field, 'E_UNKNOWN_FIELD']]);
      }
      for (const query of [
        `${PASSWORD_HASH_COLUMN}=${encodeURIComponent(hash)}`,
        `${PASSWORD_HASH_COLUMN}[isNull]=false`,
        `${PASSWORD_HASH_COLUMN}[contains]=argon2`,
        `sort=${PASSWORD_HASH_COLUMN}`,
      ]) {
        expect(problem(await call('GET', `/api/users?${query}`)), query).toMatchObject({
          status: 400,
          code: 'E_INVALID_QUERY',
        });
      }
      const searched = (await call('GET', '/api/users?q=argon2id')).json<{ data: unknown[] }>();
      expect(searched.data).toEqual([]);
      expect(await stored()).toBe(hash);
      expect((await server.database.db.selectFrom('users').select('email').execute()).length).toBe(1);
    });

    // a spec without roles gives everyone one role that only reads users
    it("reaches a user's signed-in sessions at their next request when an admin changes their roles or disables them", async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['admin']);
      const sam = await givenUser(server, 'sam@example.com', ['staff']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const samCookie = (await login(server.app, 'sam@example.com')).cookie ?? '';
      const whoIsSam = () =>
        checkedInject(server.app, model, {
          method: 'GET',
          url: '/api/session',
          headers: { cookie: samCookie },
        });
      const patch = (payload: object, version: number) =>
        checkedInject(server.app, model, {
          method: 'PATCH',
          url: `/api/users/${sam.id}`,
          headers: { ...CSRF, cookie: ada, 'if-match': `"${version}"` },
          payload,
        });
      expect((await whoIsSam()).json().user.roles).toEqual(['staff']);
      expect((await whoIsSam()).json().user.roles).toEqual(['staff']);

      const promoted = await patch({ roles: ['admin'] }, 1);
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect((await whoIsSam()).json().user.roles).toEqual(['admin']);
      expect((await patch({ disabled: true }, 2)).statusCode).toBe(200);
      expect(problem(await whoIsSam()).code).toBe('E_UNAUTHENTICATED');
    });

    it('refuses a blank name, on the command line and over HTTP alike', async () => {
      const model = specModel(SPEC);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['admin']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const required = [{ field: 'name', code: 'E_REQUIRED', message: 'Name is required.' }];
      for (const name of ['  ', '\u200b', '\u00a0\u2060']) {
        const eve = { email: 'eve@example.com', name, roles: ['staff'] };
        await expect(addUser(server.database, model, { ...eve, password: PASSWORD })).rejects.toMatchObject({
          code: 'E_VALIDATION',
          errors: [{ field: 'name', code: 'E_REQUIRED' }],
        });
        const response = await checkedInject(server.app, model, {
          method: 'POST',
          url: '/api/users',
          headers: { ...CSRF, cookie },
          payload: eve,
        });
        expect(problem(response).errors).toEqual(required);
      }
    });

    it('refuses to create a user when the spec declares no roles', async () => {
      const model = specModel(`entities: { Note: { fields: { title: { type: string } } } }`);
      const server = await testServer(dialect, model);
      await givenUser(server, 'ada@example.com', ['user']);
      const cookie = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const response = await checkedInject(server.app, model, {
        method: 'POST',
        url: '/api/users',
        headers: { ...CSRF, cookie },
        payload: { email: 'eve@example.com', name: 'Eve', roles: ['user'] },
      });
      expect(problem(response)).toMatchObject({ status: 403, code: 'E_FORBIDDEN' });
    });
  });
}
