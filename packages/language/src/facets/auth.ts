/**
 * Section 6's `auth:`: how people get an account and sign in beyond an admin's invitation —
 * sign-up and its e-mail domains, password reset, personal API tokens and single sign-on with an
 * OpenID Connect provider (decision 0036). Every role it names is checked against the declared
 * roles, and sign-up may not hand out a role that can make anyone anything. The provider's address
 * and client differ per deployment and its secret must never be readable by whoever reads the
 * spec, so they are `${NAME}` references the server resolves at start, as for webhooks.
 */
import {
  DEFAULT_AUTH,
  envReferences,
  type Auth,
  type MfaPolicy,
  type Oidc,
  type OidcRoles,
  type Role,
} from '@ninefold/model';
import { type Span } from '../diagnostics/diagnostic.js';
import { nearest, suggestion } from '../diagnostics/suggest.js';
import { own } from '../own.js';
import { describe, type YEntry } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { mapOf } from './reader.js';
import { ONE_REFERENCE } from './webhooks.js';

export const AUTH_KEYS = ['signUp', 'signUpDomains', 'passwordReset', 'tokens', 'oidc', 'mfa'] as const;
export const MFA_KEYS = ['required'] as const;
export const OIDC_KEYS = ['issuer', 'clientId', 'clientSecret', 'label', 'roles'] as const;
export const OIDC_ROLES_KEYS = ['claim', 'map'] as const;

/** How the sign-in page names a provider without a `label`: "Sign in with single sign-on". */
export const DEFAULT_OIDC_LABEL = 'single sign-on';

/** Hosts a provider may be reached at over plain http: one on the developer's own machine. */
const LOCAL_HOSTS = ['localhost', '127.0.0.1', '[::1]'];

/**
 * Reads `auth:` against the compiled roles; `DEFAULT_AUTH` when the spec has none. A key with a
 * problem is reported and left at its default, so the other keys are still checked.
 *
 * @example readAuth(ctx, dict('auth'), roles) // { signUp: 'customer', signUpDomains: [], passwordReset: true, tokens: [], oidc: null, mfa: 'optional' }
 */
export function readAuth(
  ctx: CompileContext,
  entries: readonly YEntry[],
  roles: Readonly<Record<string, Role>>,
): Auth {
  if (entries.length === 0) return DEFAULT_AUTH;
  const { reader } = ctx;
  const m = reader.map(mapOf(entries), '`auth`', AUTH_KEYS);
  if (m === null) return DEFAULT_AUTH;
  const roleNames = Object.keys(roles);

  const signUpEntry = m.get('signUp');
  let signUp: string | null = null;
  if (signUpEntry !== undefined) {
    const name = reader.string(signUpEntry.value, '`auth.signUp`');
    if (name !== null && knownRole(ctx, name, signUpEntry.value.span, roleNames, '`auth.signUp`'))
      signUp = isAdminRole(roles[name]!) ? refuseAdmin(ctx, name, signUpEntry.value.span) : name;
    if (signUp !== null && maySeeAndChangeEverything(ctx, roles[signUp]!))
      ctx.bag.report(
        'NF322',
        signUpEntry.value.span,
        `\`auth.signUp\` gives role \`${signUp}\`, which may read, change and delete every record of every entity: anyone who signs up could.`,
        'give people who sign up a role of their own, limited to what a stranger may do (`read: own`, `create: true`)',
      );
  }

  const domainsEntry = m.get('signUpDomains');
  const signUpDomains = domainsEntry === undefined ? [] : readDomains(ctx, domainsEntry);
  if (domainsEntry !== undefined && signUpEntry === undefined) {
    ctx.bag.report(
      'NF218',
      domainsEntry.keySpan,
      '`auth.signUpDomains` limits sign-up, but `auth.signUp` is not set: nobody can sign up, so it has no effect.',
      `add \`signUp: <role>\` to let people of these domains sign up, or remove \`signUpDomains\``,
    );
  }

  const resetEntry = m.get('passwordReset');
  const passwordReset =
    resetEntry === undefined
      ? DEFAULT_AUTH.passwordReset
      : (reader.boolean(resetEntry.value, '`auth.passwordReset`') ?? DEFAULT_AUTH.passwordReset);

  const tokensEntry = m.get('tokens');
  const tokens: string[] = [];
  if (tokensEntry !== undefined) {
    for (const { name, span } of reader.names(tokensEntry.value, '`auth.tokens`')) {
      if (!knownRole(ctx, name, span, roleNames, '`auth.tokens`')) continue;
      if (tokens.includes(name)) {
        ctx.bag.report(
          'NF210',
          span,
          `The role \`${name}\` is listed twice in \`auth.tokens\`.`,
          'remove one',
        );
        continue;
      }
      tokens.push(name);
    }
  }

  const oidcEntry = m.get('oidc');
  const oidc = oidcEntry === undefined ? null : readOidc(ctx, oidcEntry, roleNames);
  const mfaEntry = m.get('mfa');
  const mfa = mfaEntry === undefined ? DEFAULT_AUTH.mfa : readMfa(ctx, mfaEntry, roleNames);
  return { signUp, signUpDomains, passwordReset, tokens, oidc, mfa };
}

