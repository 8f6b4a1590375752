/**
 * The JSON Schema of section 6's `auth:` (decision 0036), for `notation-schema.ts` to put under the
 * document's `auth` key. It stands apart so that the notation's schema stays one readable file per
 * part; like the rest, it is built from the key lists `facets/auth.ts` accepts, through tables typed
 * `Record<Key, …>`, so a key added to the reader fails the build until it is described here.
 *
 * @example authSchema.properties.oidc // the shape of `auth.oidc`
 */
import { AUTH_KEYS, DEFAULT_OIDC_LABEL, MFA_KEYS, OIDC_KEYS, OIDC_ROLES_KEYS } from './facets/auth.js';
import { NAME_RULES } from './facets/reader.js';
import { type JsonSchema as Schema, strictObject } from './notation-schema-parts.js';

/** A text that is exactly one `${NAME}` reference to the environment. */
const ENV_REFERENCE = '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$';
/**
 * A domain name as `isDomainName` reads one: two or more labels of letters, digits and inner
 * hyphens, at most 63 each and 253 in all, the last not a number.
 */
const DOMAIN =
  '^(?=.{1,253}$)(?!.*\\.[0-9]+$)(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$';
/** An issuer as `isIssuer` reads one (its query, fragment and credentials left to the compiler). */
const ISSUER = [
  '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$',
  '^https://\\S+$',
  '^http://(localhost|127\\.0\\.0\\.1|\\[::1\\])([:/]\\S*)?$',
];

const role: Schema = { type: 'string', pattern: NAME_RULES.role.pattern.source };
const roles = (description: string): Schema => ({
  description,
  anyOf: [role, { type: 'array', items: role }],
});
const named = (description: string, extra: Schema = {}): Schema => ({
  type: 'string',
  pattern: '\\S',
  description,
  ...extra,
});

const oidcRoles = strictObject(
  OIDC_ROLES_KEYS,
  {
    claim: named(
      'The claim of the ID token (or user info) that holds the provider’s group or role names, like `groups`.',
    ),
    map: {
      description: 'The provider’s group name → the spec’s role, like `support-staff: agent`.',
      type: 'object',
      additionalProperties: role,
    },
  },
  {
    description:
      'How the provider’s claims give roles on every sign-in. Without it, a new account gets the `signUp` role.',
    required: [...OIDC_ROLES_KEYS],
  },
);

const oidc = strictObject(
  OIDC_KEYS,
  {
    issuer: {
      type: 'string',
      description:
        'The provider’s issuer URL (https; http only for localhost), usually a `${NAME}` read from the environment at start.',
      anyOf: ISSUER.map((pattern) => ({ pattern })),
    },
    clientId: named('The client id the provider gave this product, usually a `${NAME}`.'),
    clientSecret: {
      type: 'string',
      description:
        'The client secret: always a `${NAME}` read from the environment at start, never written in the spec.',
      pattern: ENV_REFERENCE,
    },
    label: named(
      `How the sign-in page names the provider: "Sign in with {label}". Default "${DEFAULT_OIDC_LABEL}".`,
    ),
    roles: oidcRoles,
  },
  {
    description:
      'Single sign-on with an OpenID Connect provider (authorization code with PKCE). An account is linked by verified e-mail, or made on first sign-in when `signUp` is set.',
    required: ['issuer', 'clientId', 'clientSecret'],
  },
);

const mfa: Schema = {
  description:
    'Who must sign in with the second factor (an authenticator app): `optional` (the default, each user chooses), `required` (every user who signs in with a password), or `{ required: [role, …] }`. Single sign-on and API tokens are not asked for it.',
  anyOf: [
    { enum: ['optional', 'required'] },
    strictObject(
      MFA_KEYS,
      {
        required: {
          type: 'array',
          items: role,
          minItems: 1,
          description: 'The roles whose users must use two-step sign-in, like `[admin]`.',
        },
      },
      { required: [...MFA_KEYS] },
    ),
  ],
};

/** `auth:` (section 6): who may sign themselves in, and how. */
export const authSchema: Schema = strictObject(
  AUTH_KEYS,
  {
    signUp: {
      ...role,
      description:
        'The role given to people who sign up themselves (never one that may change users’ roles). Absent: accounts come by invitation only.',
    },
    signUpDomains: {
      description: 'The only e-mail domains that may sign up, like `example.com`. Absent: any.',
      anyOf: [
        { type: 'string', pattern: DOMAIN },
        { type: 'array', items: { type: 'string', pattern: DOMAIN } },
      ],
    },
    passwordReset: {
      type: 'boolean',
      description: 'Whether a forgotten password can be reset by a link sent by e-mail. Default true.',
    },
    tokens: roles('The roles that may hold personal API tokens. Absent: nobody.'),
    oidc,
    mfa,
  },
  {
    title: 'Identity',
    description:
      'Section 6: how people get an account and sign in beyond an admin’s invitation — sign-up, password reset, API tokens, single sign-on.',
  },
);
