/**
 * Single sign-on with an OpenID Connect provider (`auth.oidc`, decision 0039): the provider's
 * settings read from the environment at start, its discovery document fetched at the first sign-in
 * and kept, the flow's secrets (state, nonce, PKCE verifier, where to go after) in a short-lived
 * cookie bound to the browser, and the claims of a finished flow read into what an account needs.
 * The routes are `oidc-routes.ts`; which account a person gets is `oidc-accounts.ts`.
 */
import { type Model, type Oidc, type OidcRoles, resolveEnvText } from '@ninefold/model';
import * as client from 'openid-client';
import { type Env } from '../webhooks/resolve.js';

/** The cookie that carries a sign-in in flight from the start to the provider's answer. */
export const OIDC_FLOW_COOKIE = 'ninefold_oidc';

/** How long a person has at the provider before the flow is refused (ten minutes). */
export const OIDC_FLOW_SECONDS = 600;

/** How long the provider has to answer one request (discovery, token, user info), in seconds. */
export const OIDC_TIMEOUT_SECONDS = 10;

/** The scopes asked for: who they are, their e-mail address, their name (and groups, by the provider's choice). */
export const OIDC_SCOPES = 'openid email profile';

/** The provider's settings, as the environment gives them. */
export interface OidcSettings {
  readonly issuer: URL;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly label: string;
  readonly roles: OidcRoles | null;
  /** The app's public address (`NINEFOLD_PUBLIC_URL`), or null: the request's own origin. */
  readonly publicUrl: URL | null;
}

/** A provider that cannot be used as the environment sets it; the message says why. */
export class OidcConfigError extends Error {
  override readonly name = 'OidcConfigError';
  constructor(reason: string) {
    super(`auth.oidc: ${reason}`);
  }
}

/**
 * Reads `auth.oidc`'s `${NAME}`s and `NINEFOLD_PUBLIC_URL` from `env`; throws an
 * {@link OidcConfigError} for a variable unset, an issuer that is not a URL, or an `http://` issuer
 * that is not this machine (only a provider on localhost may go without TLS: a test, a laptop).
 *
 * @example resolveOidc(model.auth.oidc, { OIDC_CLIENT_SECRET: 's3cret' }).clientSecret // 's3cret'
 */
export function resolveOidc(oidc: Oidc, env: Env): OidcSettings {
  const read = (what: string, text: string): string => {
    const resolved = resolveEnvText(text, env);
    if (resolved.ok) return resolved.text;
    const names = resolved.missing.map((name) => `\${${name}}`).join(', ');
    throw new OidcConfigError(`its ${what} reads ${names}, which the environment does not set.`);
  };
  const issuerText = read('issuer', oidc.issuer);
  let issuer: URL;
  try {
    issuer = new URL(issuerText);
  } catch {
    throw new OidcConfigError(`its issuer "${issuerText}" is not a URL.`);
  }
  if (issuer.protocol === 'http:' && !isLoopback(issuer.hostname))
    throw new OidcConfigError(
      `its issuer ${issuer.href} must use https:// (http:// is only for a provider on localhost).`,
    );
  if (issuer.protocol !== 'https:' && issuer.protocol !== 'http:')
    throw new OidcConfigError(`its issuer must start with https://, not ${issuer.protocol}//.`);
  const publicText = (env['NINEFOLD_PUBLIC_URL'] ?? '').trim();
  let publicUrl: URL | null = null;
  if (publicText !== '') {
    try {
      publicUrl = new URL(publicText);
    } catch {
      throw new OidcConfigError(`NINEFOLD_PUBLIC_URL "${publicText}" is not a URL.`);
    }
  }
  return {
    issuer,
    clientId: read('clientId', oidc.clientId),
    clientSecret: read('clientSecret', oidc.clientSecret),
    label: oidc.label,
    roles: oidc.roles,
    publicUrl,
  };
}

function isLoopback(hostname: string): boolean {
  return hostname === 'localhost' || hostname === '127.0.0.1' || hostname === '[::1]';
}

/**
 * The provider's configuration, discovered at the first sign-in and kept for the life of the
 * process. A discovery that fails (the provider down, slow past the timeout, a bad document) is
 * not kept: the next sign-in tries again.
 *
 * @example const configuration = await provider.configuration();
 */
export class OidcProvider {
  #discovered: Promise<client.Configuration> | undefined;

  constructor(readonly settings: OidcSettings) {}

  configuration(): Promise<client.Configuration> {
    this.#discovered ??= this.#discover().catch((error: unknown) => {
      this.#discovered = undefined;
      throw error;
    });
    return this.#discovered;
  }

  async #discover(): Promise<client.Configuration> {
    const { issuer, clientId, clientSecret } = this.settings;
    return client.discovery(issuer, clientId, clientSecret, undefined, {
      timeout: OIDC_TIMEOUT_SECONDS,
      // only for http://localhost, which resolveOidc alone lets through
      ...(issuer.protocol === 'http:' ? { execute: [client.allowInsecureRequests] } : {}),
    });
  }
}

/** What the browser keeps between the start of a sign-in and the provider's answer. */
export interface OidcFlow {
  readonly state: string;
  readonly nonce: string;
  /** The PKCE code verifier, whose S256 challenge went to the provider. */
  readonly verifier: string;
  /** A path of this app to go to once signed in. */
  readonly returnTo: string;
  /** When the flow stops being accepted, in milliseconds since the epoch (the server's clock). */
  readonly expiresAt: number;
}

