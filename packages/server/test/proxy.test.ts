/**
 * Behind a reverse proxy (`trustProxy`, `ninefold start --trust-proxy`): the forwarded address is
 * what the sign-in and guest limits count, the forwarded protocol makes the cookie Secure; from
 * anyone not trusted, those headers count for nothing.
 */
import { API_PATHS } from '@ninefold/model';
import {
  checkedInject,
  CSRF,
  DIALECTS,
  givenUser,
  PASSWORD,
  specModel,
  testServer,
  type TestServer,
} from '@ninefold/testkit';
import { describe, expect, it } from 'vitest';

const SPEC = `
product: { name: Claims }
entities:
  Claim:
    fields:
      title: { type: string, required: true }
roles:
  employee: { Claim: { read: true } }
limits: { loginAttemptsPerMinute: 3, requestsPerMinute: { guest: 3 } }
`;

const PROXY = '10.0.0.2';

/** A request through the proxy (its connection) for a client address, over a protocol. */
function viaProxy(server: TestServer, client: string, proto: 'http' | 'https', request: SignIn | 'me') {
  const headers = { ...CSRF, 'x-forwarded-for': client, 'x-forwarded-proto': proto };
  return request === 'me'
    ? checkedInject(server.app, server.model, {
        method: 'GET',
        url: `/api/${API_PATHS.session}`,
        remoteAddress: PROXY,
        headers,
      })
    : checkedInject(server.app, server.model, {
        method: 'POST',
        url: `/api/${API_PATHS.session}`,
        remoteAddress: PROXY,
        headers,
        payload: request,
      });
}

interface SignIn {
  readonly email: string;
  readonly password: string;
}

const WRONG: SignIn = { email: 'ann@example.com', password: 'wrong' };
const RIGHT: SignIn = { email: 'ann@example.com', password: PASSWORD };

for (const dialect of DIALECTS) {
  describe(`${dialect}: behind a trusted proxy`, () => {
    it('counts the forwarded address for the sign-in limit and makes the cookie Secure over HTTPS', async () => {
      const server = await testServer(dialect, specModel(SPEC), { trustProxy: [PROXY] });
      await givenUser(server, 'ann@example.com', ['employee']);
      for (let i = 0; i < 3; i += 1)
        expect((await viaProxy(server, '203.0.113.66', 'https', WRONG)).statusCode).toBe(401);
      expect((await viaProxy(server, '203.0.113.66', 'https', RIGHT)).statusCode).toBe(429);
      // another client behind the same proxy has its own count
      const owner = await viaProxy(server, '198.51.100.7', 'https', RIGHT);
      expect(owner.statusCode).toBe(200);
      const cookie = owner.cookies.find((c) => c.name === 'ninefold_session');
      expect(cookie).toMatchObject({ secure: true, httpOnly: true, sameSite: 'Lax' });
      const plain = await viaProxy(server, '198.51.100.8', 'http', RIGHT);
      expect(plain.cookies.find((c) => c.name === 'ninefold_session')?.secure).toBeUndefined();
    });

    it('counts the forwarded address for the guest request limit', async () => {
      const server = await testServer(dialect, specModel(SPEC), { trustProxy: [PROXY] });
      for (let i = 0; i < 3; i += 1)
        expect((await viaProxy(server, '203.0.113.66', 'http', 'me')).statusCode).toBe(401);
      expect((await viaProxy(server, '203.0.113.66', 'http', 'me')).statusCode).toBe(429);
      expect((await viaProxy(server, '198.51.100.7', 'http', 'me')).statusCode).toBe(401);
    });
  });

  describe(`${dialect}: behind a number of trusted hops`, () => {
    it('counts the address the nearest hop forwarded, whatever a client wrote before it', async () => {
      const server = await testServer(dialect, specModel(SPEC), { trustProxy: 1 });
      await givenUser(server, 'ann@example.com', ['employee']);
      // the client writes its own X-Forwarded-For; the proxy appends the address it saw
      const spoofed = (i: number) => `198.51.100.${i}, 203.0.113.66`;
      for (let i = 0; i < 3; i += 1)
        expect((await viaProxy(server, spoofed(i), 'https', WRONG)).statusCode).toBe(401);
      expect((await viaProxy(server, spoofed(9), 'https', RIGHT)).statusCode).toBe(429);
      const owner = await viaProxy(server, '203.0.113.7', 'https', RIGHT);
      expect(owner.statusCode).toBe(200);
      expect(owner.cookies.find((c) => c.name === 'ninefold_session')?.secure).toBe(true);
    });
  });

  describe(`${dialect}: without a trusted proxy`, () => {
    for (const trust of [undefined, ['10.9.9.9']]) {
      it(`ignores X-Forwarded-For and -Proto (trustProxy ${JSON.stringify(trust)})`, async () => {
        const server = await testServer(
          dialect,
          specModel(SPEC),
          trust === undefined ? {} : { trustProxy: trust },
        );
        await givenUser(server, 'ann@example.com', ['employee']);
        // a new forwarded address at every attempt does not escape the connection's limit
        for (let i = 0; i < 3; i += 1)
          expect((await viaProxy(server, `203.0.113.${i}`, 'https', WRONG)).statusCode).toBe(401);
        expect((await viaProxy(server, '203.0.113.99', 'https', RIGHT)).statusCode).toBe(429);
        server.clock.advance(60_000);
        // X-Forwarded-Proto: https from the client does not make the cookie Secure
        const signedIn = await viaProxy(server, '203.0.113.99', 'https', RIGHT);
        expect(signedIn.statusCode).toBe(200);
        expect(signedIn.cookies.find((c) => c.name === 'ninefold_session')?.secure).toBeUndefined();
      });
    }
  });
}