/**
 * `auth.mfa`: `optional`, `required`, or `{ required: [role, …] }` (decision 0041). A wrong shape is
 * NF202 and an unknown role NF304; either leaves the policy at `optional` for the rest of the check.
 */
function readMfa(ctx: CompileContext, entry: YEntry, roleNames: readonly string[]): MfaPolicy {
  const { reader, bag } = ctx;
  const node = entry.value;
  if (node.kind === 'scalar') {
    if (node.value === 'optional' || node.value === 'required') return node.value;
    bag.report(
      'NF202',
      node.span,
      `\`auth.mfa\` must be \`optional\`, \`required\` or \`{ required: [role, …] }\`, found ${describe(node)}.`,
      typeof node.value === 'string' && nearest(node.value, ['optional', 'required']) !== null
        ? suggestion(node.value, ['optional', 'required'], 'value')
        : 'write `mfa: required` for everyone who signs in with a password, or `mfa: { required: [admin] }` for some roles',
    );
    return DEFAULT_AUTH.mfa;
  }
  const m = reader.map(node, '`auth.mfa`', MFA_KEYS);
  if (m === null) return DEFAULT_AUTH.mfa;
  const requiredEntry = m.get('required');
  if (requiredEntry === undefined) {
    reader.missing(entry.keySpan, 'required', '`auth.mfa`', 'required: [admin]');
    return DEFAULT_AUTH.mfa;
  }
  if (requiredEntry.value.kind !== 'seq') {
    reader.wrongType(requiredEntry.value, '`auth.mfa.required` must be a list of roles, like `[admin]`');
    return DEFAULT_AUTH.mfa;
  }
  const required: string[] = [];
  let known = true;
  for (const { name, span } of reader.names(requiredEntry.value, '`auth.mfa.required`')) {
    if (!knownRole(ctx, name, span, roleNames, '`auth.mfa.required`')) {
      known = false;
      continue;
    }
    if (required.includes(name)) {
      bag.report(
        'NF210',
        span,
        `The role \`${name}\` is listed twice in \`auth.mfa.required\`.`,
        'remove one',
      );
      continue;
    }
    required.push(name);
  }
  if (!known) return DEFAULT_AUTH.mfa;
  if (required.length === 0) {
    bag.report(
      'NF202',
      requiredEntry.value.span,
      '`auth.mfa.required` must name at least one role, found an empty list.',
      'name the roles that must use two-step sign-in, like `[admin]`, or write `mfa: optional`',
    );
    return DEFAULT_AUTH.mfa;
  }
  return { required };
}

/**
 * Whether a role may make anyone anything: it updates every User, their `roles` included — what
 * `isAdmin` of `@ninefold/engine` calls an admin (the language does not import the engine;
 * `engine/test/sign-up-admin.test.ts` holds the two to the same answer).
 */
function isAdminRole(role: Role): boolean {
  const access = own(role.entities, 'User');
  return (
    access !== undefined &&
    access.update === true &&
    (access.writeFields === null || access.writeFields.includes('roles'))
  );
}

/**
 * Whether a role may read, update and delete every record of every entity of the spec, without a
 * condition: the default `user` role of a spec without roles, or a role granted `Entity: true`
 * everywhere. Sign-up to it hands a stranger all the data.
 */
