/**
 * The JSON Schema of the YAML notation, for editors: yaml-language-server turns it into completion,
 * hover text and red squiggles while a spec is typed. The compiler stays the authority (it checks
 * names across facets, expressions and messages, which no schema can); the schema catches the shape.
 *
 * Every object is built from the key lists the facet readers accept, through tables typed
 * `Record<Key, …>`, so a key added to a reader fails the build until the schema documents it.
 *
 * @example
 * import Ajv2020 from 'ajv/dist/2020.js';
 * const validate = new Ajv2020().compile(notationSchema);
 * validate(YAML.parse(text)); // false for `maxLenght: 10`, with the path of the mistake
 */
import { TOP_LEVEL_KEYS } from './compile.js';
import {
  type JsonSchema,
  dictionary,
  escape,
  expr,
  flag,
  int,
  nameOf,
  names,
  need,
  orNull,
  ref,
  strictObject,
  text,
} from './notation-schema-parts.js';
import { entities, entity, field, fieldName } from './notation-schema-entities.js';
import { BUILTIN_ERRORS, RESERVED_PATHS } from '@ninefold/model';
import { LIMIT_KEYS } from './facets/constants.js';
import { MAX_FILE_SIZE, SIZE_PATTERN } from './facets/field-files.js';
import { authSchema } from './notation-schema-auth.js';
import { widgetsSchema } from './notation-schema-widgets.js';
import { ERROR_KEYS } from './facets/errors.js';
import { CALLS_KEYS, PRODUCT_KEYS, THEME_KEYS } from './facets/product.js';
import { LIFECYCLE_EVENTS } from './facets/events.js';
import { NOTIFICATION_KEYS, CHANNELS } from './facets/notifications.js';
import { NAME_RULES } from './facets/reader.js';
import { WEBHOOK_KEYS } from './facets/webhooks.js';
import { ACCESS_KEYS, FIELD_ACCESS_KEYS, ROLE_KEYS } from './facets/roles.js';
import { RULE_KEYS } from './facets/rules.js';
import { NAV_KEYS, SCREEN_KEYS } from './facets/screens.js';
import { MACHINE_KEYS, STATE_KEYS, TRANSITION_KEYS } from './facets/states.js';
import { SCREEN_KINDS, type Theme } from '@ninefold/model';

export type { JsonSchema } from './notation-schema-parts.js';

export const NOTATION_SCHEMA_ID = 'https://ninefold.dev/schema/notation.json';

/** Typed by the model, so a colour scheme added there fails the build until it is described here. */
const COLOR_SCHEMES: Readonly<Record<Theme['colorScheme'], string>> = {
  auto: 'follow the device',
  light: 'always light',
  dark: 'always dark',
};
/** Transition names the compiler refuses (NF209): they name record operations or events. */
const RESERVED_TRANSITIONS = ['create', 'update', 'delete', 'read', 'transition', ...LIFECYCLE_EVENTS];

// ---------------------------------------------------------------------------------------------
// 1. product, 7. calls

const theme = strictObject(
  THEME_KEYS,
  {
    primaryColor: text('The main colour: a hex colour like `#1c7ed6` or a colour name like `teal`.', {
      pattern: '^#(?:[0-9a-fA-F]{3}){1,2}$|^[a-z]+$',
    }),
    colorScheme: text(
      `The colour scheme: ${Object.entries(COLOR_SCHEMES)
        .map(([k, v]) => `\`${k}\` (${v})`)
        .join(', ')}. Default \`auto\`.`,
      { enum: Object.keys(COLOR_SCHEMES) },
    ),
  },
  { description: 'How the app looks.' },
);

const product = strictObject(
  PRODUCT_KEYS,
  {
    name: text("The product's name, shown in the app shell. Defaults to the document's `#` title."),
    summary: text("What the product does, in a sentence. Defaults to section 1's first paragraph."),
    audience: {
      description: 'Who uses the product: one text, or a list with one entry per group.',
      anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }, { type: 'null' }],
    },
    locale: text('BCP 47 tag for messages, numbers and dates, like `en`, `en-GB` or `de-DE`. Default `en`.'),
    locales: {
      description:
        'The locales the product is offered in, the default first (BCP 47 tags, like `[en-GB, fr-FR]`). Each other locale reads its words from `<spec>.<locale>.yaml` beside the spec.',
      type: 'array',
      items: { type: 'string' },
    },
    theme,
    dashboard: flag(
      'Offer each role a generated dashboard as its landing screen when the spec declares none. Default false.',
    ),
  },
  { title: 'Product', description: 'Section 1: what the product does and for whom.' },
);

