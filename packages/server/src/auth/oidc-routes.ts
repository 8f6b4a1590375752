/**
 * `GET <basePath>/session/oidc` and `GET <basePath>/session/oidc/callback` (decision 0039): single
 * sign-on by the authorization code flow with PKCE (S256), state and nonce. Both are browser
 * navigations, so both answer with a redirect, never a JSON page: on to the provider, back into the
 * app, or to the sign-in page with `?error=<CODE>`. Registered only when the spec has `auth.oidc`.
 */
import { API_PATHS, APP_PATHS, type ErrorCode, type Model, type Oidc } from '@ninefold/model';
import { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import * as client from 'openid-client';
import { recordAuthEvent, requestOrigin } from '../audit/auth-events.js';
import { type Database } from '../db/open.js';
import { apiPath } from '../http/paths.js';
import { type Env } from '../webhooks/resolve.js';
import {
  OIDC_FLOW_COOKIE,
  OIDC_FLOW_SECONDS,
  OIDC_SCOPES,
  OidcProvider,
  type OidcFlow,
  decodeFlow,
  encodeFlow,
  newFlow,
  readClaims,
  redirectUri,
  resolveOidc,
  safeReturnTo,
} from './oidc.js';
import { type SsoRefusal, ssoAccount } from './oidc-accounts.js';
import { startSession } from './session-routes.js';

/** A sign-in that did not work: the catalogue code the sign-in page shows, and why, for the audit trail. */
class SsoFailure extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly reason: string,
    readonly email: string | null = null,
  ) {
    super(reason);
  }
}

/** What each refusal of `ssoAccount` shows: only "no account" has a code of its own. */
const REFUSAL_CODES: Readonly<Record<SsoRefusal, ErrorCode>> = {
  'no-account': 'E_SSO_NO_ACCOUNT',
  'no-email': 'E_SSO_FAILED',
  'email-not-verified': 'E_SSO_FAILED',
  'account-disabled': 'E_SSO_FAILED',
  'account-not-created': 'E_SSO_FAILED',
};

/** The longest reason kept in the audit trail. */
const MAX_REASON = 200;

/**
 * Registers the single sign-on routes when the spec has a provider. Reads its settings from `env`
 * now, so that a variable unset stops the start (`OidcConfigError`) rather than every sign-in.
 *
 * @example registerOidcRoutes(app, { model, database, now: () => new Date(), env: process.env });
 */