function maySeeAndChangeEverything(ctx: CompileContext, role: Role): boolean {
  const entities = Object.values(ctx.entities).filter((entity) => !entity.builtin);
  return (
    entities.length > 0 &&
    entities.every((entity) => {
      const access = own(role.entities, entity.name);
      return access !== undefined && access.read === true && access.update === true && access.delete === true;
    })
  );
}

function refuseAdmin(ctx: CompileContext, name: string, span: Span): null {
  ctx.bag.report(
    'NF321',
    span,
    `\`auth.signUp\` gives role \`${name}\`, which may change every user's roles: anyone who signs up could make themselves anything.`,
    `give people who sign up a role without \`User: { update: true }\` (like \`customer\`), and invite the admins`,
  );
  return null;
}

function knownRole(
  ctx: CompileContext,
  name: string,
  span: Span,
  roles: readonly string[],
  where: string,
): boolean {
  if (roles.includes(name)) return true;
  ctx.bag.report(
    'NF304',
    span,
    `\`${name}\` is not a declared role, so ${where} cannot name it.`,
    suggestion(name, roles, 'role'),
  );
  return false;
}

function readDomains(ctx: CompileContext, entry: YEntry): string[] {
  const out: string[] = [];
  for (const { name, span } of ctx.reader.names(entry.value, '`auth.signUpDomains`')) {
    const domain = name.trim().toLowerCase();
    if (!isDomainName(domain)) {
      ctx.bag.report(
        'NF217',
        span,
        `\`${name}\` in \`auth.signUpDomains\` is not a domain name.`,
        domain.includes('@')
          ? `write the part after \`@\` alone, like \`${domain.slice(domain.lastIndexOf('@') + 1) || 'example.com'}\``
          : 'write the domain of the e-mail addresses, like `example.com` (no scheme, path or wildcard)',
      );
      continue;
    }
    if (out.includes(domain)) {
      ctx.bag.report(
        'NF210',
        span,
        `The domain \`${domain}\` is listed twice in \`auth.signUpDomains\`.`,
        'remove one',
      );
      continue;
    }
    out.push(domain);
  }
  return out;
}

/**
 * Whether a text is a domain name an e-mail address can end with: two or more labels of letters,
 * digits and inner hyphens, each at most 63 long, at most 253 in all, and a last label that is not
 * a number (which would make it an IP address). Internationalised names are written as punycode
 * (`xn--…`), as mail carries them.
 *
 * @example isDomainName('example.com') // true
 * @example isDomainName('@example.com') // false
 */
export function isDomainName(text: string): boolean {
  if (text.length > 253) return false;
  const labels = text.split('.');
  if (labels.length < 2) return false;
  if (!labels.every((label) => /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/i.test(label))) return false;
  return !/^[0-9]+$/.test(labels[labels.length - 1]!);
}

function readOidc(ctx: CompileContext, entry: YEntry, roleNames: readonly string[]): Oidc | null {
  const { reader, bag } = ctx;
  const m = reader.map(entry.value, '`auth.oidc`', OIDC_KEYS);
  if (m === null) return null;
  const issuerEntry = m.get('issuer');
  const clientIdEntry = m.get('clientId');
  const secretEntry = m.get('clientSecret');
  if (issuerEntry === undefined)
    reader.missing(entry.keySpan, 'issuer', '`auth.oidc`', 'issuer: ${OIDC_ISSUER}');
  if (clientIdEntry === undefined)
    reader.missing(entry.keySpan, 'clientId', '`auth.oidc`', 'clientId: ${OIDC_CLIENT_ID}');
  if (secretEntry === undefined)
    reader.missing(entry.keySpan, 'clientSecret', '`auth.oidc`', 'clientSecret: ${OIDC_CLIENT_SECRET}');

  let issuer = issuerEntry === undefined ? null : reader.string(issuerEntry.value, '`auth.oidc.issuer`');
  if (issuer !== null && !isIssuer(issuer)) {
    bag.report(
      'NF219',
      issuerEntry!.value.span,
      `\`auth.oidc.issuer\` must be an https URL or a \`\${NAME}\` reference, found \`${issuer}\`.`,
      'write `issuer: ${OIDC_ISSUER}` and set OIDC_ISSUER where the server runs, or the provider’s https address without query or fragment (http only for localhost)',
    );
    issuer = null;
  }
  const clientId = clientIdEntry === undefined ? null : nonEmpty(ctx, clientIdEntry, '`auth.oidc.clientId`');
  let clientSecret =
    secretEntry === undefined ? null : reader.string(secretEntry.value, '`auth.oidc.clientSecret`');
  if (clientSecret !== null && !ONE_REFERENCE.test(clientSecret)) {
    bag.report(
      'NF220',
      secretEntry!.value.span,
      'The client secret of `auth.oidc` is written in the spec; a secret must come from the environment.',
      'write `clientSecret: ${OIDC_CLIENT_SECRET}` and set OIDC_CLIENT_SECRET where the server runs',
    );
    clientSecret = null;
  }
  const labelEntry = m.get('label');
  const label =
    labelEntry === undefined ? DEFAULT_OIDC_LABEL : nonEmpty(ctx, labelEntry, '`auth.oidc.label`');
  const rolesEntry = m.get('roles');
  const roles = rolesEntry === undefined ? null : readOidcRoles(ctx, rolesEntry, roleNames);
  if (issuer === null || clientId === null || clientSecret === null || label === null) return null;
  if (rolesEntry !== undefined && roles === null) return null;
  return { issuer, clientId, clientSecret, label, roles };
}

