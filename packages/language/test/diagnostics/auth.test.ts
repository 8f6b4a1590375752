/**
 * Section 6's `auth:` (decision 0036): the model it compiles to, the default without it, and every
 * mistake `ninefold check` reports in it, at its line and column, with its hint.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_AUTH } from '@ninefold/model';
import { compile } from '../../src/index.js';
import { isDomainName, isIssuer } from '../../src/facets/auth.js';
import { expectDiagnostic, inSection, listed } from './expect-diagnostic.js';

/** A spec of 9 lines with roles of every kind, then the given lines: the first of them is line 10. */
function withRoles(...lines: string[]): string {
  return [
    'entities:',
    '  Ticket: { fields: { subject: string } }',
    'roles:',
    '  customer: { Ticket: { read: true, create: true } }',
    '  agent: { Ticket: true }',
    '  integration: { Ticket: { read: true } }',
    '  admin: { User: { read: true, update: true } }',
    '  keeper: { User: { update: true, fields: { write: [name] } } }',
    '  boss: { inherits: admin }',
    ...lines,
    '',
  ].join('\n');
}

/** `auth:` with the given lines under it; they start on line 11. */
function auth(...lines: string[]): string {
  return withRoles('auth:', ...lines.map((line) => `  ${line}`));
}

/** `auth.oidc` with the given keys; they start on line 12. */
function oidc(...keys: string[]): string {
  return auth('oidc:', ...keys.map((key) => `  ${key}`));
}

const CLIENT = ['clientId: ${OIDC_CLIENT_ID}', 'clientSecret: ${OIDC_CLIENT_SECRET}'];

describe('auth compiles', () => {
  it('a whole `auth:` block to the model, domains in lower case', () => {
    const result = compile(
      auth(
        'signUp: customer',
        'signUpDomains: [Example.COM, support.example.org]',
        'passwordReset: false',
        'tokens: [integration, agent]',
        'oidc:',
        '  issuer: ${OIDC_ISSUER}',
        '  clientId: ${OIDC_CLIENT_ID}',
        '  clientSecret: ${OIDC_CLIENT_SECRET}',
        '  label: Acme',
        '  roles: { claim: groups, map: { support-staff: agent, support-leads: boss } }',
        'mfa: { required: [admin, agent] }',
      ),
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.diagnostics).toEqual([]);
    expect(result.model.auth).toEqual({
      signUp: 'customer',
      signUpDomains: ['example.com', 'support.example.org'],
      passwordReset: false,
      tokens: ['integration', 'agent'],
      oidc: {
        issuer: '${OIDC_ISSUER}',
        clientId: '${OIDC_CLIENT_ID}',
        clientSecret: '${OIDC_CLIENT_SECRET}',
        label: 'Acme',
        roles: { claim: 'groups', map: { 'support-staff': 'agent', 'support-leads': 'boss' } },
      },
      mfa: { required: ['admin', 'agent'] },
    });
  });

  it('the defaults of every key left out: no sign-up, reset on, no tokens, "single sign-on"', () => {
    const result = compile(
      auth(
        'oidc: { issuer: "https://login.example.com/realms/acme", clientId: acme-help, clientSecret: "${S}" }',
      ),
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.model.auth).toEqual({
      signUp: null,
      signUpDomains: [],
      passwordReset: true,
      tokens: [],
      oidc: {
        issuer: 'https://login.example.com/realms/acme',
        clientId: 'acme-help',
        clientSecret: '${S}',
        label: 'single sign-on',
        roles: null,
      },
      mfa: 'optional',
    });
  });

  it('`mfa: optional` and `mfa: required` as written; one role for a list of one', () => {
    for (const policy of ['optional', 'required'] as const) {
      const result = compile(auth(`mfa: ${policy}`), { file: 'spec.yaml' });
      if (!result.ok) expect.fail(listed(result.diagnostics));
      expect(result.model.auth.mfa).toBe(policy);
    }
    const one = compile(auth('mfa: { required: [boss] }'), { file: 'spec.yaml' });
    if (!one.ok) expect.fail(listed(one.diagnostics));
    expect(one.model.auth.mfa).toEqual({ required: ['boss'] });
  });

  it('a spec without `auth:`, or with an empty one, gets DEFAULT_AUTH', () => {
    for (const text of [withRoles(), withRoles('auth:')]) {
      const result = compile(text, { file: 'spec.yaml' });
      if (!result.ok) expect.fail(listed(result.diagnostics));
      expect(result.model.auth).toEqual(DEFAULT_AUTH);
    }
  });

  it('one role or a list; in a spec without roles, the one role `user`', () => {
    const one = compile(auth('tokens: integration'), { file: 'spec.yaml' });
    if (!one.ok) expect.fail(listed(one.diagnostics));
    expect(one.model.auth.tokens).toEqual(['integration']);
    const plain = compile('entities: { Note: { fields: { text: string } } }\nauth: { signUp: user }\n', {
      file: 'spec.yaml',
    });
    if (!plain.ok) expect.fail(listed(plain.diagnostics));
    expect(plain.model.auth.signUp).toBe('user');
  });

  it('belongs in section 6, where it specifies the roles facet', () => {
    const six = compile(inSection(6, 'auth: { passwordReset: false }\n'), { file: 'spec.md' });
    if (!six.ok) expect.fail(listed(six.diagnostics));
    expect(six.diagnostics.filter((d) => d.code === 'NF010')).toEqual([]);
    expect(six.model.facets.roles.specified).toBe(true);
    expect(six.summary.unspecified).not.toContain('roles');
    expectDiagnostic(inSection(7, 'auth: { passwordReset: false }\n'), {
      code: 'NF010',
      line: 4,
      column: 1,
      message: /`auth` belongs in section 6, but is written in section 7/,
    });
  });
});

