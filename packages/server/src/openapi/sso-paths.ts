/**
 * The OpenAPI description of single sign-on's two routes (`auth/oidc-routes.ts`, decision 0039),
 * added to the document by `openApiDocument` when the spec has `auth.oidc`. Both are browser
 * navigations: they answer 302, to the provider, into the app, or to the sign-in page with
 * `?error=<CODE>`; only the guards every request passes answer with a problem.
 */
import { API_PATHS, APP_PATHS, type Model } from '@ninefold/model';
import { apiPath } from '../http/paths.js';
import { OIDC_FLOW_COOKIE } from '../auth/oidc.js';

type Json = Record<string, unknown>;

/**
 * The paths of single sign-on, none when the spec has no provider.
 *
 * @example Object.assign(paths, ssoPaths(model, { op, anyRequest: ANY_REQUEST }));
 */
export function ssoPaths(
  model: Model,
  parts: {
    readonly op: (codes: readonly string[], extra: Json) => Json;
    readonly anyRequest: readonly string[];
  },
): Record<string, Record<string, Json>> {
  const oidc = model.auth.oidc;
  if (oidc === null) return {};
  const { op, anyRequest } = parts;
  const location = (description: string) => ({
    Location: { description, schema: { type: 'string' } },
  });
  const failed = `or ${APP_PATHS.signIn}?error=E_SSO_FAILED (or E_SSO_NO_ACCOUNT) when it did not work`;
  return {
    [apiPath(model, API_PATHS.oidcStart)]: {
      get: op(anyRequest, {
        operationId: 'startSingleSignOn',
        tags: ['session'],
        summary: `Sign in with ${oidc.label}: to the OpenID provider (authorization code with PKCE, state and nonce).`,
        description: `Sets the flow's cookie \`${OIDC_FLOW_COOKIE}\` (HttpOnly, SameSite=Lax, ten minutes) and redirects to the provider; when the provider cannot be reached, to ${APP_PATHS.signIn}?error=E_SSO_FAILED.`,
        security: [],
        parameters: [
          {
            name: 'returnTo',
            in: 'query',
            required: false,
            description:
              'A path of this app to go to once signed in (default `/`); anything else is ignored.',
            schema: { type: 'string' },
          },
        ],
        responses: {
          '302': {
            description: 'To the provider’s sign-in.',
            headers: location(`The provider's authorization URL, ${failed}.`),
          },
        },
      }),
    },
    [apiPath(model, API_PATHS.oidcCallback)]: {
      get: op(anyRequest, {
        operationId: 'finishSingleSignOn',
        tags: ['session'],
        summary:
          'Where the provider sends the browser back: checks its answer, signs in and goes on to the app.',
        description:
          "Needs the flow's cookie of the browser that began the sign-in. Finds the account by the provider's subject, else links one by a verified e-mail address, else opens one when sign-up is open or the provider's groups map to roles; sets the session cookie.",
        security: [],
        parameters: [
          { name: 'code', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'state', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'iss', in: 'query', required: false, schema: { type: 'string' } },
          { name: 'error', in: 'query', required: false, schema: { type: 'string' } },
        ],
        responses: {
          '302': {
            description: 'Into the app, signed in; or to the sign-in page with the reason’s code.',
            headers: location(`The flow's \`returnTo\` path, ${failed}.`),
          },
        },
      }),
    },
  };
}