export function registerOidcRoutes(
  app: FastifyInstance,
  context: {
    readonly model: Model;
    readonly database: Database;
    readonly now: () => Date;
    readonly env: Env;
  },
): void {
  const { model, database, now } = context;
  const oidc: Oidc | null = model.auth.oidc;
  if (oidc === null) return;
  const provider = new OidcProvider(resolveOidc(oidc, context.env));
  const startPath = apiPath(model, API_PATHS.oidcStart);
  const callbackPath = apiPath(model, API_PATHS.oidcCallback);
  const callbackUri = (request: FastifyRequest) =>
    redirectUri(provider.settings, `${request.protocol}://${request.host}`, callbackPath);
  // the flow's cookie goes only to these two routes
  const cookieOptions = (request: FastifyRequest) => ({
    httpOnly: true,
    // Lax: the provider's redirect back is a top-level navigation from another site
    sameSite: 'lax' as const,
    path: startPath,
    secure: request.protocol === 'https',
  });

  const fail = async (request: FastifyRequest, reply: FastifyReply, failure: SsoFailure) => {
    request.log.warn({ reason: failure.reason }, 'Single sign-on failed.');
    await recordAuthEvent(database.db, {
      kind: 'sso-failed',
      at: now(),
      email: failure.email,
      ...requestOrigin(request),
      detail: { reason: failure.reason.slice(0, MAX_REASON) },
    }).catch((error: unknown) => request.log.error({ err: error }, 'The audit trail could not record it.'));
    // only the code: a reason in the address would let anyone write on the sign-in page
    return redirect(reply, `${APP_PATHS.signIn}?error=${failure.code}`);
  };

  app.get(startPath, async (request, reply) => {
    const query = request.query as Record<string, unknown>;
    const returnTo = safeReturnTo(query['returnTo']) ?? '/';
    let configuration: client.Configuration;
    try {
      configuration = await provider.configuration();
    } catch (error) {
      return fail(request, reply, new SsoFailure('E_SSO_FAILED', `provider unreachable: ${message(error)}`));
    }
    const flow = newFlow(returnTo, now());
    const location = client.buildAuthorizationUrl(configuration, {
      redirect_uri: callbackUri(request),
      scope: OIDC_SCOPES,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(flow.verifier),
      code_challenge_method: 'S256',
    });
    reply.setCookie(OIDC_FLOW_COOKIE, encodeFlow(flow), {
      ...cookieOptions(request),
      maxAge: OIDC_FLOW_SECONDS,
    });
    return redirect(reply, location.href);
  });

  app.get(callbackPath, async (request, reply) => {
    // the flow is good for one answer: its cookie goes whatever happens
    reply.clearCookie(OIDC_FLOW_COOKIE, cookieOptions(request));
    // the address holds the provider's code: it goes to no one else as a Referer
    reply.header('referrer-policy', 'no-referrer');
    try {
      const flow = currentFlow(request, now());
      let configuration: client.Configuration;
      try {
        configuration = await provider.configuration();
      } catch (error) {
        throw new SsoFailure('E_SSO_FAILED', `provider unreachable: ${message(error)}`);
      }
      const claims = await exchange(configuration, request, callbackUri(request), flow, oidc);
      const account = await ssoAccount(context, claims, requestOrigin(request));
      if (!account.ok) throw new SsoFailure(REFUSAL_CODES[account.reason], account.reason, claims.email);
      await startSession(context, request, reply, account.user, 'sso');
      await recordAuthEvent(database.db, {
        kind: 'sso-sign-in',
        at: now(),
        userId: account.user.id,
        email: account.user.email,
        ...requestOrigin(request),
        detail: { issuer: claims.issuer, ...(account.created ? { created: 'true' } : {}) },
      });
      return redirect(reply, flow.returnTo);
    } catch (error) {
      if (error instanceof SsoFailure) return fail(request, reply, error);
      // a failure of ours (the database gone, say) is still a page the browser can show
      request.log.error({ err: error }, 'Single sign-on failed on the server.');
      return fail(request, reply, new SsoFailure('E_SSO_FAILED', `server error: ${message(error)}`));
    }
  });
}

/** The flow this browser began, or why there is none to finish. */
function currentFlow(request: FastifyRequest, now: Date): OidcFlow {
  const flow = decodeFlow(request.cookies[OIDC_FLOW_COOKIE]);
  // no cookie: it began in another browser, long ago, or not at all (a forged or replayed answer)
  if (flow === null) throw new SsoFailure('E_SSO_FAILED', 'no sign-in in progress in this browser');
  if (now.getTime() >= flow.expiresAt) throw new SsoFailure('E_SSO_FAILED', 'the sign-in took too long');
  return flow;
}

/**
 * The provider's answer checked (state, the code exchanged with the PKCE verifier, the ID token's
 * signature, issuer, audience, expiry and nonce) and its claims read, with the user info's.
 */
async function exchange(
  configuration: client.Configuration,
  request: FastifyRequest,
  callbackUri: string,
  flow: OidcFlow,
  oidc: Oidc,
) {
  const query = request.url.indexOf('?');
  const current = new URL(`${callbackUri}${query === -1 ? '' : request.url.slice(query)}`);
  try {
    const tokens = await client.authorizationCodeGrant(configuration, current, {
      pkceCodeVerifier: flow.verifier,
      expectedState: flow.state,
      expectedNonce: flow.nonce,
      idTokenExpected: true,
    });
    const idToken = tokens.claims();
    if (idToken === undefined) throw new SsoFailure('E_SSO_FAILED', 'the provider sent no ID token');
    const userInfo = configuration.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(configuration, tokens.access_token, idToken.sub)
      : {};
    return readClaims(idToken, userInfo, oidc.roles);
  } catch (error) {
    if (error instanceof SsoFailure) throw error;
    if (error instanceof client.AuthorizationResponseError)
      throw new SsoFailure('E_SSO_FAILED', `the provider refused: ${error.error}`);
    throw new SsoFailure('E_SSO_FAILED', `the provider's answer did not check out: ${message(error)}`);
  }
}

function redirect(reply: FastifyReply, location: string): FastifyReply {
  return reply.header('cache-control', 'no-store').redirect(location, 302);
}

function message(error: unknown): string {
  const text = error instanceof Error ? error.message : String(error);
  const cause = error instanceof Error && error.cause instanceof Error ? ` (${error.cause.message})` : '';
  return `${text}${cause}`;
}