describe('auth: roles', () => {
  it('NF304: an unknown role in `signUp`, with the nearest declared one', () => {
    expectDiagnostic(auth('signUp: custmer'), {
      code: 'NF304',
      line: 11,
      column: 11,
      message: /`custmer` is not a declared role, so `auth.signUp` cannot name it/,
      hint: /did you mean `customer`\?/,
    });
  });

  it('NF304: an unknown role in `tokens`', () => {
    expectDiagnostic(auth('tokens: [integration, integrator]'), {
      code: 'NF304',
      line: 11,
      column: 25,
      message: /`integrator` is not a declared role, so `auth.tokens` cannot name it/,
      hint: /did you mean `integration`\?/,
    });
  });

  it('NF304: an unknown role in `mfa.required`, with the nearest declared one', () => {
    expectDiagnostic(auth('mfa: { required: [agent, admn] }'), {
      code: 'NF304',
      line: 11,
      column: 28,
      message: /`admn` is not a declared role, so `auth.mfa.required` cannot name it/,
      hint: /did you mean `admin`\?/,
    });
  });

  it('NF202: `mfa` neither `optional`, `required` nor `{ required: [role, …] }`', () => {
    expectDiagnostic(auth('mfa: requird'), {
      code: 'NF202',
      line: 11,
      column: 8,
      message:
        /`auth.mfa` must be `optional`, `required` or `\{ required: \[role, …\] \}`, found the text "requird"/,
      hint: /did you mean `required`\?/,
    });
    expectDiagnostic(auth('mfa: true'), {
      code: 'NF202',
      line: 11,
      column: 8,
      message: /`auth.mfa` must be .*found the boolean true/,
      hint: /write `mfa: required` for everyone/,
    });
    expectDiagnostic(auth('mfa: [admin]'), {
      code: 'NF202',
      line: 11,
      column: 8,
      message: /`auth.mfa` must be a mapping, found a list/,
    });
    expectDiagnostic(auth('mfa: { required: admin }'), {
      code: 'NF202',
      line: 11,
      column: 20,
      message: /`auth.mfa.required` must be a list of roles, like `\[admin\]`, found the text "admin"/,
    });
    expectDiagnostic(auth('mfa: { required: [] }'), {
      code: 'NF202',
      line: 11,
      column: 20,
      message: /`auth.mfa.required` must name at least one role, found an empty list/,
      hint: /or write `mfa: optional`/,
    });
  });

  it('NF201 and NF203: `mfa` with another key, or without `required`', () => {
    expectDiagnostic(auth('mfa: { required: [admin], roles: [agent] }'), {
      code: 'NF201',
      line: 11,
      column: 29,
      message: /`roles` is not a key of `auth.mfa`/,
    });
    expectDiagnostic(auth('mfa: {}'), {
      code: 'NF203',
      line: 11,
      column: 3,
      message: /`auth.mfa` needs `required`/,
      hint: /required: \[admin\]/,
    });
  });

  it('NF210: a role listed twice in `mfa.required`', () => {
    expectDiagnostic(auth('mfa: { required: [agent, agent] }'), {
      code: 'NF210',
      line: 11,
      column: 28,
      message: /The role `agent` is listed twice in `auth.mfa.required`/,
    });
  });

  it('NF304: an unknown role among `oidc.roles.map` values', () => {
    expectDiagnostic(
      oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, 'roles: { claim: groups, map: { support-staff: agnet } }'),
      {
        code: 'NF304',
        line: 15,
        column: 51,
        message:
          /`agnet` is not a declared role, so `auth.oidc.roles.map` \(for `support-staff`\) cannot name it/,
        hint: /did you mean `agent`\?/,
      },
    );
  });

  it('NF321: sign-up to a role that may change every user’s roles, inherited or not', () => {
    expectDiagnostic(auth('signUp: admin'), {
      code: 'NF321',
      line: 11,
      column: 11,
      message: /`auth.signUp` gives role `admin`, which may change every user's roles/,
      hint: /without `User: \{ update: true \}`/,
    });
    expectDiagnostic(auth('signUp: boss'), { code: 'NF321', line: 11, column: 11 });
  });

  it('NF322 (a warning): sign-up to a role that may read, change and delete every record', () => {
    // a spec without roles: its one role, `user`, may do everything with every record
    const spec = [
      'entities:',
      '  Note:',
      '    fields:',
      '      title: { type: string }',
      'auth:',
      '  signUp: user',
      '',
    ];
    expectDiagnostic(spec.join('\n'), {
      code: 'NF322',
      line: 6,
      column: 11,
      message: /gives role `user`, which may read, change and delete every record of every entity/,
      hint: /a role of their own/,
    });
    const result = compile(spec.join('\n'), { file: 'spec.yaml' });
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.model.auth.signUp).toBe('user');
    // a role limited to some records is not warned about
    const customer = compile(auth('signUp: customer'), { file: 'spec.yaml' });
    expect(customer.diagnostics.map((d) => d.code)).not.toContain('NF322');
  });

  it('not NF321 for a role that updates users but may not write their roles', () => {
    const result = compile(auth('signUp: keeper'), { file: 'spec.yaml' });
    if (!result.ok) expect.fail(listed(result.diagnostics));
    expect(result.model.auth.signUp).toBe('keeper');
  });

  it('NF210: a role listed twice in `tokens`', () => {
    expectDiagnostic(auth('tokens: [agent, agent]'), {
      code: 'NF210',
      line: 11,
      column: 19,
      message: /The role `agent` is listed twice in `auth.tokens`/,
    });
  });
});