/**
 * A new flow: fresh random state, nonce and verifier (each 256 bits).
 *
 * @example const flow = newFlow('/tickets', now());
 */
export function newFlow(returnTo: string, now: Date): OidcFlow {
  return {
    state: client.randomState(),
    nonce: client.randomNonce(),
    verifier: client.randomPKCECodeVerifier(),
    returnTo,
    expiresAt: now.getTime() + OIDC_FLOW_SECONDS * 1000,
  };
}

/**
 * The flow as the cookie's value.
 *
 * @example reply.setCookie(OIDC_FLOW_COOKIE, encodeFlow(flow), options);
 */
export function encodeFlow(flow: OidcFlow): string {
  return Buffer.from(JSON.stringify(flow), 'utf8').toString('base64url');
}

/**
 * A cookie's value as a flow, or null when it is not one.
 *
 * @example decodeFlow(request.cookies[OIDC_FLOW_COOKIE])?.state
 */
export function decodeFlow(value: string | undefined): OidcFlow | null {
  if (value === undefined || value === '' || value.length > 4096) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(value, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const flow = parsed as Record<string, unknown>;
  const { state, nonce, verifier, returnTo, expiresAt } = flow;
  if (
    typeof state !== 'string' ||
    typeof nonce !== 'string' ||
    typeof verifier !== 'string' ||
    typeof expiresAt !== 'number' ||
    typeof returnTo !== 'string' ||
    safeReturnTo(returnTo) === null
  )
    return null;
  return { state, nonce, verifier, returnTo, expiresAt };
}

/** The longest `returnTo` kept. */
const MAX_RETURN_TO = 2048;

/**
 * A path of this app, or null: never another origin (`//evil.example`, `/\evil.example`), a scheme
 * (`https:`, `javascript:`), a control character or an overlong path.
 *
 * @example safeReturnTo('/tickets?mine=1') // '/tickets?mine=1'; safeReturnTo('//evil.example') // null
 */
export function safeReturnTo(value: unknown): string | null {
  if (typeof value !== 'string' || value.length > MAX_RETURN_TO) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
  if (/[\u0000-\u001f\u007f]/.test(value)) return null;
  const base = 'http://app.invalid';
  const resolved = new URL(value, base);
  return resolved.origin === base ? `${resolved.pathname}${resolved.search}${resolved.hash}` : null;
}

/**
 * Where the provider sends the browser back: `NINEFOLD_PUBLIC_URL` when it is set (and then only
 * it: a request's Host header is the client's to write), else the request's own origin.
 *
 * @example redirectUri(settings, 'http://127.0.0.1:3000', '/api/session/oidc/callback')
 */
export function redirectUri(settings: OidcSettings, requestOrigin: string, callbackPath: string): string {
  const origin = settings.publicUrl === null ? requestOrigin : settings.publicUrl.href;
  return `${origin.replace(/\/+$/, '')}${callbackPath}`;
}

/** What a signed-in person's claims say, as an account needs it. */
export interface OidcClaims {
  readonly issuer: string;
  readonly subject: string;
  /** Lower case, or null when the provider gave none. */
  readonly email: string | null;
  /** True only when the provider says it checked the address. */
  readonly emailVerified: boolean;
  readonly name: string | null;
  /** The values of the roles claim (`auth.oidc.roles.claim`), none when there is no mapping. */
  readonly groups: readonly string[];
}

/**
 * The claims of the ID token, with what the user info adds (the ID token's own win: they are signed).
 *
 * @example readClaims(tokens.claims(), userInfo, model.auth.oidc.roles)
 */
export function readClaims(
  idToken: Readonly<Record<string, unknown>>,
  userInfo: Readonly<Record<string, unknown>>,
  roles: OidcRoles | null,
): OidcClaims {
  const claim = (name: string): unknown => idToken[name] ?? userInfo[name];
  const text = (name: string): string | null => {
    const value = claim(name);
    return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
  };
  const verified = claim('email_verified');
  const given = [text('given_name'), text('family_name')].filter((part) => part !== null).join(' ');
  const groups = roles === null ? [] : claim(roles.claim);
  return {
    issuer: String(idToken['iss']),
    subject: String(idToken['sub']),
    email: text('email')?.toLowerCase() ?? null,
    // some providers write it as text
    emailVerified: verified === true || verified === 'true',
    name: text('name') ?? (given === '' ? null : given) ?? text('preferred_username'),
    groups:
      typeof groups === 'string'
        ? [groups]
        : Array.isArray(groups)
          ? groups.filter((g): g is string => typeof g === 'string')
          : [],
  };
}

/**
 * The spec's roles that a person's groups map to, in the spec's order; roles the spec does not
 * have are left out.
 *
 * @example mappedRoles(model, { claim: 'groups', map: { 'support-staff': 'agent' } }, ['support-staff']) // ['agent']
 */
export function mappedRoles(model: Model, roles: OidcRoles | null, groups: readonly string[]): string[] {
  if (roles === null) return [];
  const wanted = new Set(groups.map((group) => roles.map[group]).filter((role) => role !== undefined));
  return Object.keys(model.roles).filter((role) => wanted.has(role));
}
