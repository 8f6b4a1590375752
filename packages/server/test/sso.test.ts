/**
 * Single sign-on (decision 0039) end to end: the server listening on a port, a real OpenID provider
 * (`oidc-provider`, started here) that the flow goes through as a browser would, on SQLite and
 * PostgreSQL. Every answer of the two routes is a redirect: to the provider, into the app, or to
 * the sign-in page with the catalogue code.
 */
import { API_PATHS, DEFAULT_AUTH, type Model, type Oidc, SESSION_COOKIE } from '@ninefold/model';
import { Validator } from '@seriousme/openapi-schema-validator';
import {
  checkedInject,
  DIALECTS,
  OIDC_TEST_CLIENT_SECRET,
  type TestOidcProvider,
  type TestServer,
  givenUser,
  specModel,
  startOidcProvider,
  testServer,
} from '@ninefold/testkit';
import { createServer } from 'node:http';
import { type AddressInfo, type Socket, createServer as createNetServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  OIDC_FLOW_COOKIE,
  OIDC_TIMEOUT_SECONDS,
  TABLES,
  decodeFlow,
  disableUser,
  encodeFlow,
  openApiDocument,
} from '../src/index.js';

const SPEC = `
product: { name: Desk }
entities:
  Ticket:
    fields:
      subject: { type: string, required: true }
roles:
  customer: { Ticket: { read: true, create: true } }
  agent: { Ticket: { read: true } }
  lead: { inherits: agent }
limits: { requestsPerMinute: { default: 1000, guest: 1000 } }
`;

const CALLBACK = `/api/${API_PATHS.oidcCallback}`;
const MINUTE = 60_000;

/** `auth.oidc` as the spec would write it, the secret read from the environment. */
function authOf(signUp: string | null): Model['auth'] {
  const oidc: Oidc = {
    issuer: '${OIDC_ISSUER}',
    clientId: 'ninefold',
    clientSecret: '${OIDC_CLIENT_SECRET}',
    label: 'Acme',
    roles: { claim: 'groups', map: { 'support-staff': 'agent', 'support-leads': 'lead' } },
  };
  return { ...DEFAULT_AUTH, signUp, oidc };
}

/** A server listening on 127.0.0.1 with single sign-on through the provider. */
async function ssoServer(
  dialect: (typeof DIALECTS)[number],
  provider: { issuer: string; clientSecret: string },
  options: { signUp?: string | null; env?: Record<string, string> } = {},
): Promise<{ server: TestServer; base: string }> {
  const model = { ...specModel(SPEC), auth: authOf(options.signUp ?? null) };
  const server = await testServer(dialect, model, {
    env: { OIDC_ISSUER: provider.issuer, OIDC_CLIENT_SECRET: provider.clientSecret, ...options.env },
  });
  const base = await server.app.listen({ port: 0, host: '127.0.0.1' });
  return { server, base };
}

/** A browser's state between requests: its cookies by name. */
type Jar = Map<string, string>;

