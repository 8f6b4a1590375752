import { describe, expect, it } from 'vitest';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  PASSWORD,
  problem,
  sessionCookie,
  specModel,
  testServer,
} from '@ninefold/testkit';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true } }
  finance: { Claim: { read: true } }
constants: { MAX_CLAIM: 5000 }
errors:
  E_BAD_REQUEST: { status: 400, message: "Unreadable request ({reason}); claims stay under {MAX_CLAIM}." }
limits:
  maxBodyBytes: 1024
  requestsPerMinute: { guest: 4, default: 6, finance: 8 }
`;

for (const dialect of DIALECTS) {
  describe(`${dialect}: HTTP`, () => {
    it('answers /health without the database, and /ready only when migrated and not draining', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      expect(
        (await checkedInject(server.app, server.model, { method: 'GET', url: '/health' })).json(),
      ).toEqual({ status: 'ok' });
      const ready = await checkedInject(server.app, server.model, { method: 'GET', url: '/ready' });
      expect(ready.statusCode).toBe(200);

      // a spec the database has not been migrated to
      const other = await testServer(dialect, specModel(SPEC));
      const { buildApp } = await import('../src/index.js');
      const changed = specModel(
        SPEC.replace('title: { type: string, required: true }', 'name: { type: string }'),
      );
      const stale = buildApp({ model: changed, database: other.database });
      const notMigrated = await stale.inject({ method: 'GET', url: '/ready' });
      expect(problem(notMigrated)).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
      await stale.close();

      server.app.ninefold.draining = true;
      const draining = await checkedInject(server.app, server.model, { method: 'GET', url: '/ready' });
      expect(problem(draining)).toMatchObject({ status: 503, code: 'E_UNAVAILABLE' });
      expect(
        (await checkedInject(server.app, server.model, { method: 'GET', url: '/health' })).statusCode,
      ).toBe(200);
    });

    it('serves the compiled model to a signed-in user, and only the sign-in part before', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const signedOut = await checkedInject(server.app, server.model, { method: 'GET', url: '/api/model' });
      expect(signedOut.statusCode).toBe(200);
      const part = signedOut.json<Record<string, unknown>>();
      // who may do what, the data and the screens are not a visitor's (decision 0027)
      expect(part).toMatchObject({
        signedOut: true,
        entities: {},
        roles: {},
        rules: [],
        screens: [],
        nav: [],
      });
      expect(JSON.stringify(part)).not.toMatch(/employee|finance|"Claim"/);
      // what the pages before sign-in show: the product, its look, the spec's prose, the messages
      expect(part['product']).toEqual(server.model.product);
      expect(part['facets']).toEqual(server.model.facets);
      expect(part['limits']).toMatchObject({ requestsPerMinute: { guest: 4 }, maxBodyBytes: 1024 });
      // a built-in message in the spec's words, with the constant it names, and nothing else
      expect(part['errors']).toMatchObject({
        E_BAD_REQUEST: { message: expect.stringContaining('{MAX_CLAIM}') },
      });
      expect(part['constants']).toEqual({ MAX_CLAIM: 5000 });

      await givenUser(server, 'ann@example.com', ['employee']);
      const login = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: CSRF,
        payload: { email: 'ann@example.com', password: PASSWORD },
      });
      const cookie = sessionCookie(login)!;
      const signedIn = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/model',
        headers: { cookie },
      });
      expect(signedIn.json()).toEqual(JSON.parse(JSON.stringify(server.model)));
    });

    it('refuses a state-changing request without the CSRF header or from a foreign Origin', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      await givenUser(server, 'ann@example.com', ['employee']);
      const body = { email: 'ann@example.com', password: 'correct horse battery' };
      const bare = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        payload: body,
      });
      expect(problem(bare)).toMatchObject({ status: 403, code: 'E_CSRF' });
      expect(bare.cookies).toHaveLength(0);

      const foreign = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: { ...CSRF, host: 'app.example.com', origin: 'https://evil.example.net' },
        payload: body,
      });
      expect(problem(foreign)).toMatchObject({ status: 403, code: 'E_CSRF' });
      const opaque = await checkedInject(server.app, server.model, {
        method: 'DELETE',
        url: '/api/session',
        headers: { ...CSRF, origin: 'null' },
      });
      expect(problem(opaque).code).toBe('E_CSRF');

      const sameSite = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: { ...CSRF, host: 'app.example.com', origin: 'https://app.example.com' },
        payload: body,
      });
      expect(sameSite.statusCode).toBe(200);
    });

    it('answers malformed JSON, an unsupported body and an unknown route with catalogue problems', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const malformed = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: { ...CSRF, 'content-type': 'application/json' },
        payload: '{"email": "ann@example.com",',
      });
      expect(problem(malformed)).toMatchObject({
        type: 'urn:ninefold:error:E_BAD_REQUEST',
        status: 400,
        code: 'E_BAD_REQUEST',
        // the spec's own template, with its constant filled in
        message: 'Unreadable request (the body is not valid JSON); claims stay under 5000.',
      });
      expect(malformed.headers['content-type']).toBe('application/problem+json; charset=utf-8');

      const text = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: { ...CSRF, 'content-type': 'text/plain' },
        payload: 'email=ann',
      });
      expect(problem(text)).toMatchObject({ status: 400, code: 'E_BAD_REQUEST' });

      const unknown = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: '/api/nothing-here',
      });
      expect(problem(unknown)).toMatchObject({
        status: 404,
        code: 'E_ROUTE_NOT_FOUND',
        message: 'There is nothing at this address.',
      });
    });

    it('refuses a body over limits.maxBodyBytes with the limit in the message', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const response = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        headers: CSRF,
        payload: { email: 'ann@example.com', password: 'x'.repeat(2000) },
      });
      expect(problem(response)).toMatchObject({
        status: 413,
        code: 'E_PAYLOAD_TOO_LARGE',
        message: 'The request is larger than 1,024 bytes.',
      });
    });

    it('answers an unexpected failure with E_INTERNAL and a correlation id the log also carries', async () => {
      const lines: string[] = [];
      const server = await testServer(dialect, specModel(SPEC), {
        logger: { level: 'error', stream: { write: (line: string) => void lines.push(line) } },
      });
      server.app.get('/api/explode', async () => {
        throw new Error('SELECT password_hash FROM users -- at /srv/ninefold/secret.ts:12');
      });
      // a route made up by the test: the published contract does not know it
      const response = await server.app.inject({ method: 'GET', url: '/api/explode' });
      const body = problem(response);
      expect(body).toMatchObject({ status: 500, code: 'E_INTERNAL' });
      expect(body.correlationId).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.message).toBe(`Something went wrong on our side. Reference: ${body.correlationId}.`);
      expect(response.body).not.toMatch(/SELECT|password_hash|secret\.ts|\/srv|at .*:\d+/);
      const logged = lines
        .map((l) => JSON.parse(l) as Record<string, unknown>)
        .find((l) => l['level'] === 50);
      expect(logged?.['correlationId']).toBe(body.correlationId);
      expect(JSON.stringify(logged)).toContain('SELECT password_hash');
    });

    it('limits requests per minute by role, with Retry-After', async () => {
      const server = await testServer(dialect, specModel(SPEC));
      const get = (cookie?: string) =>
        checkedInject(server.app, server.model, {
          method: 'GET',
          url: '/api/model',
          headers: cookie === undefined ? {} : { cookie },
        });
      const allowed = [];
      for (let i = 0; i < 4; i += 1) allowed.push(await get());
      expect(allowed.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
      // every answer says where its client stands in the current minute
      expect(
        allowed.map((r) => [r.headers['x-ratelimit-limit'], r.headers['x-ratelimit-remaining']]),
      ).toEqual([
        ['4', '3'],
        ['4', '2'],
        ['4', '1'],
        ['4', '0'],
      ]);
      expect(allowed[0]?.headers['x-ratelimit-reset']).toBe('60');
      server.clock.advance(15_000);
      const guest = await get();
      expect(problem(guest)).toMatchObject({ status: 429, code: 'E_RATE_LIMITED' });
      expect(guest.headers['retry-after']).toBe('45');
      expect(guest.headers['x-ratelimit-remaining']).toBe('0');
      expect(problem(guest).message).toBe('Too many requests. Try again in 45 seconds.');
      // probes are never limited
      expect(
        (await checkedInject(server.app, server.model, { method: 'GET', url: '/health' })).statusCode,
      ).toBe(200);

      await givenUser(server, 'fin@example.com', ['employee', 'finance']);
      // signed in from another address: this one has spent its guest allowance
      const signIn = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        remoteAddress: '203.0.113.5',
        headers: CSRF,
        payload: { email: 'fin@example.com', password: PASSWORD },
      });
      const cookie = sessionCookie(signIn);
      const responses = [];
      for (let i = 0; i < 9; i += 1) responses.push(await get(cookie));
      // the highest limit among the user's roles: finance's 8, whatever the address
      expect(responses.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 429]);
      const limited = responses.at(-1);
      expect(limited === undefined ? null : problem(limited).code).toBe('E_RATE_LIMITED');
      expect(Number(limited?.headers['retry-after'])).toBeGreaterThan(0);

      // a role without its own limit gets the default: 6
      await givenUser(server, 'emp@example.com', ['employee']);
      const employee = await checkedInject(server.app, server.model, {
        method: 'POST',
        url: '/api/session',
        remoteAddress: '203.0.113.6',
        headers: CSRF,
        payload: { email: 'emp@example.com', password: PASSWORD },
      });
      const employeeStatuses: number[] = [];
      for (let i = 0; i < 7; i += 1) employeeStatuses.push((await get(sessionCookie(employee))).statusCode);
      expect(employeeStatuses).toEqual([200, 200, 200, 200, 200, 200, 429]);

      // a new minute, a new allowance: the guest's window opened 60 s ago
      server.clock.advance(45_000);
      const again = await get();
      expect(again.statusCode).toBe(200);
      expect(again.headers['x-ratelimit-remaining']).toBe('3');
    });
  });
}
