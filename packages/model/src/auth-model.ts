/**
 * Identity in the compiled model (section 6, `auth:`; decision 0035): how people get an account and
 * sign in — sign-up, password reset, API tokens, single sign-on and the second factor. Plain data,
 * like the rest of the model (`model.ts`, whose `Model.auth` it is).
 */
/**
 * How people get an account and sign in, beyond the password an admin's invitation sets
 * (decision 0035).
 */
export interface Auth {
  /** The role given to people who sign up themselves; null: accounts come by invitation only. */
  readonly signUp: string | null;
  /** The only e-mail domains that may sign up (lower case, no `@`); empty: any. */
  readonly signUpDomains: readonly string[];
  /** Whether a forgotten password can be reset by a link sent by e-mail (default true). */
  readonly passwordReset: boolean;
  /** The roles that may hold personal API tokens; empty: nobody. */
  readonly tokens: readonly string[];
  /** Single sign-on with an OpenID Connect provider, or null. */
  readonly oidc: Oidc | null;
  /** Who must sign in with the second factor (decision 0041); `'optional'` by default. */
  readonly mfa: MfaPolicy;
}

/**
 * `auth.mfa`: whether the second factor is up to each user (`'optional'`), required of every user
 * who signs in with a password (`'required'`), or of users holding any of the listed roles. Single
 * sign-on and API tokens are never asked for it: the provider owns its factors, a token is a secret.
 */
export type MfaPolicy = 'optional' | 'required' | { readonly required: readonly string[] };

/**
 * Whether the policy requires the second factor of a user holding these roles.
 *
 * @example mfaRequiredOf({ required: ['admin'] }, ['admin', 'agent']) // true
 */
export function mfaRequiredOf(policy: MfaPolicy, roles: readonly string[]): boolean {
  if (policy === 'optional') return false;
  if (policy === 'required') return true;
  return roles.some((role) => policy.required.includes(role));
}

/**
 * An OpenID Connect provider. `issuer`, `clientId` and `clientSecret` are texts whose `${NAME}`
 * parts the server reads from its environment at start (`resolveEnvText`); the secret is always
 * such a reference, never written in the spec. The public model blanks all three.
 */
export interface Oidc {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The provider as the sign-in page names it: "Sign in with {label}". */
  readonly label: string;
  /** How the provider's claims give roles, or null: a new account gets the `signUp` role. */
  readonly roles: OidcRoles | null;
}

/** Roles from a claim of the provider's ID token or user info: `groups: [support-staff]` → `agent`. */
export interface OidcRoles {
  /** The claim that holds the provider's group or role names (a string or a list of strings). */
  readonly claim: string;
  /** The provider's name → the spec's role. */
  readonly map: Readonly<Record<string, string>>;
}

/** What a spec without `auth:` gets: invitations and password reset, nothing else. */
export const DEFAULT_AUTH: Auth = {
  signUp: null,
  signUpDomains: [],
  passwordReset: true,
  tokens: [],
  oidc: null,
  mfa: 'optional',
};