describe('auth: sign-up domains', () => {
  it('NF217: an entry that is not a domain name', () => {
    expectDiagnostic(auth('signUp: customer', 'signUpDomains: [example.com, "@acme.com"]'), {
      code: 'NF217',
      line: 12,
      column: 32,
      message: /`@acme.com` in `auth.signUpDomains` is not a domain name/,
      hint: /write the part after `@` alone, like `acme.com`/,
    });
    expectDiagnostic(auth('signUp: customer', 'signUpDomains: https://acme.com'), {
      code: 'NF217',
      line: 12,
      column: 18,
      hint: /like `example.com` \(no scheme, path or wildcard\)/,
    });
    const good = [
      'example.com',
      'mail.example.co.uk',
      'xn--bcher-kva.example',
      'a-b.io',
      `${'a'.repeat(63)}.com`,
    ];
    for (const domain of good) expect(isDomainName(domain), domain).toBe(true);
    const bad = [
      'localhost',
      '*.example.com',
      '-a.com',
      'a-.com',
      'a..com',
      '10.0.0.1',
      'a b.com',
      `${'a'.repeat(64)}.com`,
    ];
    for (const domain of bad) expect(isDomainName(domain), domain).toBe(false);
  });

  it('NF210: a domain listed twice, whatever its case', () => {
    expectDiagnostic(auth('signUp: customer', 'signUpDomains: [example.com, EXAMPLE.com]'), {
      code: 'NF210',
      line: 12,
      column: 32,
      message: /The domain `example.com` is listed twice in `auth.signUpDomains`/,
    });
  });

  it('NF218: `signUpDomains` without `signUp` (a warning: the spec still compiles)', () => {
    const { result } = expectDiagnostic(auth('signUpDomains: [example.com]'), {
      code: 'NF218',
      line: 11,
      column: 3,
      message: /`auth.signUp` is not set: nobody can sign up/,
      hint: /add `signUp: <role>`/,
    });
    expect(result.ok).toBe(true);
  });
});