const calls = strictObject(
  CALLS_KEYS,
  {
    basePath: text('Where the generated REST API is mounted, like `/api` (the default).', {
      pattern: '^/[a-z0-9-]+(?:/[a-z0-9-]+)*$',
    }),
    timeoutMs: int('How long the client waits for a response, in milliseconds. Default 10000.', 100, 300_000),
    retries: int(
      'How often a request is retried after a network failure (a write with its Idempotency-Key). Default 2.',
      0,
      10,
    ),
    offlineQueue: flag('Whether the client queues writes made offline and replays them. Default true.'),
    realtime: flag(
      'Whether changes arrive live in every open page that may see them (the `events` stream). Default true.',
    ),
  },
  { title: 'Calls', description: 'Section 7: how the client reaches the generated API.' },
);

// ---------------------------------------------------------------------------------------------
// 7. notifications and webhooks

/** `Entity.created`, `Entity.updated`, `Entity.deleted` or `Entity.<transition>`. */
const EVENT_PATTERN = '^[A-Z][A-Za-z0-9]*\\.[a-z][A-Za-z0-9_]*$';
/** A text that is exactly one `${NAME}` reference to the environment. */
const ENV_REFERENCE = '^\\$\\{[A-Za-z_][A-Za-z0-9_]*\\}$';
const events = names(
  'The changes it listens to: `Entity.created`, `Entity.updated`, `Entity.deleted` or `Entity.<transition>`, one or a list.',
  { type: 'string', pattern: EVENT_PATTERN },
);

const notification = strictObject(
  NOTIFICATION_KEYS,
  {
    on: events,
    to: names(
      "Who is told: the record's ref-to-User fields (one or many), its email fields (e-mail only) or role names.",
    ),
    channels: names('How: `app` (the bell) and/or `email`. Default `[app]`.', { enum: [...CHANNELS] }),
    subject: text(
      "The title, in ICU MessageFormat over the record's fields, `id`, `createdAt`, `updatedAt`, `state`, the constants and `user.id`, `user.name`, `user.email` (who made the change).",
    ),
    message: text('The body, in ICU MessageFormat over the same names as the subject. Default empty.'),
    mandatory: flag('True when users may not turn it off in their profile. Default false.'),
  },
  { title: 'Notification', description: 'Who is told what, and when.', required: ['on', 'to', 'subject'] },
);

const webhook = strictObject(
  WEBHOOK_KEYS,
  {
    on: events,
    url: text('Where to post: an http(s) URL, usually a `${NAME}` read from the environment at start.', {
      anyOf: [{ pattern: ENV_REFERENCE }, { pattern: '^https?://' }],
    }),
    secret: text(
      'The signing secret (Standard Webhooks, `whsec_<base64>`): always a `${NAME}` read from the environment at start, never written in the spec.',
      { pattern: ENV_REFERENCE },
    ),
  },
  {
    title: 'Webhook',
    description: 'Where changes are posted, signed as the Standard Webhooks specification says.',
    required: ['on', 'url', 'secret'],
  },
);

// ---------------------------------------------------------------------------------------------
// 4. states

const state = strictObject(
  STATE_KEYS,
  {
    label: text('The name shown on the state badge. Defaults to the state name in words.'),
    terminal: flag('A state no transition leaves; inferred when none does.'),
    color: text('The badge colour: a Mantine colour name or a CSS colour.'),
  },
  { title: 'State' },
);

const stateName = nameOf('state');

