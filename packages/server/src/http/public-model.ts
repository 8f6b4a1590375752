/**
 * The model as the client receives it from `GET <basePath>/model` and in the page: the whole of it
 * for a signed-in user, and for a signed-out visitor only what the pages before sign-in need
 * (decision 0027). A visitor reads the product's name and look, the sign-in page's messages and
 * the help and about pages' prose; who may do what, the rules and the constants are not theirs.
 */
import { type Auth, type Model } from '@ninefold/model';

/**
 * The compiled model as a signed-in user's client gets it: all of it but the webhooks, whose
 * receivers are the server's business (their URLs and secrets name environment variables).
 *
 * @example reply.send(publicModel(model));
 */
export function publicModel(model: Model): Model {
  return { ...model, webhooks: {}, auth: publicAuth(model.auth) };
}

/**
 * What a client may know of `auth:`: whether sign-up, reset, tokens and single sign-on exist, who
 * must use the second factor, and the provider's label; never the provider's address, client id or secret (the server's business).
 *
 * @example publicAuth(model.auth).oidc?.issuer // ''
 */
export function publicAuth(auth: Auth): Auth {
  if (auth.oidc === null) return auth;
  return {
    ...auth,
    oidc: { issuer: '', clientId: '', clientSecret: '', label: auth.oidc.label, roles: null },
  };
}

/**
 * The model of the pages before sign-in: the product, the API's calls, the spec's prose (the help
 * and about pages are open to everyone), the built-in error messages (the sign-in page's), and the
 * limits without the per-role request limits (which name the roles), and only the constants those
 * messages name. Nothing of the entities, states, rules, roles, screens or navigation.
 *
 * @example reply.send(request.auth.user === null ? signedOutModel(model) : publicModel(model));
 */
export function signedOutModel(model: Model): Model {
  const guest = model.limits.requestsPerMinute['guest'];
  const errors = Object.fromEntries(Object.entries(model.errors).filter(([, error]) => error.builtin));
  // a spec's own wording of a built-in message may name a constant: those it names stay
  const messages = Object.values(errors).map((error) => error.message);
  const constants = Object.fromEntries(
    Object.entries(model.constants).filter(([name]) =>
      messages.some((message) => new RegExp(`\\{\\s*${name}\\b`).test(message)),
    ),
  );
  return {
    modelVersion: model.modelVersion,
    product: model.product,
    entities: {},
    states: {},
    rules: [],
    roles: {},
    screens: [],
    nav: [],
    calls: model.calls,
    notifications: {},
    webhooks: {},
    // the sign-in page offers sign-up, reset and single sign-on; the roles stay the server's
    auth: {
      ...publicAuth(model.auth),
      signUp: model.auth.signUp === null ? null : '',
      tokens: [],
      // that some roles must use the second factor, not which
      mfa: typeof model.auth.mfa === 'string' ? model.auth.mfa : { required: [] },
    },
    errors,
    constants,
    limits: { ...model.limits, requestsPerMinute: guest === undefined ? {} : { guest } },
    facets: model.facets,
    ...signedOutTranslations(model, Object.keys(errors)),
    signedOut: true,
  };
}

/**
 * The translations of what a visitor is shown (decision 0068): the product, the prose, the kept
 * messages; never a label of what is behind the sign-in.
 */
function signedOutTranslations(model: Model, codes: readonly string[]): Pick<Model, 'translations'> {
  if (model.translations === undefined) return {};
  const shown = (key: string) =>
    key.startsWith('product.') ||
    key.startsWith('facets.') ||
    codes.some((code) => key === `errors.${code}.message`);
  return {
    translations: Object.fromEntries(
      Object.entries(model.translations).map(([locale, words]) => [
        locale,
        Object.fromEntries(Object.entries(words).filter(([key]) => shown(key))),
      ]),
    ),
  };
}