describe('auth: keys and types', () => {
  it('NF201: an unknown key under `auth`, `oidc` and `oidc.roles`, with the nearest one', () => {
    expectDiagnostic(auth('signup: customer'), {
      code: 'NF201',
      line: 11,
      column: 3,
      message: /`signup` is not a key of `auth`/,
      hint: /did you mean `signUp`\?/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, 'lable: Acme'), {
      code: 'NF201',
      line: 15,
      column: 5,
      message: /`lable` is not a key of `auth.oidc`/,
      hint: /did you mean `label`\?/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, 'roles: { claims: groups, map: {} }'), {
      code: 'NF201',
      line: 15,
      column: 14,
      message: /`claims` is not a key of `auth.oidc.roles`/,
      hint: /did you mean `claim`\?/,
    });
  });

  it('NF202: a value of the wrong type', () => {
    expectDiagnostic(auth('passwordReset: yes'), {
      code: 'NF202',
      line: 11,
      column: 18,
      message: /`auth.passwordReset` must be true or false, found the text "yes"/,
    });
    expectDiagnostic(auth('signUp: [customer]'), {
      code: 'NF202',
      line: 11,
      column: 11,
      message: /`auth.signUp` must be text, found a list/,
    });
    expectDiagnostic(auth('oidc: true'), {
      code: 'NF202',
      line: 11,
      column: 9,
      message: /`auth.oidc` must be a mapping, found the boolean true/,
    });
    expectDiagnostic(withRoles('auth: [signUp]'), {
      code: 'NF202',
      line: 10,
      column: 7,
      message: /`auth` must be a mapping/,
    });
  });

  it('NF203: `oidc` without issuer, clientId or clientSecret; `roles` without claim or map', () => {
    expectDiagnostic(oidc('clientId: ${OIDC_CLIENT_ID}'), {
      code: 'NF203',
      line: 11,
      column: 3,
      message: /`auth.oidc` needs `issuer`/,
      hint: /issuer: \$\{OIDC_ISSUER\}/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', 'clientId: ${OIDC_CLIENT_ID}'), {
      code: 'NF203',
      line: 11,
      column: 3,
      message: /`auth.oidc` needs `clientSecret`/,
      hint: /clientSecret: \$\{OIDC_CLIENT_SECRET\}/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', 'clientSecret: ${OIDC_CLIENT_SECRET}'), {
      code: 'NF203',
      line: 11,
      column: 3,
      message: /`auth.oidc` needs `clientId`/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, 'roles: { claim: groups }'), {
      code: 'NF203',
      line: 15,
      column: 5,
      message: /`auth.oidc.roles` needs `map`/,
      hint: /map: \{ support-staff: agent \}/,
    });
  });
});

describe('auth: single sign-on', () => {
  it('NF219: an issuer that is neither https nor `${NAME}`; http only on this machine', () => {
    expectDiagnostic(oidc('issuer: http://login.example.com', ...CLIENT), {
      code: 'NF219',
      line: 12,
      column: 13,
      message:
        /`auth.oidc.issuer` must be an https URL or a `\$\{NAME\}` reference, found `http:\/\/login.example.com`/,
      hint: /issuer: \$\{OIDC_ISSUER\}/,
    });
    for (const issuer of [
      '${OIDC_ISSUER}',
      'https://login.example.com',
      'https://login.example.com/realms/acme/',
      'https://${TENANT}.auth.example.com',
      'http://localhost:4000',
      'http://127.0.0.1:4000/oidc',
      'http://[::1]:8080',
    ])
      expect(isIssuer(issuer), issuer).toBe(true);
    for (const issuer of [
      'http://login.example.com',
      'http://${HOST}',
      'https://login.example.com?tenant=a',
      'https://login.example.com/#x',
      'https://user:pass@login.example.com',
      'ftp://login.example.com',
      'login.example.com',
      '${OIDC_ISSUER',
      'https://a b',
      '',
    ])
      expect(isIssuer(issuer), issuer).toBe(false);
  });

  it('NF220: a client secret written in clear, even in part', () => {
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', 'clientId: acme', 'clientSecret: s3cr3t-v4lue'), {
      code: 'NF220',
      line: 14,
      column: 19,
      message:
        /The client secret of `auth.oidc` is written in the spec; a secret must come from the environment/,
      hint: /clientSecret: \$\{OIDC_CLIENT_SECRET\}/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', 'clientId: acme', 'clientSecret: "prefix-${SECRET}"'), {
      code: 'NF220',
      line: 14,
      column: 19,
    });
  });

  it('NF221: an empty role claim, client id or label', () => {
    expectDiagnostic(
      oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, 'roles: { claim: "", map: { staff: agent } }'),
      {
        code: 'NF221',
        line: 15,
        column: 21,
        message: /`auth.oidc.roles.claim` is empty/,
        hint: /like `claim: groups`/,
      },
    );
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', 'clientId: " "', 'clientSecret: ${S}'), {
      code: 'NF221',
      line: 13,
      column: 15,
      message: /`auth.oidc.clientId` is empty/,
    });
    expectDiagnostic(oidc('issuer: ${OIDC_ISSUER}', ...CLIENT, "label: ''"), {
      code: 'NF221',
      line: 15,
      column: 12,
      hint: /leave `label` out for "single sign-on"/,
    });
  });
});