function readOidcRoles(ctx: CompileContext, entry: YEntry, roleNames: readonly string[]): OidcRoles | null {
  const { reader } = ctx;
  const m = reader.map(entry.value, '`auth.oidc.roles`', OIDC_ROLES_KEYS);
  if (m === null) return null;
  const claimEntry = m.get('claim');
  const mapEntry = m.get('map');
  if (claimEntry === undefined) reader.missing(entry.keySpan, 'claim', '`auth.oidc.roles`', 'claim: groups');
  if (mapEntry === undefined)
    reader.missing(entry.keySpan, 'map', '`auth.oidc.roles`', 'map: { support-staff: agent }');
  const claim = claimEntry === undefined ? null : nonEmpty(ctx, claimEntry, '`auth.oidc.roles.claim`');
  const map: Record<string, string> = {};
  let mapped = mapEntry !== undefined;
  for (const item of mapEntry === undefined ? [] : reader.dict(mapEntry.value, '`auth.oidc.roles.map`')) {
    const where = `\`auth.oidc.roles.map\` (for \`${item.key}\`)`;
    const role = reader.string(item.value, where);
    if (role === null || !knownRole(ctx, role, item.value.span, roleNames, where)) {
      mapped = false;
      continue;
    }
    map[item.key] = role;
  }
  if (claim === null || !mapped) return null;
  return { claim, map };
}

/** A text that must name something: an empty one is NF221. */
function nonEmpty(ctx: CompileContext, entry: YEntry, where: string): string | null {
  const text = ctx.reader.string(entry.value, where);
  if (text === null) return null;
  if (text.trim() !== '') return text;
  ctx.bag.report('NF221', entry.value.span, `${where} is empty.`, emptyHint(where));
  return null;
}

function emptyHint(where: string): string {
  if (where.endsWith('claim`'))
    return 'name the claim of the ID token that holds the groups, like `claim: groups`';
  if (where.endsWith('label`'))
    return `name the provider, like \`label: Acme\`, or leave \`label\` out for "${DEFAULT_OIDC_LABEL}"`;
  return 'write the client id the provider gave, usually `clientId: ${OIDC_CLIENT_ID}`';
}

/**
 * Whether an OpenID issuer is one `${NAME}`, or, once its `${NAME}` parts are read, an https URL
 * with no query, fragment or credentials (OpenID Connect Discovery §2); plain http is accepted
 * only for a provider on this machine, for development.
 *
 * @example isIssuer('https://login.example.com/realms/acme') // true
 * @example isIssuer('http://idp.example.com') // false
 */
export function isIssuer(text: string): boolean {
  if (ONE_REFERENCE.test(text)) return true;
  let filled = text;
  for (const name of envReferences(text)) filled = filled.split(`\${${name}}`).join('x');
  if (filled.includes('${') || /\s/.test(filled)) return false;
  let url: URL;
  try {
    url = new URL(filled);
  } catch {
    return false;
  }
  if (url.search !== '' || url.hash !== '' || filled.includes('?') || filled.includes('#')) return false;
  if (url.username !== '' || url.password !== '') return false;
  if (url.protocol === 'https:') return true;
  return url.protocol === 'http:' && LOCAL_HOSTS.includes(url.hostname);
}
