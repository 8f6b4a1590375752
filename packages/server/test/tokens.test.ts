/**
 * Personal API tokens over HTTP (decision 0038): made once by a signed-in user of a role that
 * `auth.tokens` lists, stored as their SHA-256, sent as `Authorization: Bearer`, acting as the user
 * with the token's roles (no CSRF header, no cookie), refused once revoked or expired or when the
 * user is disabled, losing a role the moment the user does, listed and revoked.
 */
import { describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { DEFAULT_AUTH, type Model, RATE_LIMIT_HEADERS } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  login,
  problem,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { sql } from 'kysely';
import { TABLES, buildApp, disableUser, openApiDocument, setRoles } from '../src/index.js';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true, create: true } }
  integration: { Claim: { read: true } }
  visitor: { Claim: { read: true } }
  admin:
    Claim: true
    User:
      read: true
      create: true
      update: true
      fields: { write: [name, email, roles, disabled] }
`;

/** The spec, with `auth.tokens` set by hand (the notation is another branch's). */
function tokenModel(): Model {
  return { ...specModel(SPEC), auth: { ...DEFAULT_AUTH, tokens: ['employee', 'integration', 'admin'] } };
}

const DAY = 86_400_000;
const TOKEN = /^nf_[A-Za-z0-9_-]{43}$/;

interface Setup {
  readonly server: TestServer;
  /** Ann: employee and integration, signed in. */
  readonly ann: { id: string; cookie: string };
}

async function setup(dialect: (typeof DIALECTS)[number]): Promise<Setup> {
  const server = await testServer(dialect, tokenModel());
  const user = await givenUser(server, 'ann@example.com', ['employee', 'integration']);
  const { cookie } = await login(server.app, 'ann@example.com');
  return { server, ann: { id: user.id, cookie: cookie ?? '' } };
}

/** A request with the cookie and the CSRF header, as the app sends it. */
function asBrowser(server: TestServer, cookie: string, method: string, url: string, payload?: object) {
  return checkedInject(server.app, server.model, {
    method,
    url,
    headers: { ...CSRF, cookie },
    ...(payload === undefined ? {} : { payload }),
  });
}

/** A request with the token alone, as a script sends it. */
function asScript(server: TestServer, token: string, method: string, url: string, payload?: object) {
  return checkedInject(server.app, server.model, {
    method,
    url,
    headers: { authorization: `Bearer ${token}` },
    ...(payload === undefined ? {} : { payload }),
  });
}

async function makeToken(server: TestServer, cookie: string, body: object = { name: 'CI' }) {
  const response = await asBrowser(server, cookie, 'POST', '/api/tokens', body);
  expect(response.statusCode, response.body).toBe(201);
  return response.json<{ id: string; token: string; roles: string[]; expiresAt: string }>();
}

async function events(server: TestServer, kind: string) {
  const rows = await server.database.db
    .selectFrom(TABLES.authEvents)
    .selectAll()
    .where('kind', '=', kind)
    .execute();
  return rows.map((row) => ({ user: row['user_id'], detail: JSON.parse(String(row['detail'])) as unknown }));
}

for (const dialect of DIALECTS) {
  describe(`${dialect}: personal API tokens`, () => {
    it('makes a token shown once and stored as its SHA-256, listed and revoked without it', async () => {
      const { server, ann } = await setup(dialect);
      const made = await makeToken(server, ann.cookie, { name: '  Nightly export ' });
      expect(made.token).toMatch(TOKEN);
      // the user's roles that auth.tokens lists; 90 days
      expect(made).toMatchObject({
        name: 'Nightly export',
        roles: ['employee', 'integration'],
        lastUsedAt: null,
      });
      expect(Date.parse(made.expiresAt) - server.clock.now().getTime()).toBe(90 * DAY);

      const rows = await server.database.db.selectFrom(TABLES.apiTokens).selectAll().execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]?.['token_hash']).toBe(createHash('sha256').update(made.token).digest('hex'));
      expect(JSON.stringify(rows)).not.toContain(made.token.slice(3));

      const listed = await asBrowser(server, ann.cookie, 'GET', '/api/tokens');
      expect(listed.statusCode).toBe(200);
      expect(listed.json().data).toEqual([
        {
          id: made.id,
          name: 'Nightly export',
          roles: ['employee', 'integration'],
          createdAt: server.clock.now().toISOString(),
          expiresAt: made.expiresAt,
          lastUsedAt: null,
        },
      ]);
      expect(listed.body).not.toContain(made.token.slice(3));
      expect(listed.body).not.toContain(String(rows[0]?.['token_hash']));
      expect(await events(server, 'token-created')).toEqual([
        { user: ann.id, detail: { token: made.id, name: 'Nightly export', roles: 'employee, integration' } },
      ]);

      const revoked = await asBrowser(server, ann.cookie, 'DELETE', `/api/tokens/${made.id}`);
      expect(revoked.statusCode).toBe(204);
      expect((await asBrowser(server, ann.cookie, 'GET', '/api/tokens')).json().data).toEqual([]);
      const refused = await asScript(server, made.token, 'GET', '/api/claims');
      expect(refused.statusCode).toBe(401);
      expect(problem(refused).code).toBe('E_TOKEN_EXPIRED');
      expect(refused.headers['www-authenticate']).toBe('Bearer error="invalid_token"');
      expect(await events(server, 'token-revoked')).toEqual([
        { user: ann.id, detail: { token: made.id, name: 'Nightly export' } },
      ]);
      // revoked once: a second time it is gone
      expect((await asBrowser(server, ann.cookie, 'DELETE', `/api/tokens/${made.id}`)).statusCode).toBe(404);
    });

    it('reads and writes as its user with no CSRF header, whatever cookie comes with it', async () => {
      const { server, ann } = await setup(dialect);
      await givenUser(server, 'bob@example.com', ['employee']);
      const bob = (await login(server.app, 'bob@example.com')).cookie ?? '';
      const { token } = await makeToken(server, ann.cookie);

      const created = await asScript(server, token, 'POST', '/api/claims', { title: 'Taxi' });
      expect(created.statusCode, created.body).toBe(201);
      expect(created.json()).toMatchObject({ title: 'Taxi', createdBy: ann.id });
      const read = await asScript(server, token, 'GET', `/api/claims/${created.json().id}`);
      expect(read.statusCode).toBe(200);
      const me = await asScript(server, token, 'GET', '/api/session');
      expect(me.json().user).toMatchObject({ id: ann.id, roles: ['employee', 'integration'] });

      // Bob's cookie beside Ann's token: the request is Ann's, and Bob's session is untouched
      const mixed = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/claims',
        headers: { authorization: `Bearer ${token}`, cookie: bob },
        payload: { title: 'Hotel' },
      });
      expect(mixed.statusCode).toBe(201);
      expect(mixed.json().createdBy).toBe(ann.id);
      const signOut = await checkedInject(server.app, server.model, {
        method: 'DELETE',
        url: '/api/session',
        headers: { authorization: `Bearer ${token}`, cookie: bob },
      });
      expect(signOut.statusCode).toBe(204);
      expect((await asBrowser(server, bob, 'GET', '/api/session')).json().user.email).toBe('bob@example.com');

      // the scheme's name in any case (RFC 9110); another scheme is not a token, and the CSRF check stays
      const lower = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/claims',
        headers: { authorization: `bearer ${token}` },
      });
      expect(lower.statusCode).toBe(200);
      const basic = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/claims',
        headers: { authorization: 'Basic YW5uOnB3', cookie: ann.cookie },
        payload: { title: 'Taxi' },
      });
      expect(problem(basic).code).toBe('E_CSRF');
      // a cookie without the CSRF header is still refused
      const noCsrf = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/claims',
        headers: { cookie: ann.cookie },
        payload: { title: 'Taxi' },
      });
      expect(problem(noCsrf).code).toBe('E_CSRF');
    });

    it('acts with the token’s roles only: a role it was not given denies what that role allows', async () => {
      const { server, ann } = await setup(dialect);
      const reader = await makeToken(server, ann.cookie, { name: 'Reader', roles: ['integration'] });
      expect(reader.roles).toEqual(['integration']);
      expect((await asScript(server, reader.token, 'GET', '/api/claims')).statusCode).toBe(200);
      const write = await asScript(server, reader.token, 'POST', '/api/claims', { title: 'Taxi' });
      expect(write.statusCode).toBe(403);
      expect(problem(write).code).toBe('E_FORBIDDEN');
      // Ann herself, signed in, may
      expect((await asBrowser(server, ann.cookie, 'POST', '/api/claims', { title: 'Taxi' })).statusCode).toBe(
        201,
      );

      // an admin's token without the admin role is no admin's
      await givenUser(server, 'ada@example.com', ['admin', 'integration']);
      const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
      const adaReader = await makeToken(server, ada, { name: 'Reader', roles: ['integration'] });
      const audit = await asScript(server, adaReader.token, 'GET', '/api/admin/auth-events');
      expect(problem(audit).code).toBe('E_FORBIDDEN');
      const adaAdmin = await makeToken(server, ada, { name: 'Admin', roles: ['admin'] });
      expect((await asScript(server, adaAdmin.token, 'GET', '/api/admin/auth-events')).statusCode).toBe(200);
    });

    it('takes a role from the token the moment it is taken from the user, and refuses a disabled user', async () => {
      const { server, ann } = await setup(dialect);
      const { token } = await makeToken(server, ann.cookie);
      expect((await asScript(server, token, 'POST', '/api/claims', { title: 'Taxi' })).statusCode).toBe(201);

      await setRoles(server.database, server.model, 'ann@example.com', ['integration'], server.clock);
      const write = await asScript(server, token, 'POST', '/api/claims', { title: 'Taxi' });
      expect(problem(write).code).toBe('E_FORBIDDEN');
      expect((await asScript(server, token, 'GET', '/api/session')).json().user.roles).toEqual([
        'integration',
      ]);
      // given back, it is the token's again: the token keeps what it was given
      await setRoles(
        server.database,
        server.model,
        'ann@example.com',
        ['employee', 'integration'],
        server.clock,
      );
      expect((await asScript(server, token, 'POST', '/api/claims', { title: 'Taxi' })).statusCode).toBe(201);

      // a role the spec no longer lets hold tokens is gone from them too
      const narrowed = { ...server.model, auth: { ...DEFAULT_AUTH, tokens: ['integration'] } };
      const app = buildApp({ model: narrowed, database: server.database, now: server.clock.now });
      const session = await app.inject({
        method: 'GET',
        url: '/api/session',
        headers: { authorization: `Bearer ${token}` },
      });
      expect(session.json().user.roles).toEqual(['integration']);
      await app.close();

      await disableUser(server.database, server.model, 'ann@example.com', server.clock);
      const disabled = await asScript(server, token, 'GET', '/api/claims');
      expect(disabled.statusCode).toBe(401);
      expect(problem(disabled).code).toBe('E_UNAUTHENTICATED');
    });

    it('refuses an unknown token, an expired one and one past its revocation, whatever else the request says', async () => {
      const { server, ann } = await setup(dialect);
      const { token } = await makeToken(server, ann.cookie, {
        name: 'Short',
        expiresAt: new Date(server.clock.now().getTime() + DAY).toISOString(),
      });
      for (const unknown of ['nf_' + 'A'.repeat(43), 'not-a-token', `${token}x`]) {
        // a wrong token is refused even beside a working cookie: it is never taken for the cookie's user
        const response = await checkedInject(server.app, server.model, {
          method: 'GET',
          url: '/api/claims',
          headers: { authorization: `Bearer ${unknown}`, cookie: ann.cookie },
        });
        expect(response.statusCode).toBe(401);
        expect(problem(response).code).toBe('E_UNAUTHENTICATED');
      }
      expect((await asScript(server, token, 'GET', '/api/claims')).statusCode).toBe(200);
      server.clock.advance(DAY - 1);
      expect((await asScript(server, token, 'GET', '/api/claims')).statusCode).toBe(200);
      server.clock.advance(1);
      const expired = await asScript(server, token, 'POST', '/api/claims', { title: 'Taxi' });
      expect(expired.statusCode).toBe(401);
      expect(problem(expired).code).toBe('E_TOKEN_EXPIRED');
      // still listed, so that its user sees why the script stopped
      const again = (await login(server.app, 'ann@example.com')).cookie ?? '';
      const listed = await asBrowser(server, again, 'GET', '/api/tokens');
      expect(listed.json().data).toHaveLength(1);
    });

    it('refuses an address that keeps sending refused tokens, without looking them up, for the minute', async () => {
      const model = {
        ...specModel(`${SPEC}limits: { requestsPerMinute: { guest: 3, default: 600 } }\n`),
        auth: { ...DEFAULT_AUTH, tokens: ['employee'] },
      };
      const server = await testServer(dialect, model);
      await givenUser(server, 'ann@example.com', ['employee']);
      const cookie = (await login(server.app, 'ann@example.com')).cookie ?? '';
      const { token } = await makeToken(server, cookie);
      const guess = (n: number) =>
        asScript(server, token.slice(0, -4) + String(1000 + n), 'GET', '/api/claims');
      for (let n = 0; n < 3; n++) expect(problem(await guess(n)).code).toBe('E_UNAUTHENTICATED');
      const limited = await guess(3);
      expect(problem(limited).code).toBe('E_RATE_LIMITED');
      expect(limited.headers['retry-after']).toBe('60');
      // the address waits, whatever it sends; the browser's session is not held up
      expect(problem(await asScript(server, token, 'GET', '/api/claims')).code).toBe('E_RATE_LIMITED');
      expect((await asBrowser(server, cookie, 'GET', '/api/claims')).statusCode).toBe(200);
      server.clock.advance(60_000);
      expect((await asScript(server, token, 'GET', '/api/claims')).statusCode).toBe(200);
    });

    it('records its last use at most once a minute', async () => {
      const { server, ann } = await setup(dialect);
      const made = await makeToken(server, ann.cookie);
      const lastUsed = async () =>
        (await asBrowser(server, ann.cookie, 'GET', '/api/tokens')).json().data[0].lastUsedAt as
          string | null;
      const start = server.clock.now().toISOString();
      expect(await lastUsed()).toBeNull();
      await asScript(server, made.token, 'GET', '/api/claims');
      expect(await lastUsed()).toBe(start);
      server.clock.advance(59_000);
      await asScript(server, made.token, 'GET', '/api/claims');
      expect(await lastUsed()).toBe(start);
      server.clock.advance(1_000);
      await asScript(server, made.token, 'GET', '/api/claims');
      expect(await lastUsed()).toBe(server.clock.now().toISOString());
    });

    it('counts a token’s requests against its user’s rate limit, as their sessions’', async () => {
      const { server, ann } = await setup(dialect);
      const { token } = await makeToken(server, ann.cookie);
      const first = await asBrowser(server, ann.cookie, 'GET', '/api/claims');
      const second = await asScript(server, token, 'GET', '/api/claims');
      const remaining = (response: typeof first) => Number(response.headers[RATE_LIMIT_HEADERS.remaining]);
      expect(remaining(second)).toBe(remaining(first) - 1);
    });

    it('is made only by a signed-in person of a token role, with some of their token roles, named, within a year', async () => {
      const { server, ann } = await setup(dialect);
      const issues = async (body: object) => {
        const response = await asBrowser(server, ann.cookie, 'POST', '/api/tokens', body);
        expect(response.statusCode, response.body).toBe(422);
        return problem(response).errors?.map((e) => [e.field, e.code]);
      };
      const now = server.clock.now().getTime();
      expect(await issues({})).toEqual([['name', 'E_REQUIRED']]);
      expect(await issues({ name: '   ' })).toEqual([['name', 'E_REQUIRED']]);
      expect(await issues({ name: 'x'.repeat(101) })).toEqual([['name', 'E_TOO_LONG']]);
      expect(await issues({ name: 7 })).toEqual([['name', 'E_TYPE']]);
      expect(await issues({ name: 'CI', roles: ['admin'] })).toEqual([['roles', 'E_NOT_ONE_OF']]);
      expect(await issues({ name: 'CI', roles: ['visitor'] })).toEqual([['roles', 'E_NOT_ONE_OF']]);
      expect(await issues({ name: 'CI', roles: [] })).toEqual([['roles', 'E_REQUIRED']]);
      expect(await issues({ name: 'CI', roles: 'employee' })).toEqual([['roles', 'E_TYPE']]);
      expect(await issues({ name: 'CI', expiresAt: new Date(now).toISOString() })).toEqual([
        ['expiresAt', 'E_TOO_SMALL'],
      ]);
      expect(await issues({ name: 'CI', expiresAt: new Date(now + 367 * DAY).toISOString() })).toEqual([
        ['expiresAt', 'E_TOO_LARGE'],
      ]);
      expect(await issues({ name: 'CI', expiresAt: 'next week' })).toEqual([['expiresAt', 'E_FORMAT']]);
      expect(await issues({ name: 'CI', userId: 'someone' })).toEqual([['userId', 'E_UNKNOWN_FIELD']]);
      const longest = await makeToken(server, ann.cookie, {
        name: 'x'.repeat(100),
        roles: ['integration'],
        expiresAt: new Date(now + 366 * DAY).toISOString(),
      });
      expect(Date.parse(longest.expiresAt)).toBe(now + 366 * DAY);
      expect(await server.database.db.selectFrom(TABLES.apiTokens).select('id').execute()).toHaveLength(1);

      // a token cannot make another
      const byToken = await asScript(server, longest.token, 'POST', '/api/tokens', { name: 'Child' });
      expect(byToken.statusCode).toBe(403);
      expect(problem(byToken).code).toBe('E_FORBIDDEN');
      // nor can a user none of whose roles may hold tokens, nor anyone signed out
      await givenUser(server, 'vic@example.com', ['visitor']);
      const vic = (await login(server.app, 'vic@example.com')).cookie ?? '';
      expect(problem(await asBrowser(server, vic, 'POST', '/api/tokens', { name: 'CI' })).code).toBe(
        'E_FORBIDDEN',
      );
      expect((await asBrowser(server, vic, 'GET', '/api/tokens')).json().data).toEqual([]);
      const signedOut = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/tokens',
        headers: CSRF,
        payload: { name: 'CI' },
      });
      expect(problem(signedOut).code).toBe('E_UNAUTHENTICATED');
      // one's own only: Vic cannot revoke Ann's token, nor tell it from none
      const others = await asBrowser(server, vic, 'DELETE', `/api/tokens/${longest.id}`);
      expect(problem(others).code).toBe('E_NOT_FOUND');
      expect((await asScript(server, longest.token, 'GET', '/api/claims')).statusCode).toBe(200);
      expect(problem(await asBrowser(server, vic, 'DELETE', '/api/tokens/%00')).code).toBe('E_NOT_FOUND');
      // every refusal made nothing
      const count = await sql<{
        n: unknown;
      }>`select count(*) as n from ${sql.table(TABLES.apiTokens)}`.execute(server.database.db);
      expect(Number(count.rows[0]?.n)).toBe(1);
    });

    it('lets a token revoke itself, but not change its user’s password nor see their sessions', async () => {
      const { server, ann } = await setup(dialect);
      const made = await makeToken(server, ann.cookie);
      const password = await asScript(server, made.token, 'PUT', '/api/account/password', {
        currentPassword: 'correct horse battery',
        password: 'a brand new passphrase',
      });
      expect(problem(password).code).toBe('E_FORBIDDEN');
      expect(problem(await asScript(server, made.token, 'GET', '/api/account/sessions')).code).toBe(
        'E_FORBIDDEN',
      );
      expect(problem(await asScript(server, made.token, 'DELETE', '/api/account/sessions')).code).toBe(
        'E_FORBIDDEN',
      );
      expect((await asScript(server, made.token, 'GET', '/api/tokens')).json().data).toHaveLength(1);
      expect((await asScript(server, made.token, 'DELETE', `/api/tokens/${made.id}`)).statusCode).toBe(204);
      expect(problem(await asScript(server, made.token, 'GET', '/api/tokens')).code).toBe('E_TOKEN_EXPIRED');
    });
  });
}

describe('personal API tokens without auth.tokens', () => {
  it('lets no one make one', async () => {
    const server = await testServer('sqlite', specModel(SPEC));
    await givenUser(server, 'ada@example.com', ['admin']);
    const ada = (await login(server.app, 'ada@example.com')).cookie ?? '';
    const response = await asBrowser(server, ada, 'POST', '/api/tokens', { name: 'CI' });
    expect(problem(response).code).toBe('E_FORBIDDEN');
  });
});

describe('personal API tokens in the OpenAPI document', () => {
  it('describes the bearer scheme beside the cookie, and keeps the account’s routes to the cookie', () => {
    const doc = openApiDocument(tokenModel()) as Record<string, unknown> & {
      paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    expect(doc.components.securitySchemes['bearer']).toMatchObject({ type: 'http', scheme: 'bearer' });
    expect(doc['security']).toEqual([{ session: [] }, { bearer: [] }]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/tokens',
        '/api/tokens/{id}',
        '/api/account/password',
        '/api/account/sessions',
        '/api/account/sessions/{id}',
        '/api/admin/auth-events',
      ]),
    );
    // what only a person may do names the cookie alone
    expect(doc.paths['/api/tokens']?.['post']?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/account/password']?.['put']?.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/tokens']?.['get']?.security).toBeUndefined();
    // any signed-in request may meet an expired token
    expect(JSON.stringify(doc.paths['/api/claims']?.['get']?.responses['401'])).toContain('E_TOKEN_EXPIRED');
  });
});
