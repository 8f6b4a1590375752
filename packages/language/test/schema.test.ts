import { readdirSync, readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DiagnosticBag } from '../src/diagnostics/diagnostic.js';
import { LIMIT_KEYS } from '../src/facets/constants.js';
import { ENTITY_KEYS, FIELD_KEYS } from '../src/facets/entities.js';
import { ERROR_KEYS } from '../src/facets/errors.js';
import { CALLS_KEYS, PRODUCT_KEYS, THEME_KEYS } from '../src/facets/product.js';
import { ACCESS_KEYS, FIELD_ACCESS_KEYS, ROLE_KEYS } from '../src/facets/roles.js';
import { RULE_KEYS } from '../src/facets/rules.js';
import { NAV_KEYS, SCREEN_KEYS } from '../src/facets/screens.js';
import { CHANNELS, NOTIFICATION_KEYS } from '../src/facets/notifications.js';
import { WEBHOOK_KEYS } from '../src/facets/webhooks.js';
import { AUTH_KEYS, OIDC_KEYS, OIDC_ROLES_KEYS } from '../src/facets/auth.js';
import { MACHINE_KEYS, STATE_KEYS, TRANSITION_KEYS } from '../src/facets/states.js';
import { FIELD_TYPES, SCREEN_KINDS } from '@ninefold/model';
import { compile, notationSchema, TOP_LEVEL_KEYS, translationLocale } from '../src/index.js';
import { type JsonSchema } from '../src/notation-schema.js';
import { LineIndex } from '../src/source/line-index.js';
import { splitMarkdown } from '../src/source/markdown.js';

const examplesDir = new URL('../../../examples/', import.meta.url);
const committed = new URL('../notation.schema.json', import.meta.url);

// the CommonJS module's export is the class itself; its typings describe an ES module with a default
const Ajv = Ajv2020 as unknown as typeof Ajv2020.default;
const ajv = new Ajv({ strict: true, allErrors: true, allowUnionTypes: true });
const validate = ajv.compile(notationSchema);

type Doc = Record<string, unknown>;

/** The spec as one document: a YAML file as it is, a Markdown file's blocks merged as the compiler does. */
function documentOf(file: string, text: string): Doc {
  if (/\.ya?ml$/i.test(file)) return (parse(text, { version: '1.2' }) ?? {}) as Doc;
  const bag = new DiagnosticBag(file, new LineIndex(text));
  const doc: Doc = {};
  for (const section of splitMarkdown(text, bag).sections.values()) {
    for (const block of section.blocks) {
      for (const [key, value] of Object.entries((parse(block.text, { version: '1.2' }) ?? {}) as Doc)) {
        if (value === null) doc[key] ??= null;
        else if (Array.isArray(value)) doc[key] = [...((doc[key] as unknown[] | null) ?? []), ...value];
        else if (typeof value === 'object') doc[key] = { ...(doc[key] as Doc | null), ...(value as Doc) };
        else doc[key] = value;
      }
    }
  }
  return doc;
}