const transition = strictObject(
  TRANSITION_KEYS,
  {
    from: names('The state or states it leaves; `*` for any state.', {
      type: 'string',
      pattern: `^\\*$|${NAME_RULES.state.pattern.source}`,
    }),
    to: text('The state it enters.', { pattern: NAME_RULES.state.pattern.source }),
    roles: names(
      'The role or roles that may fire it; without it, every role that may update the record.',
      nameOf('role'),
    ),
    when: expr('A guard over the record before the transition.'),
    error: text(
      'The catalogue code answered when the guard does not hold. Default `E_TRANSITION_GUARD`, whose message names the condition.',
      { pattern: NAME_RULES.error.pattern.source },
    ),
    require: names('Fields that must have a value once the transition’s input is applied.', nameOf('field')),
    set: {
      type: 'object',
      description: 'Fields the transition sets, each to an expression’s value, like `paidOn: now`.',
      propertyNames: nameOf('field'),
      additionalProperties: { type: ['string', 'number', 'boolean', 'null'] },
    },
    confirm: {
      description: 'A question to confirm before firing, or `true` for "<Transition>?".',
      type: ['string', 'boolean'],
    },
    label: text('The action’s label. Defaults to the transition name in words.'),
    after: text(
      'Fired by the system this long after the record entered a `from` state: a positive whole number and a unit (s, m, h, d, w), like `7d`. Not with `roles` or `at`.',
      { pattern: '^[1-9][0-9]*[smhdw]$' },
    ),
    at: text(
      'Fired by the system at the time a date or datetime field of the record holds. Not with `roles` or `after`.',
      { pattern: NAME_RULES.field.pattern.source },
    ),
  },
  { title: 'Transition', required: ['from', 'to'] },
);

const machine = strictObject(
  MACHINE_KEYS,
  {
    initial: text('The state a new record starts in.', { pattern: NAME_RULES.state.pattern.source }),
    states: {
      description:
        'The states: a list of names, or a mapping of names to label, colour and terminal. May be left out: transitions name them.',
      anyOf: [
        { type: 'array', items: stateName, uniqueItems: true },
        dictionary('state', { anyOf: [{ type: 'null' }, ref('state')] }),
      ],
    },
    transitions: dictionary('transition', ref('transition'), {
      description: 'The transitions by name: the only way the state changes.',
      propertyNames: { not: { enum: RESERVED_TRANSITIONS } },
    }),
  },
  { title: 'State machine', required: ['initial'] },
);

// ---------------------------------------------------------------------------------------------
// 5. rules

const rule = strictObject(
  RULE_KEYS,
  {
    id: text('A kebab-case id, like `receipt-over-threshold`.', { pattern: NAME_RULES.rule.pattern.source }),
    entity: text('The entity whose records it checks.', { pattern: NAME_RULES.entity.pattern.source }),
    description: text('What the rule means, for the help page.'),
    when: expr('The rule is checked only when this holds.'),
    assert: expr('What every record must satisfy.'),
    error: text('The catalogue code reported when the assertion fails. Default `E_VALIDATION`.', {
      pattern: NAME_RULES.error.pattern.source,
    }),
    fields: names('Fields the error is shown beside.', nameOf('field')),
    on: names('When it applies: `create`, `update` or a transition name. Default: always.'),
  },
  { title: 'Rule', required: ['id', 'entity', 'assert'] },
);

// ---------------------------------------------------------------------------------------------
// 6. roles

const grant = (action: string): JsonSchema => ({
  description: `Whether the role may ${action}: true, false, \`all\`, \`own\` (records it owns) or a CEL condition.`,
  type: ['boolean', 'string'],
});

const access: JsonSchema = {
  title: 'Access',
  description:
    'What a role may do with an entity: `true` for everything, `false` for nothing, or per action.',
  anyOf: [
    { type: 'boolean' },
    strictObject(ACCESS_KEYS, {
      read: grant('read records (also filters lists, so it must compile to SQL)'),
      create: grant('create records'),
      update: grant('update records'),
      delete: grant('delete records'),
      fields: strictObject(
        FIELD_ACCESS_KEYS,
        {
          read: names('The only fields the role may read.', nameOf('field')),
          write: names('The only fields the role may write.', nameOf('field')),
        },
        { description: 'Narrows the fields the role reads or writes.' },
      ),
    }),
  ],
};

const role = strictObject(
  ROLE_KEYS,
  {
    label: text('The role’s name as shown to people. Defaults to the role name in words.'),
    description: text('Who has the role.'),
    inherits: names('Roles whose permissions this role has too.', nameOf('role')),
  },
  {
    title: 'Role',
    description: 'A role: label, description, inherits, and an access entry per PascalCase entity name.',
    patternProperties: { [NAME_RULES.entity.pattern.source]: ref('access') },
  },
);