async function get(url: string, jar: Jar): Promise<Response> {
  const response = await fetch(url, {
    redirect: 'manual',
    headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
  });
  for (const header of response.headers.getSetCookie()) {
    const [pair = ''] = header.split(';');
    const at = pair.indexOf('=');
    const value = pair.slice(at + 1);
    if (value === '' || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(pair.slice(0, at));
    else jar.set(pair.slice(0, at), value);
  }
  return response;
}

/** Begins a sign-in: the provider's authorization URL, the flow's cookie now in the jar. */
async function begin(base: string, jar: Jar, returnTo?: string): Promise<URL> {
  const query = returnTo === undefined ? '' : `?returnTo=${encodeURIComponent(returnTo)}`;
  const started = await get(`${base}/api/${API_PATHS.oidcStart}${query}`, jar);
  expect(started.status).toBe(302);
  return new URL(started.headers.get('location')!);
}

/** A whole sign-in as one account: where the app sends the browser at the end. */
async function signIn(
  base: string,
  provider: TestOidcProvider,
  sub: string,
  jar: Jar = new Map(),
  returnTo?: string,
): Promise<{ location: string; jar: Jar }> {
  const authorization = await begin(base, jar, returnTo);
  const callback = await provider.signIn(authorization.href, sub);
  const finished = await get(callback, jar);
  expect(finished.status).toBe(302);
  return { location: finished.headers.get('location')!, jar };
}

/** Who the jar's session is: the session answer's user, or null. */
async function whoAmI(
  base: string,
  jar: Jar,
): Promise<{ id: string; email: string; roles: string[] } | null> {
  if (!jar.has(SESSION_COOKIE)) return null;
  const response = await get(`${base}/api/${API_PATHS.session}`, jar);
  if (response.status !== 200) return null;
  return ((await response.json()) as { user: { id: string; email: string; roles: string[] } }).user;
}

async function events(server: TestServer, kind: string) {
  return server.database.db
    .selectFrom(TABLES.authEvents)
    .selectAll()
    .where('kind', '=', kind)
    .orderBy('at')
    .orderBy('id')
    .execute();
}

async function identities(server: TestServer) {
  return server.database.db.selectFrom(TABLES.identities).selectAll().execute();
}

let provider: TestOidcProvider;
beforeAll(async () => {
  provider = await startOidcProvider({
    accounts: [
      { sub: 'sam-1', email: 'sam@example.com', name: 'Sam Agent', groups: ['support-staff'] },
      { sub: 'lee-1', email: 'Lee@Example.com', name: 'Lee', groups: [] },
      { sub: 'uma-1', email: 'uma@example.com', emailVerified: false, groups: ['support-staff'] },
      { sub: 'nobody-1', email: 'nobody@example.com', groups: ['marketing'] },
      { sub: 'cal-1', email: 'cal@example.com', groups: [] },
      { sub: 'dee-1', email: 'dee@example.com', groups: ['support-staff'] },
    ],
    redirectUris: [`http://127.0.0.1${CALLBACK}`],
  });
});
afterAll(async () => {
  await provider?.close();
});

for (const dialect of DIALECTS) {
  describe(`${dialect}: single sign-on`, () => {
    let server: TestServer;
    let base: string;
    beforeAll(async () => {
      ({ server, base } = await ssoServer(dialect, provider));
    });

    it('goes to the provider with PKCE (S256), state, nonce and the callback as redirect_uri', async () => {
      const jar: Jar = new Map();
      const authorization = await begin(base, jar, '/tickets');
      expect(authorization.origin).toBe(provider.issuer);
      const params = authorization.searchParams;
      const flow = decodeFlow(jar.get(OIDC_FLOW_COOKIE));
      expect(flow).not.toBeNull();
      expect(params.get('client_id')).toBe('ninefold');
      expect(params.get('response_type')).toBe('code');
      expect(params.get('code_challenge_method')).toBe('S256');
      expect(params.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(params.get('state')).toBe(flow!.state);
      expect(params.get('nonce')).toBe(flow!.nonce);
      expect(params.get('redirect_uri')).toBe(`${base}${CALLBACK}`);
      // the verifier never leaves the browser's cookie for the provider's front channel
      expect(authorization.href).not.toContain(flow!.verifier);
      expect(flow!.returnTo).toBe('/tickets');
    });

    it('keeps the flow in an HttpOnly, SameSite=Lax, ten-minute cookie for the two routes only', async () => {
      const started = await fetch(`${base}/api/${API_PATHS.oidcStart}`, { redirect: 'manual' });
      const cookie = started.headers.getSetCookie().find((c) => c.startsWith(`${OIDC_FLOW_COOKIE}=`));
      expect(cookie).toMatch(/HttpOnly/);
      expect(cookie).toMatch(/SameSite=Lax/);
      expect(cookie).toMatch(/Max-Age=600/);
      expect(cookie).toMatch(/Path=\/api\/session\/oidc(;|$)/);
    });

    it('opens an account with the roles the provider’s groups map to, and signs in', async () => {
      const { location, jar } = await signIn(base, provider, 'sam-1', new Map(), '/tickets?mine=1');
      expect(location).toBe('/tickets?mine=1');
      const user = await whoAmI(base, jar);
      expect(user).toMatchObject({ email: 'sam@example.com', roles: ['agent'] });
      // the flow's cookie is gone: the answer cannot be used again from this browser
      expect(jar.has(OIDC_FLOW_COOKIE)).toBe(false);
      const linked = (await identities(server)).find((row) => row['subject'] === 'sam-1');
      expect(linked).toMatchObject({ user_id: user!.id, issuer: provider.issuer });
      const signIns = await events(server, 'sso-sign-in');
      expect(signIns.map((e) => e['user_id'])).toContain(user!.id);
      const session = await server.database.db
        .selectFrom(TABLES.sessions)
        .select('method')
        .where('user_id', '=', user!.id)
        .executeTakeFirst();
      expect(session?.['method']).toBe('sso');
    });

    it('signs the same person in to the same account the next time, by subject', async () => {
      const first = await whoAmI(base, (await signIn(base, provider, 'sam-1')).jar);
      const again = await whoAmI(base, (await signIn(base, provider, 'sam-1')).jar);
      expect(again?.id).toBe(first?.id);
    });

    it('gives one account to a person whose first two sign-ins finish at once', async () => {
      provider.accounts.set('twin-1', {
        sub: 'twin-1',
        email: 'twin@example.com',
        groups: ['support-staff'],
      });
      const jars: Jar[] = [new Map(), new Map()];
      const callbacks = await Promise.all(
        jars.map(async (jar) => provider.signIn((await begin(base, jar)).href, 'twin-1')),
      );
      const finished = await Promise.all(callbacks.map((callback, i) => get(callback, jars[i]!)));
      expect(finished.map((f) => f.headers.get('location'))).toEqual(['/', '/']);
      const [first, second] = await Promise.all(jars.map((jar) => whoAmI(base, jar)));
      expect(first?.email).toBe('twin@example.com');
      expect(second?.id).toBe(first?.id);
      expect((await identities(server)).filter((row) => row['subject'] === 'twin-1')).toHaveLength(1);
    });

    it('links an existing account by an e-mail address the provider verified', async () => {
      const lee = await givenUser(server, 'lee@example.com', ['customer']);
      const { location, jar } = await signIn(base, provider, 'lee-1');
      expect(location).toBe('/');
      const user = await whoAmI(base, jar);
      // no groups map to a role: the account keeps its own
      expect(user).toMatchObject({ id: lee.id, roles: ['customer'] });
      const linked = await events(server, 'sso-linked');
      expect(linked.map((e) => e['user_id'])).toEqual([lee.id]);
    });

    it('does not link an account by an address the provider has not verified', async () => {
      const uma = await givenUser(server, 'uma@example.com', ['customer']);
      const { location, jar } = await signIn(base, provider, 'uma-1');
      expect(location).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
      expect((await identities(server)).some((row) => row['user_id'] === uma.id)).toBe(false);
      const failed = await events(server, 'sso-failed');
      expect(failed.map((e) => JSON.parse(String(e['detail'])).reason)).toContain('email-not-verified');
    });

    it('refuses a person with no account whose groups map to no role, when sign-up is off', async () => {
      const { location, jar } = await signIn(base, provider, 'nobody-1');
      expect(location).toBe('/sign-in?error=E_SSO_NO_ACCOUNT');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
      const users = await server.database.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'nobody@example.com')
        .execute();
      expect(users).toEqual([]);
    });

    it('sets the roles from the claim again at the next sign-in, in the user’s history', async () => {
      provider.accounts.set('dee-1', { sub: 'dee-1', email: 'dee@example.com', groups: ['support-staff'] });
      const first = await whoAmI(base, (await signIn(base, provider, 'dee-1')).jar);
      expect(first?.roles).toEqual(['agent']);
      provider.accounts.set('dee-1', { sub: 'dee-1', email: 'dee@example.com', groups: ['support-leads'] });
      const second = await whoAmI(base, (await signIn(base, provider, 'dee-1')).jar);
      expect(second).toMatchObject({ id: first!.id, roles: ['lead'] });
      const history = await server.database.db
        .selectFrom(TABLES.history)
        .select(['action', 'changes'])
        .where('record_id', '=', first!.id)
        .where('action', '=', 'update')
        .execute();
      expect(history.map((h) => JSON.parse(String(h['changes'])).roles)).toEqual([
        { from: ['agent'], to: ['lead'] },
      ]);
    });

    it('refuses a disabled account', async () => {
      const user = await whoAmI(base, (await signIn(base, provider, 'sam-1')).jar);
      await disableUser(server.database, server.model, 'sam@example.com', { now: server.clock.now });
      const { location, jar } = await signIn(base, provider, 'sam-1');
      expect(location).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
      await disableUser(server.database, server.model, 'sam@example.com', {
        now: server.clock.now,
        enabled: true,
      });
      expect(user).not.toBeNull();
    });

    it('refuses an answer whose state is not the one this browser’s flow holds', async () => {
      const jar: Jar = new Map();
      const first = await begin(base, jar);
      const callback = await provider.signIn(first.href, 'sam-1');
      // a second flow in the same browser replaces the first's cookie, state and all
      await begin(base, jar);
      const finished = await get(callback, jar);
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
    });

    it('refuses an answer that arrives in a browser that began no flow (a forged link)', async () => {
      const jar: Jar = new Map();
      const callback = await provider.signIn((await begin(base, jar)).href, 'sam-1');
      const elsewhere: Jar = new Map();
      const finished = await get(callback, elsewhere);
      expect(finished.status).toBe(302);
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(elsewhere.has(SESSION_COOKIE)).toBe(false);
      const failed = await events(server, 'sso-failed');
      expect(failed.map((e) => JSON.parse(String(e['detail'])).reason)).toContain(
        'no sign-in in progress in this browser',
      );
    });

    it('refuses a replayed answer, even with the flow’s cookie copied', async () => {
      const jar: Jar = new Map();
      const callback = await provider.signIn((await begin(base, jar)).href, 'sam-1');
      const copied = new Map(jar);
      const finished = await get(callback, jar);
      expect(finished.headers.get('location')).toBe('/');
      const replay: Jar = new Map(copied);
      const again = await get(callback, replay);
      expect(again.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(replay.has(SESSION_COOKIE)).toBe(false);
    });

    it('refuses an ID token whose nonce is not the flow’s', async () => {
      const jar: Jar = new Map();
      const callback = await provider.signIn((await begin(base, jar)).href, 'sam-1');
      const flow = decodeFlow(jar.get(OIDC_FLOW_COOKIE))!;
      jar.set(OIDC_FLOW_COOKIE, encodeFlow({ ...flow, nonce: 'another-nonce-entirely' }));
      const finished = await get(callback, jar);
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
      const failed = await events(server, 'sso-failed');
      expect(failed.map((e) => String(e['detail'])).some((d) => d.includes('nonce'))).toBe(true);
    });

    it('refuses a flow older than ten minutes by the server’s clock', async () => {
      const jar: Jar = new Map();
      const callback = await provider.signIn((await begin(base, jar)).href, 'sam-1');
      server.clock.advance(10 * MINUTE + 1000);
      const finished = await get(callback, jar);
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(SESSION_COOKIE)).toBe(false);
    });

    it('goes back only to a path of this app: never to another site', async () => {
      for (const returnTo of [
        '//evil.example/x',
        'https://evil.example/',
        '/\\evil.example',
        'javascript:alert(1)',
      ]) {
        const jar: Jar = new Map();
        await begin(base, jar, returnTo);
        expect(decodeFlow(jar.get(OIDC_FLOW_COOKIE))?.returnTo).toBe('/');
      }
      const { location } = await signIn(base, provider, 'sam-1', new Map(), '//evil.example/x');
      expect(location).toBe('/');
      // a cookie written by hand to go elsewhere is no flow at all
      const jar: Jar = new Map();
      const callback = await provider.signIn((await begin(base, jar)).href, 'sam-1');
      const flow = decodeFlow(jar.get(OIDC_FLOW_COOKIE))!;
      jar.set(OIDC_FLOW_COOKIE, encodeFlow({ ...flow, returnTo: '//evil.example' }));
      const finished = await get(callback, jar);
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
    });

    it('passes on the provider’s refusal as a failed sign-in', async () => {
      const jar: Jar = new Map();
      const authorization = await begin(base, jar);
      const state = authorization.searchParams.get('state')!;
      const finished = await get(
        `${base}${CALLBACK}?error=access_denied&state=${state}&iss=${encodeURIComponent(provider.issuer)}`,
        jar,
      );
      expect(finished.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      const failed = await events(server, 'sso-failed');
      expect(failed.map((e) => String(e['detail'])).some((d) => d.includes('access_denied'))).toBe(true);
    });
  });

  describe(`${dialect}: single sign-on with sign-up open`, () => {
    it('opens an account with the sign-up role when no group maps to one', async () => {
      const { base } = await ssoServer(dialect, provider, { signUp: 'customer' });
      const { jar } = await signIn(base, provider, 'cal-1');
      expect(await whoAmI(base, jar)).toMatchObject({ email: 'cal@example.com', roles: ['customer'] });
    });
  });

  describe(`${dialect}: single sign-on’s redirect URI and a provider that is down`, () => {
    it('sends NINEFOLD_PUBLIC_URL as the redirect URI when it is set, whatever the Host header says', async () => {
      const { server } = await ssoServer(dialect, provider, {
        env: { NINEFOLD_PUBLIC_URL: 'https://desk.example.com/' },
      });
      const started = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: `/api/${API_PATHS.oidcStart}`,
        headers: { host: 'evil.example' },
      });
      expect(started.statusCode).toBe(302);
      const location = new URL(String(started.headers['location']));
      expect(location.searchParams.get('redirect_uri')).toBe(`https://desk.example.com${CALLBACK}`);
      // and without it, the request's own origin
      const local = await ssoServer(dialect, provider);
      const here = await checkedInject(local.server.app, local.server.model, {
        method: 'GET',
        url: `/api/${API_PATHS.oidcStart}`,
        headers: { host: 'desk.internal:8080' },
      });
      const redirect = new URL(String(here.headers['location'])).searchParams.get('redirect_uri');
      expect(redirect).toBe(`http://desk.internal:8080${CALLBACK}`);
    });

    it('describes both routes in the OpenAPI document, validly, and answers as it says', async () => {
      const { server } = await ssoServer(dialect, provider);
      const doc = openApiDocument(server.model);
      const result = await new Validator().validate(doc);
      expect(result.errors ?? [], JSON.stringify(result.errors, null, 2)).toEqual([]);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([`/api/${API_PATHS.oidcStart}`, CALLBACK]),
      );
      const refused = await checkedInject(server.app, server.model, {
        method: 'GET',
        url: `${CALLBACK}?code=x&state=y`,
      });
      expect(refused.statusCode).toBe(302);
      expect(refused.headers['location']).toBe('/sign-in?error=E_SSO_FAILED');
      // a spec without a provider has neither route nor its description
      const plain = openApiDocument(specModel(SPEC));
      expect(Object.keys(plain.paths)).not.toContain(CALLBACK);
    });

    it('sends the browser to the sign-in page with E_SSO_FAILED when discovery fails, and tries again later', async () => {
      const closed = createServer();
      await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
      await new Promise<void>((resolve) => closed.close(() => resolve()));
      const { server, base } = await ssoServer(dialect, { issuer, clientSecret: OIDC_TEST_CLIENT_SECRET });
      const jar: Jar = new Map();
      const started = await get(`${base}/api/${API_PATHS.oidcStart}`, jar);
      expect(started.status).toBe(302);
      expect(started.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
      expect(jar.has(OIDC_FLOW_COOKIE)).toBe(false);
      const failed = await events(server, 'sso-failed');
      expect(String(failed[0]?.['detail'])).toContain('provider unreachable');
      // the failure is not kept: a provider that comes back is found at the next sign-in
      const back = await startOidcProvider({
        accounts: [{ sub: 'sam-1', email: 'sam@example.com', groups: ['support-staff'] }],
        redirectUris: [`http://127.0.0.1${CALLBACK}`],
        port: Number(new URL(issuer).port),
      });
      try {
        const { jar } = await signIn(base, back, 'sam-1');
        expect(await whoAmI(base, jar)).toMatchObject({ email: 'sam@example.com', roles: ['agent'] });
      } finally {
        await back.close();
      }
      expect(await events(server, 'sso-failed')).toHaveLength(1);
    });

    it('refuses to start when the provider’s secret is not in the environment', async () => {
      const model = { ...specModel(SPEC), auth: authOf(null) };
      const { app } = await testServer(dialect, model, { env: { OIDC_ISSUER: provider.issuer } });
      await expect(app.ready()).rejects.toThrow(/clientSecret reads \$\{OIDC_CLIENT_SECRET\}/);
    });
  });
}

// the provider is the same on every database: one dialect is enough, and the test waits for the timeout
describe('single sign-on with a provider that never answers', () => {
  it(
    'gives up on discovery after its timeout and sends the browser to the sign-in page',
    async () => {
      const sockets: Socket[] = [];
      const silent = createNetServer((socket) => void sockets.push(socket));
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      const issuer = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
      try {
        const { base } = await ssoServer('sqlite', { issuer, clientSecret: OIDC_TEST_CLIENT_SECRET });
        const started = Date.now();
        const answer = await get(`${base}/api/${API_PATHS.oidcStart}`, new Map());
        expect(answer.status).toBe(302);
        expect(answer.headers.get('location')).toBe('/sign-in?error=E_SSO_FAILED');
        expect(Date.now() - started).toBeGreaterThanOrEqual(OIDC_TIMEOUT_SECONDS * 1000 - 100);
      } finally {
        for (const socket of sockets) socket.destroy();
        await new Promise<void>((resolve) => silent.close(() => resolve()));
      }
    },
    (OIDC_TIMEOUT_SECONDS + 20) * 1000,
  );
});