function errorsOf(doc: unknown): string[] {
  if (validate(doc)) return [];
  return (validate.errors ?? []).map(
    (e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`,
  );
}

const def = (name: string) => (notationSchema['$defs'] as Record<string, JsonSchema>)[name]!;
const keysOf = (schema: JsonSchema) => Object.keys(schema['properties'] as object);
/** The branch of an `anyOf` that describes a mapping. */
const objectBranch = (schema: JsonSchema) =>
  (schema['anyOf'] as JsonSchema[]).find((s) => s['type'] === 'object')!;
const top = (key: string) => objectBranch((notationSchema['properties'] as Record<string, JsonSchema>)[key]!);

describe('the notation schema', () => {
  it('compiles with Ajv in strict mode', () => {
    expect(typeof validate).toBe('function');
  });

  it('is the committed packages/language/notation.schema.json', () => {
    const onDisk: unknown = JSON.parse(readFileSync(committed, 'utf8'));
    expect(
      onDisk,
      'packages/language/notation.schema.json is out of date: run `npm run schema` and commit the file',
    ).toEqual(notationSchema);
  });

  it('has exactly the keys each reader accepts', () => {
    expect(keysOf(notationSchema)).toEqual(Object.keys(TOP_LEVEL_KEYS));
    expect(keysOf(top('product'))).toEqual([...PRODUCT_KEYS]);
    expect(keysOf((top('product')['properties'] as Record<string, JsonSchema>)['theme']!)).toEqual([
      ...THEME_KEYS,
    ]);
    expect(keysOf(top('calls'))).toEqual([...CALLS_KEYS]);
    expect(keysOf(top('limits'))).toEqual([...LIMIT_KEYS]);
    expect(keysOf(top('auth'))).toEqual([...AUTH_KEYS]);
    const oidc = (top('auth')['properties'] as Record<string, JsonSchema>)['oidc']!;
    expect(keysOf(oidc)).toEqual([...OIDC_KEYS]);
    expect(keysOf((oidc['properties'] as Record<string, JsonSchema>)['roles']!)).toEqual([
      ...OIDC_ROLES_KEYS,
    ]);
    expect(keysOf(def('entity'))).toEqual([...ENTITY_KEYS]);
    expect(keysOf(objectBranch(def('field')))).toEqual([...FIELD_KEYS]);
    expect(keysOf(def('machine'))).toEqual([...MACHINE_KEYS]);
    expect(keysOf(def('state'))).toEqual([...STATE_KEYS]);
    expect(keysOf(def('transition'))).toEqual([...TRANSITION_KEYS]);
    expect(keysOf(def('rule'))).toEqual([...RULE_KEYS]);
    expect(keysOf(def('role'))).toEqual([...ROLE_KEYS]);
    const access = objectBranch(def('access'));
    expect(keysOf(access)).toEqual([...ACCESS_KEYS]);
    expect(keysOf((access['properties'] as Record<string, JsonSchema>)['fields']!)).toEqual([
      ...FIELD_ACCESS_KEYS,
    ]);
    expect(keysOf(def('screen'))).toEqual([...SCREEN_KEYS]);
    expect(keysOf(objectBranch(def('navItem')))).toEqual([...NAV_KEYS]);
    expect(keysOf(objectBranch(def('error')))).toEqual([...ERROR_KEYS]);
    expect(keysOf(def('notification'))).toEqual([...NOTIFICATION_KEYS]);
    expect(keysOf(def('webhook'))).toEqual([...WEBHOOK_KEYS]);
    const channels = (def('notification')['properties'] as Record<string, JsonSchema>)['channels']!;
    expect((channels['anyOf'] as JsonSchema[])[0]!['enum']).toEqual([...CHANNELS]);
    expect((objectBranch(def('field'))['properties'] as Record<string, JsonSchema>)['type']!['enum']).toEqual(
      [...FIELD_TYPES],
    );
    expect((def('screen')['properties'] as Record<string, JsonSchema>)['kind']!['enum']).toEqual([
      ...SCREEN_KINDS,
    ]);
  });

  it('describes every property, for editor tooltips', () => {
    const undocumented: string[] = [];
    const walk = (node: unknown, path: string) => {
      if (typeof node !== 'object' || node === null) return;
      for (const [key, value] of Object.entries(node)) {
        // `if`/`then`/`else` restate a property only to constrain it; `true` only to require it
        if (key === 'properties' && !/\/(if|then|else|not)(\/|$)/.test(path)) {
          for (const [name, schema] of Object.entries(value as Record<string, JsonSchema | boolean>)) {
            if (typeof schema === 'object' && !schema['description'])
              undocumented.push(`${path}/properties/${name}`);
          }
        }
        walk(value, `${path}/${key}`);
      }
    };
    walk(notationSchema, '#');
    expect(undocumented).toEqual([]);
  });
});

describe('every example validates', () => {
  // a spec's translation file (`orders.fr-FR.yaml`) is not a spec (decision 0068)
  const files = readdirSync(examplesDir).filter(
    (f) => /\.(ya?ml|md|txt)$/i.test(f) && translationLocale(f) === null,
  );

  it('finds the examples', () => {
    expect(files).toContain('seed.txt');
  });

  for (const file of files) {
    it(file, () => {
      const text = readFileSync(new URL(file, examplesDir), 'utf8');
      expect(errorsOf(documentOf(file, text))).toEqual([]);
    });
  }
});

/** A spec that uses every key of the notation, in each of its accepted shapes. */
const everyKey = `
product:
  name: Claims
  summary: Expense claims, from receipt to payment.
  audience: Employees, their managers and finance.
  locale: en-GB
  theme: { primaryColor: '#1c7ed6', colorScheme: dark }
screens:
  claims:
    path: /claims
    kind: list
    entity: Claim
    title: Claims
    roles: employee
    columns: [title, amount, state]
    filters: [category]
    where: "amount > 0"
    sort: -createdAt
    actions: [create, export]
  claim: { path: '/claims/:id', kind: detail, entity: Claim, fields: [title, amount], actions: [edit, submit] }
  about: { kind: page, path: /about-us, title: About, body: "# About", roles: [employee, manager] }
nav:
  - claims
  - { screen: about, label: About us, icon: info }
entities:
  User:
    fields:
      department: string
  Claim:
    label: Claim
    plural: Claims
    description: An expense to be reimbursed.
    owner: submittedBy
    display: title
    search: [title, notes]
    fields:
      title: { type: string, label: Title, help: What it was for, required: true, maxLength: 120, minLength: 3, pattern: '^\\S' }
      notes: text
      amount: { type: money, currency: EUR, required: true, min: 0.01, max: MAX_CLAIM, scale: 2, precision: 12 }
      rate: { type: decimal, min: 0, max: 1, default: 0.5 }
      count: { type: integer, unique: true, min: 1, default: { expr: "1 + 1" } }
      spentOn: { type: date, min: '2020-01-01', default: today }
      at: datetime
      starts: { type: time, max: '18:00' }
      category: { type: enum, values: [travel, meals, other], default: other }
      tags: { type: enum, values: [a, b], many: true, maxLength: 2 }
      submittedBy: { type: ref, to: User, default: user.id, readonly: true }
      watchers: { type: ref, to: User, many: true }
      contact: email
      receipt: url
      phone: phone
      urgent: { type: boolean, default: false }
      extra: json
      paidOn: { type: date, readonly: true }
states:
  Claim:
    initial: draft
    states:
      draft: { label: Draft, color: gray }
      submitted:
      paid: { terminal: true }
    transitions:
      submit: { from: draft, to: submitted, roles: employee, confirm: true, label: Submit }
      pay: { from: [submitted], to: paid, roles: [manager], when: "submittedBy != user.id", require: [receipt], set: { paidOn: today }, confirm: Pay this claim? }
rules:
  - id: receipt-over-threshold
    entity: Claim
    description: Large claims need a receipt.
    when: "amount > 0"
    assert: "amount <= RECEIPT_THRESHOLD || has(receipt)"
    error: E_RECEIPT_REQUIRED
    fields: receipt
    on: [create, update, submit]
roles:
  employee:
    label: Employee
    description: Anyone who spends
    Claim: { read: own, create: true, update: "own && state == 'draft'", delete: false, fields: { read: [title, amount], write: title } }
  manager: { inherits: employee, Claim: { read: all } }
  auditor: { inherits: [manager], Claim: true }
  guestish:
auth:
  signUp: employee
  signUpDomains: [example.com, Example.org]
  passwordReset: false
  tokens: [auditor, manager]
  oidc:
    issuer: \${OIDC_ISSUER}
    clientId: \${OIDC_CLIENT_ID}
    clientSecret: \${OIDC_CLIENT_SECRET}
    label: Acme
    roles: { claim: groups, map: { finance-team: auditor, managers: manager } }
calls: { basePath: /api, timeoutMs: 5000, retries: 1, offlineQueue: false }
notifications:
  claim-submitted:
    on: Claim.submit
    to: [manager, watchers, contact]
    channels: [app, email]
    subject: "Claim “{title}” was submitted"
    message: "{user.name} submitted {amount} on {spentOn}."
    mandatory: true
  claim-paid: { on: [Claim.pay, Claim.updated], to: submittedBy, channels: app, subject: "Paid: {title}" }
webhooks:
  accounting:
    on: [Claim.pay, Claim.created]
    url: \${ACCOUNTING_WEBHOOK_URL}
    secret: \${ACCOUNTING_WEBHOOK_SECRET}
  archive: { on: Claim.deleted, url: "https://archive.example.com/hooks/\${ARCHIVE_TOKEN}", secret: "\${ARCHIVE_SECRET}" }
errors:
  E_RECEIPT_REQUIRED: { status: 422, field: receipt, message: "A receipt is required above {RECEIPT_THRESHOLD, number}.", description: Above the threshold. }
  E_SHORT: "Too short."
  E_NOT_FOUND: { status: 404 }
constants: { MAX_CLAIM: 5000, RECEIPT_THRESHOLD: 25, COMPANY: Acme, STRICT: true }
limits:
  pageSize: 25
  maxPageSize: 100
  maxBodyBytes: 2048
  requestsPerMinute: { default: 600, guest: 60, manager: 1000 }
  loginAttemptsPerMinute: 5
  sessionIdleMinutes: 30
  sessionAbsoluteHours: 12
`;

describe('the schema agrees with the compiler', () => {
  it('accepts a spec that uses every key, which the compiler accepts too', () => {
    const result = compile(everyKey, { file: 'every-key.yaml' });
    expect(result.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(errorsOf(parse(everyKey))).toEqual([]);
  });

  it('accepts the shorter shapes: a rate as one number, states as a list, `from: "*"`', () => {
    const spec = `
entities: { Ticket: { fields: { title: string } } }
states:
  Ticket:
    initial: open
    states: [open, closed]
    transitions: { close: { from: '*', to: closed } }
limits: { requestsPerMinute: 100 }
`;
    expect(compile(spec, { file: 'short.yaml' }).ok).toBe(true);
    expect(errorsOf(parse(spec))).toEqual([]);
  });

  // a constraint applies to a field type exactly when the compiler raises no NF206 for it
  const SAMPLES: Record<string, unknown> = {
    min: 1,
    max: 2,
    minLength: 1,
    maxLength: 5,
    pattern: '^a',
    values: ['a', 'b'],
    currency: 'EUR',
    scale: 2,
    precision: 10,
    to: 'User',
    many: true,
    unique: true,
    maxSize: '10MB',
    accept: ['image/png'],
  };
  const NEEDED: Record<string, Record<string, unknown>> = {
    enum: { values: ['a', 'b'] },
    money: { currency: 'EUR' },
    ref: { to: 'User' },
  };
  for (const type of FIELD_TYPES) {
    for (const many of [false, true]) {
      it(`applies the same constraints to ${many ? 'a list of ' : ''}${type}`, () => {
        const disagreements: string[] = [];
        for (const [key, sample] of Object.entries(SAMPLES)) {
          const field = { type, ...NEEDED[type], ...(many ? { many: true } : {}), [key]: sample };
          const doc = { entities: { Thing: { fields: { f: field } } } };
          const result = compile(JSON.stringify(doc), { file: 'field.yaml' });
          const compilerRejects = result.diagnostics.some((d) => d.code === 'NF206');
          const schemaRejects = !validate(doc);
          if (compilerRejects !== schemaRejects)
            disagreements.push(
              `${key}: compiler ${compilerRejects ? 'rejects' : 'accepts'}, schema ${schemaRejects ? 'rejects' : 'accepts'}`,
            );
        }
        expect(disagreements).toEqual([]);
      });
    }
  }

  it('refuses a webhook secret written in clear and a url that is not http(s), as the compiler does', () => {
    const base = { entities: { Claim: { fields: { title: 'string' } } } };
    const hook = (url: string, secret: string) => ({
      ...base,
      webhooks: { a: { on: 'Claim.created', url, secret } },
    });
    const cases = [
      hook('${URL}', '${SECRET}'),
      hook('https://x.example/${T}', '${SECRET}'),
      hook('${URL}', 'whsec_c2VjcmV0'),
      hook('ftp://x.example', '${SECRET}'),
      hook('${URL}', 'whsec_${SECRET}'),
    ];
    for (const doc of cases) {
      const compiled = compile(JSON.stringify(doc), { file: 'hooks.yaml' }).ok;
      expect(validate(doc), JSON.stringify(doc.webhooks)).toBe(compiled);
    }
  });

  it('refuses in `auth` what the compiler refuses: domains, issuers, a secret in clear, empty names', () => {
    const roles = { employee: { label: 'Employee' } };
    const authDoc = (auth: Record<string, unknown>) => ({ roles, auth });
    const sso = (oidc: Record<string, unknown>) =>
      authDoc({ oidc: { issuer: '${I}', clientId: 'c', clientSecret: '${S}', ...oidc } });
    const cases = [
      authDoc({
        signUp: 'employee',
        signUpDomains: ['example.com', 'mail.Example.co.uk', 'xn--bcher-kva.example'],
      }),
      authDoc({ signUp: 'employee', signUpDomains: 'example.com' }),
      ...[
        '@example.com',
        'localhost',
        '*.example.com',
        '10.0.0.1',
        '-a.com',
        'a..com',
        `${'a'.repeat(64)}.com`,
      ].map((domain) => authDoc({ signUp: 'employee', signUpDomains: [domain] })),
      authDoc({ tokens: 'employee', passwordReset: true }),
      authDoc({ passwordReset: 'yes' }),
      authDoc({ signup: 'employee' }),
      ...[
        'https://login.example.com/realms/a',
        'https://${T}.example.com',
        'http://localhost:4000',
        'http://127.0.0.1',
        'http://login.example.com',
        'ftp://login.example.com',
        'login.example.com',
        'http://${HOST}',
      ].map((issuer) => sso({ issuer })),
      sso({ clientSecret: 's3cr3t' }),
      sso({ clientSecret: 'x${S}' }),
      sso({ clientId: '' }),
      sso({ label: ' ' }),
      sso({ label: 'Acme', roles: { claim: 'groups', map: { staff: 'employee' } } }),
      sso({ roles: { claim: '', map: { staff: 'employee' } } }),
      sso({ roles: { claim: 'groups' } }),
      sso({ roles: { claim: 'groups', map: {}, extra: 1 } }),
      authDoc({ oidc: { issuer: '${I}', clientId: 'c' } }),
    ];
    for (const doc of cases) {
      const compiled = compile(JSON.stringify(doc), { file: 'auth.yaml' }).ok;
      expect(validate(doc), JSON.stringify(doc.auth)).toBe(compiled);
    }
  });

  it('refuses the transition names the compiler reserves, and only those', () => {
    for (const name of [
      'create',
      'update',
      'delete',
      'read',
      'transition',
      'created',
      'deleted',
      'approve',
    ]) {
      const doc = {
        entities: { Ticket: { fields: { title: 'string' } } },
        states: { Ticket: { initial: 'open', transitions: { [name]: { from: 'open', to: 'done' } } } },
      };
      const reserved = compile(JSON.stringify(doc), { file: 't.yaml' }).diagnostics.some(
        (d) => d.code === 'NF209',
      );
      expect(!validate(doc), name).toBe(reserved);
    }
  });

  it('bounds every number of `limits` and `calls` where the compiler does', () => {
    const disagreements: string[] = [];
    for (const section of ['limits', 'calls'] as const) {
      const properties = top(section)['properties'] as Record<string, JsonSchema>;
      for (const [key, schema] of Object.entries(properties)) {
        if (schema['type'] !== 'integer') continue;
        const [min, max] = [schema['minimum'] as number, schema['maximum'] as number];
        for (const value of [min - 1, min, max, max + 1]) {
          // a page size is also checked against the largest page, so that one is out of the way
          const base = section === 'limits' ? { pageSize: 1, maxPageSize: 10_000 } : {};
          const doc = { [section]: { ...base, [key]: value } };
          const compiled = compile(JSON.stringify(doc), { file: 'limits.yaml' }).ok;
          if (compiled !== validate(doc)) disagreements.push(`${section}.${key}: ${value}`);
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('reads sizes and media types as the compiler does (decision 0051)', () => {
    const disagreements: string[] = [];
    // a size written with a unit is bounded by the compiler alone (`6GB`): a pattern cannot compare numbers
    const sizes = [
      10485760,
      '10485760',
      '10MB',
      '512KB',
      '512 kb',
      '1.5GB',
      '5GB',
      0,
      1023,
      '10 megabytes',
      '1KiB',
      -1,
      1.5,
    ];
    const accepts = [['application/pdf', 'image/*'], ['IMAGE/PNG'], ['pdf'], ['*/*'], ['image/'], []];
    const docs: [string, Record<string, unknown>][] = [
      ...sizes.map((size): [string, Record<string, unknown>] => [
        `limits.maxUploadSize: ${JSON.stringify(size)}`,
        { limits: { maxUploadSize: size } },
      ]),
      ...sizes.map((size): [string, Record<string, unknown>] => [
        `maxSize: ${JSON.stringify(size)}`,
        { entities: { Claim: { fields: { receipt: { type: 'file', maxSize: size } } } } },
      ]),
      ...accepts.map((accept): [string, Record<string, unknown>] => [
        `accept: ${JSON.stringify(accept)}`,
        { entities: { Claim: { fields: { receipt: { type: 'file', accept } } } } },
      ]),
    ];
    for (const [what, doc] of docs) {
      const compiled = compile(JSON.stringify(doc), { file: 'files.yaml' }).ok;
      if (compiled !== validate(doc))
        disagreements.push(`${what}: compiler ${compiled}, schema ${!compiled}`);
    }
    expect(disagreements).toEqual([]);
  });

  it('knows every colour scheme the compiler knows', () => {
    for (const scheme of ['auto', 'light', 'dark', 'sepia']) {
      const doc = { product: { theme: { colorScheme: scheme } } };
      const ok = compile(JSON.stringify(doc), { file: 'p.yaml' }).ok;
      expect(validate(doc), scheme).toBe(ok);
    }
  });
});

describe('typical mistakes are flagged, as an editor would underline them', () => {
  const flagged = (yaml: string) => errorsOf(parse(yaml)).join('\n');

  it('a misspelt field key', () => {
    const spec = 'entities: { Claim: { fields: { title: { type: string, maxLenght: 120 } } } }';
    expect(flagged(spec)).toMatch(/\/entities\/Claim\/fields\/title .*"additionalProperty":"maxLenght"/);
  });

  it('an unknown field type, written out or as the shorthand', () => {
    expect(flagged('entities: { Claim: { fields: { title: { type: strng } } } }')).toMatch(
      /\/entities\/Claim\/fields\/title\/type must be equal to one of the allowed values/,
    );
    expect(flagged('entities: { Claim: { fields: { title: strng } } }')).toMatch(
      /\/entities\/Claim\/fields\/title must be equal to one of the allowed values/,
    );
  });

  it('a lower-case entity name', () => {
    expect(flagged('entities: { claim: { fields: { title: string } } }')).toMatch(
      /\/entities .*"propertyName":"claim"/,
    );
  });

  it('a constraint on a type it does not apply to, and a missing currency', () => {
    expect(flagged('entities: { Claim: { fields: { title: { type: string, currency: EUR } } } }')).not.toBe(
      '',
    );
    expect(flagged('entities: { Claim: { fields: { amount: { type: money } } } }')).toMatch(
      /must have required property 'currency'/,
    );
  });

  it('an unknown top-level key, screen kind, colour scheme and error code shape', () => {
    expect(flagged('entitys: {}')).toMatch(/"additionalProperty":"entitys"/);
    expect(flagged('screens: { home: { kind: gallery, entity: Claim } }')).toMatch(/\/screens\/home\/kind/);
    expect(flagged('product: { theme: { colorScheme: sepia } }')).toMatch(/colorScheme/);
    expect(flagged('errors: { RECEIPT_REQUIRED: "Needs a receipt." }')).toMatch(
      /"propertyName":"RECEIPT_REQUIRED"/,
    );
    expect(flagged('errors: { E_NEW: { status: 422 } }')).toMatch(/must have required property 'message'/);
  });
});