// ---------------------------------------------------------------------------------------------
// 2. screens and nav

const fieldList = (description: string) => names(description, { type: 'string' });

const screen = strictObject(
  SCREEN_KEYS,
  {
    path: text('The route, like `/claims` or `/claims/:id`; detail and edit screens take `:id`.', {
      pattern: '^/[A-Za-z0-9\\-_/:.]*$',
      not: { pattern: `^(?:${RESERVED_PATHS.map(escape).join('|')})(?:/|$)` },
    }),
    kind: text('What the screen shows. Default `list`.', { enum: [...SCREEN_KINDS] }),
    entity: text('The entity it shows; every kind but `page` and `dashboard` needs one.', {
      pattern: NAME_RULES.entity.pattern.source,
    }),
    title: text('The heading. Defaults from the entity and kind.'),
    roles: names('Roles that may open it; without it, every role that may read its entity.', nameOf('role')),
    columns: fieldList('Fields shown as columns of a list.'),
    fields: fieldList('Fields shown, in order (columns of a list, rows of a detail, inputs of a form).'),
    filters: fieldList('Fields offered as filters on a list.'),
    where: expr('A fixed condition on the rows a list shows; must compile to SQL.'),
    sort: text('Default sort of a list: a field name, `-` first for descending.', {
      pattern: '^-?[a-z][A-Za-z0-9]*$',
    }),
    actions: names('Actions offered: `create`, `edit`, `delete`, `export`, or a transition name.'),
    body: text('The Markdown body of a `page`.'),
    widgets: widgetsSchema,
    related: {
      description:
        'The sections of a detail screen, in order: `Child.field`, a ref of the child to the screen’s entity; `[]` for none. Default: every single ref to the entity.',
      type: 'array',
      items: { type: 'string', pattern: '^[A-Z][A-Za-z0-9]*\\.[a-z][A-Za-z0-9]*$' },
    },
  },
  {
    title: 'Screen',
    allOf: [
      {
        if: { properties: { kind: { enum: ['page', 'dashboard'] } }, required: ['kind'] },
        else: need('entity'),
      },
      {
        if: { properties: { kind: { enum: ['detail', 'edit'] } }, required: ['kind'] },
        then: { properties: { path: { type: 'string', pattern: ':id' } } },
        else: { properties: { path: { type: 'string', not: { pattern: ':id' } } } },
      },
    ],
  },
);

const navItem: JsonSchema = {
  title: 'Navigation entry',
  description: 'A screen id, or a mapping with `screen`, `label` and `icon`.',
  anyOf: [
    nameOf('screen'),
    strictObject(
      NAV_KEYS,
      {
        screen: text('The id of the screen it opens (a list, create, page or dashboard screen).', {
          pattern: NAME_RULES.screen.pattern.source,
        }),
        label: text('The entry’s label. Defaults to the screen’s title.'),
        icon: text('An icon name.'),
      },
      { required: ['screen'] },
    ),
  ],
};

// ---------------------------------------------------------------------------------------------
// 8. errors, 9. constants and limits

const errorShape = (requireMessage: boolean): JsonSchema => ({
  anyOf: [
    text('The message alone.'),
    strictObject(
      ERROR_KEYS,
      {
        status: int('The HTTP status, 400–599. Default 422.', 400, 599),
        message: text(
          'An ICU MessageFormat template; arguments are fields, constants and `{field}`, `{value}`…',
        ),
        field: fieldName('The field the error is shown beside.'),
        description: text('When the error happens, for the help page.'),
      },
      requireMessage ? { required: ['message'] } : {},
    ),
  ],
});

const errors: JsonSchema = {
  title: 'Errors',
  description:
    'Section 8: the error catalogue by E_UPPER_SNAKE code. Declaring a built-in code overrides its message or status.',
  type: 'object',
  propertyNames: nameOf('error'),
  properties: Object.fromEntries(
    BUILTIN_ERRORS.map((e) => [
      e.code,
      {
        description: `Built in (${e.status}): ${e.description} Default message: "${e.message}"`,
        ...ref('builtinError'),
      },
    ]),
  ),
  additionalProperties: ref('error'),
};

const perMinute = (description: string) => int(description, 1, 1_000_000);

