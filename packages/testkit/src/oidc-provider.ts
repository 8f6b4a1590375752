// oidc-provider ships no types: its declaration must reach every project that compiles this file
// (the tests', e2e's), which an import of a declaration file cannot do
// eslint-disable-next-line @typescript-eslint/triple-slash-reference
/// <reference path="./oidc-provider-module.d.ts" />
/**
 * A real OpenID Connect provider for tests of single sign-on: `oidc-provider` on 127.0.0.1 and a
 * free port, with one confidential client that must use PKCE and the accounts a test defines (which
 * it may change between sign-ins). Its development login form takes any password: a browser test
 * fills it in Chromium, a server test signs in without one (`signIn`). A sign-in is two forms: the
 * login, then consent (which the provider asks of a loopback client every time).
 */
import { generateKeyPairSync } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';

/** A person the provider knows. */
export interface OidcTestAccount {
  readonly sub: string;
  readonly email: string;
  /** Default true. */
  readonly emailVerified?: boolean;
  readonly name?: string;
  /** The `groups` claim. */
  readonly groups?: readonly string[];
}

export interface OidcProviderOptions {
  readonly accounts: readonly OidcTestAccount[];
  /** Default `ninefold`. */
  readonly clientId?: string;
  /** Default a fixed test secret. */
  readonly clientSecret?: string;
  /**
   * Where the client may be sent back. On 127.0.0.1 the port does not count (as RFC 8252 lets a
   * loopback client choose its port), so a test can name the path before its server listens:
   * `http://127.0.0.1/api/session/oidc/callback`.
   */
  readonly redirectUris: readonly string[];
  /** Default a free one: a test of a provider that comes back gives the port it was down on. */
  readonly port?: number;
}

export interface TestOidcProvider {
  /** Like http://127.0.0.1:41234 */
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The accounts by `sub`: set one to change what the next sign-in says. */
  readonly accounts: Map<string, OidcTestAccount>;
  /**
   * Signs in at the provider as an account, from the authorization URL the app redirected to, the
   * way a browser would (following its redirects, posting its login and consent forms, keeping its cookies), and
   * answers the URL the provider sends the browser back to: the app's callback with `code` and `state`.
   */
  signIn(authorizationUrl: string, sub: string): Promise<string>;
  close(): Promise<void>;
}

/** The test client's secret, unless a test gives its own. */
export const OIDC_TEST_CLIENT_SECRET = 'a-test-client-secret-of-no-value';

/**
 * Starts a provider.
 *
 * @example
 * const provider = await startOidcProvider({
 *   accounts: [{ sub: 'ann', email: 'ann@example.com', groups: ['support-staff'] }],
 *   redirectUris: ['http://127.0.0.1/api/session/oidc/callback'],
 * });
 */
export async function startOidcProvider(options: OidcProviderOptions): Promise<TestOidcProvider> {
  const clientId = options.clientId ?? 'ninefold';
  const clientSecret = options.clientSecret ?? OIDC_TEST_CLIENT_SECRET;
  const accounts = new Map(options.accounts.map((account) => [account.sub, account]));
  const server: Server = createServer();
  // longer than a client keeps an idle connection (undici: 4 s), so the client always closes it
  // first: with Node's 5 s, a test's event loop busy past both (PGlite migrating) met a socket the
  // provider was closing, and discovery failed with ECONNRESET
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve) => server.listen(options.port ?? 0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  // loaded here, not with the test kit: every other test file imports the kit, and this package
  // takes long to load and warns on Node 20
  const { default: Provider } = await import('oidc-provider');

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [...options.redirectUris],
        // a loopback redirect on any port (RFC 8252 7.3), which oidc-provider allows native clients
        application_type: 'native',
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    pkce: { required: () => true },
    // email and profile are the scopes the app asks for; groups comes with the profile
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
    findAccount: (_context: unknown, sub: string) => {
      const account = accounts.get(sub);
      if (account === undefined) return undefined;
      return {
        accountId: sub,
        claims: async () => {
          const current = accounts.get(sub) ?? account;
          return {
            sub,
            email: current.email,
            email_verified: current.emailVerified ?? true,
            name: current.name ?? sub,
            groups: [...(current.groups ?? [])],
          };
        },
      };
    },
    features: { devInteractions: { enabled: true } },
    cookies: { keys: ['a-test-cookie-key-of-no-value'] },
    jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' }] },
  });
  // a failure of the provider's own is the test's to see, not only a 500 page
  provider.on('server_error', (_context, error) => console.error('The test OpenID provider failed:', error));
  server.on('request', provider.callback());

  return {
    issuer,
    clientId,
    clientSecret,
    accounts,
    signIn: (authorizationUrl, sub) => signInAt(issuer, authorizationUrl, sub),
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** Follows the provider as a browser with a fresh cookie jar, filling the login form once. */
async function signInAt(issuer: string, authorizationUrl: string, sub: string): Promise<string> {
  const jar = new Map<string, string>();
  let url = new URL(authorizationUrl);
  let form: URLSearchParams | undefined;
  for (let step = 0; step < 16; step += 1) {
    if (url.origin !== new URL(issuer).origin) return url.href;
    const response = await fetch(url, {
      method: form === undefined ? 'GET' : 'POST',
      redirect: 'manual',
      headers: {
        cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; '),
        ...(form === undefined ? {} : { 'content-type': 'application/x-www-form-urlencoded' }),
      },
      ...(form === undefined ? {} : { body: form.toString() }),
    });
    for (const header of response.headers.getSetCookie()) {
      const [pair = ''] = header.split(';');
      const at = pair.indexOf('=');
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (value === '' || /expires=Thu, 01 Jan 1970/i.test(header)) jar.delete(name);
      else jar.set(name, value);
    }
    const location = response.headers.get('location');
    if (response.status >= 300 && response.status < 400 && location !== null) {
      url = new URL(location, url);
      form = undefined;
    } else if (response.status === 200 && url.pathname.startsWith('/interaction/') && form === undefined) {
      // the development forms: any login names the account, any password will do; consent is one button
      const prompt = /name="prompt" value="(\w+)"/.exec(await response.text())?.[1];
      form = new URLSearchParams(
        prompt === 'login' ? { prompt, login: sub, password: 'any' } : { prompt: prompt ?? '' },
      );
    } else {
      throw new Error(`The provider answered ${response.status} at ${url.href}: ${await response.text()}`);
    }
  }
  throw new Error(`The provider did not send the browser back after 16 steps (last at ${url.href}).`);
}