const limits = strictObject(
  LIMIT_KEYS,
  {
    pageSize: int('Default rows per list page. Default 50.', 1, 1000),
    maxPageSize: int('The most rows a client may ask for in one page. Default 200.', 1, 10_000),
    maxBodyBytes: int('The largest request body accepted, in bytes. Default 1 MiB.', 1024, 100 * 1024 * 1024),
    maxUploadSize: {
      description:
        'The largest file a file or image field holds when it names no maxSize: `10MB`, `512KB`, `1.5GB` (powers of 1024) or a whole number of bytes. Default 10MB.',
      anyOf: [
        { type: 'integer', minimum: 1024, maximum: MAX_FILE_SIZE },
        { type: 'string', pattern: SIZE_PATTERN },
      ],
    },
    requestsPerMinute: {
      description:
        'Requests per minute and client: one number, or a mapping by role with `default` (signed in) and `guest`.',
      anyOf: [
        perMinute('Requests per minute for every signed-in user.'),
        dictionary('role', perMinute('Requests per minute for this role.')),
      ],
    },
    loginAttemptsPerMinute: int(
      'Login attempts per minute from one address; an account’s failures from all addresses are capped at ten times this. Default 10.',
      1,
      10_000,
    ),
    sessionIdleMinutes: int('Minutes without activity before a session ends. Default 60.', 1, 60 * 24 * 30),
    sessionAbsoluteHours: int('Hours after which a session ends in any case. Default 24.', 1, 24 * 365),
  },
  { title: 'Limits', description: 'Section 9: limits the server enforces; each has a default.' },
);

const constants: JsonSchema = dictionary(
  'constant',
  { description: 'A number, text or boolean.', type: ['number', 'string', 'boolean'] },
  {
    title: 'Constants',
    description: 'Section 9: business constants by UPPER_SNAKE name, usable in bounds, rules and messages.',
  },
);

// ---------------------------------------------------------------------------------------------
// the document

const TOP: Readonly<Record<keyof typeof TOP_LEVEL_KEYS, JsonSchema>> = {
  product,
  screens: dictionary('screen', ref('screen'), {
    title: 'Screens',
    description:
      'Section 2: screens by id. Without any, every entity gets list, detail, create and edit screens.',
  }),
  nav: {
    title: 'Navigation',
    description: 'Section 2: the navigation, in order. Defaults to every list and page.',
    type: 'array',
    items: ref('navItem'),
  },
  entities,
  states: dictionary('entity', ref('machine'), {
    title: 'States',
    description: 'Section 4: a state machine per entity name.',
  }),
  rules: {
    title: 'Rules',
    description: 'Section 5: invariants over one entity’s records, each with an error code.',
    type: 'array',
    items: ref('rule'),
  },
  roles: dictionary(
    'role',
    { anyOf: [{ type: 'null' }, ref('role')] },
    {
      title: 'Roles',
      description:
        'Section 6: roles by lower-case name. Without any, one `user` role may do everything after login.',
    },
  ),
  auth: authSchema,
  calls,
  notifications: dictionary('notification', ref('notification'), {
    title: 'Notifications',
    description: 'Section 7: who is told what, and when, by kebab-case name.',
  }),
  webhooks: dictionary('webhook', ref('webhook'), {
    title: 'Webhooks',
    description: 'Section 7: where changes are posted, by kebab-case name.',
  }),
  errors,
  constants,
  limits,
};

/** The JSON Schema (draft 2020-12) of a spec written as YAML, or of a Markdown spec's merged blocks. */
export const notationSchema: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: NOTATION_SCHEMA_ID,
  title: 'Ninefold spec',
  description:
    'A Ninefold product spec: the nine facets of a product, from which Ninefold runs the product it describes.',
  type: 'object',
  properties: Object.fromEntries(
    (Object.keys(TOP_LEVEL_KEYS) as (keyof typeof TOP_LEVEL_KEYS)[]).map((key) => [key, orNull(TOP[key])]),
  ),
  additionalProperties: false,
  $defs: {
    field,
    entity,
    machine,
    state,
    transition,
    rule,
    role,
    access,
    screen,
    navItem,
    notification,
    webhook,
    error: {
      title: 'Error',
      description: 'An error: its message, or status, message and field.',
      ...errorShape(true),
    },
    builtinError: { title: 'Built-in error', ...errorShape(false) },
  },
};
