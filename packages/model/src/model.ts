/**
 * The compiled model: what the compiler produces from a spec and what every runtime consumes.
 *
 * It is plain, serialisable data (JSON round-trips it unchanged) and it holds no parser state:
 * the server and the client load it as it is. Expressions travel as checked CEL source text that
 * the engine parses once and caches.
 */
import { type Auth } from './auth-model.js';
import { type ErrorCode, type ErrorDef } from './error-catalogue.js';

export const MODEL_VERSION = 1;

/** The nine facets of a spec, in section order. */
export const FACETS = [
  'product',
  'screens',
  'entities',
  'states',
  'rules',
  'roles',
  'calls',
  'errors',
  'constants',
] as const;
export type FacetKey = (typeof FACETS)[number];

export interface Model {
  readonly modelVersion: typeof MODEL_VERSION;
  readonly product: Product;
  /** Every entity, the built-in `User` included, by name in declaration order. */
  readonly entities: Readonly<Record<string, Entity>>;
  /** State machines by entity name. */
  readonly states: Readonly<Record<string, StateMachine>>;
  readonly rules: readonly Rule[];
  /** Roles with inheritance already resolved: each role holds everything it may do. */
  readonly roles: Readonly<Record<string, Role>>;
  readonly screens: readonly Screen[];
  readonly nav: readonly NavItem[];
  readonly calls: Calls;
  /** Who is told what, and when (section 7, `notifications:`), by name in declaration order. */
  readonly notifications: Readonly<Record<string, Notification>>;
  /**
   * Where changes are posted (section 7, `webhooks:`), by name. Never sent to a client: their URLs
   * and secrets are `${NAME}` references the server resolves from its environment at start.
   */
  readonly webhooks: Readonly<Record<string, Webhook>>;
  /**
   * Who may sign themselves in, and how (section 6, `auth:`; decision 0035): sign-up, password
   * reset, personal API tokens, single sign-on. `DEFAULT_AUTH` when the spec says nothing.
   */
  readonly auth: Auth;
  /** The error catalogue: the built-in codes, overridden and extended by the spec. */
  readonly errors: Readonly<Record<string, ErrorDef>>;
  readonly constants: Readonly<Record<string, Constant>>;
  readonly limits: Limits;
  /** What each section of the spec said, and whether it specified its facet at all. */
  readonly facets: Readonly<Record<FacetKey, Facet>>;
  /**
   * True on the model a signed-out visitor gets (`<basePath>/model` and the page): only what the
   * sign-in, help and about pages need — no entities, screens, roles, rules or constants
   * (decision 0027). The app loads the whole model once signed in.
   */
  readonly signedOut?: true;
  /**
   * The spec's own words in its other locales (decision 0068): by locale, then by flat dotted key
   * (`entities.Claim.label`, `errors.E_OVER_LIMIT.message`; `specTexts` names them all). Only what
   * the translation files say; an untranslated word stays the default locale's. Absent or empty
   * when the spec has one locale. `localizeModel` applies them.
   */
  readonly translations?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface Facet {
  readonly section: number;
  readonly title: string;
  /** False when the section is missing, empty or says only "not shown": defaults apply. */
  readonly specified: boolean;
  /** The section's prose, for the app's help page. */
  readonly prose: string;
  /** What the runtime does in place of an unspecified facet, in one sentence. */
  readonly defaultBehaviour: string;
}

export interface Product {
  readonly name: string;
  readonly summary: string;
  /** Who it is for, one entry per group; the notation takes one text or a list (decision 0064). */
  readonly audience: readonly string[];
  /**
   * BCP 47 tag used for messages, numbers and dates: the spec's default (`product.locales[0]`). The
   * app and the server hand a localized model (`localizeModel`) whose locale is the reader's.
   */
  readonly locale: string;
  /**
   * The locales the product is offered in, its default first (`product.locales`, or the one
   * `product.locale`; decision 0067). A person picks among them.
   */
  readonly locales: readonly string[];
  readonly theme: Theme;
  /**
   * Whether each role's landing screen may be a generated dashboard when the spec declares none
   * (`product.dashboard: true`; decision 0046). False by default: never a surprise.
   */
  readonly dashboard: boolean;
}

export interface Theme {
  /** A CSS colour. */
  readonly primaryColor: string;
  readonly colorScheme: 'auto' | 'light' | 'dark';
}

// ---------------------------------------------------------------------------------------------
// Expressions

/**
 * A CEL expression, parsed and type-checked at compile time.
 *
 * `source` is normalised CEL: the shorthand `has(field)` is already rewritten to
 * `has(self.field)`, so any conforming CEL implementation can evaluate it.
 */
export interface Expr {
  readonly source: string;
  /** The top-level names it reads: fields, constants, `user`, `old`, `now`, `today`, `own`, `self`. */
  readonly names: readonly string[];
}

// ---------------------------------------------------------------------------------------------
// Entities

export const FIELD_TYPES = [
  'string',
  'text',
  'integer',
  'decimal',
  'money',
  'boolean',
  'date',
  'datetime',
  'time',
  'enum',
  'email',
  'url',
  'phone',
  'ref',
  'json',
  'color',
  'file',
  'image',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** The columns every record has; a spec cannot declare fields with these names. */
export const SYSTEM_FIELDS = ['id', 'createdAt', 'updatedAt', 'createdBy', 'version', 'state'] as const;
export type SystemField = (typeof SYSTEM_FIELDS)[number];

export interface Entity {
  readonly name: string;
  readonly label: string;
  readonly pluralLabel: string;
  /** The REST resource name: `/api/<resource>`. */
  readonly resource: string;
  readonly description: string;
  /** The ref-to-User field that makes a record "own" for a user, if any. */
  readonly owner: string | null;
  /** The field shown as the record's title in lists, pickers and breadcrumbs. */
  readonly display: string;
  /**
   * How a record is named when its display field alone does not name it (decision 0065): the
   * fields joined by a space (`firstName lastName`), after a prefix (`Invoice 42`). Absent: the
   * display field alone. `recordName` reads it.
   */
  readonly title?: EntityTitle;
  /** The text fields searched by `?q=`. */
  readonly search: readonly string[];
  readonly fields: Readonly<Record<string, Field>>;
  /**
   * Virtual fields that name a child relation (`lines: { type: children, entity: OrderLine, via:
   * order }`), by name: never stored, never written, readable in computed values as a list of the
   * children (`sum(lines.map(l, l.amount))`; decision 0045).
   */
  readonly children: Readonly<Record<string, ChildRelation>>;
  /** True for the built-in `User` entity. */
  readonly builtin: boolean;
}

/** The parts of a record's name: its fields' values joined by a space, after `prefix` when not empty. */
export interface EntityTitle {
  readonly fields: readonly string[];
  readonly prefix: string;
}

/** A bound that may name a constant; `value` is already resolved. */
export interface Bound {
  /** A number for integer and length bounds; an exact decimal string for decimal and money. */
  readonly value: number | string;
  readonly constant: string | null;
}

/** A default: a literal, or an expression evaluated when the record is created. */
export type FieldDefault = { readonly value: Value } | { readonly expr: Expr };

export interface Field {
  readonly name: string;
  readonly type: FieldType;
  readonly label: string;
  readonly help: string;
  readonly required: boolean;
  readonly unique: boolean;
  /** Never written by a client: set by a default, a transition's `set`, or the system. */
  readonly readonly: boolean;
  readonly default: FieldDefault | null;
  /** Numeric, money and calendar bounds (inclusive). */
  readonly min: Bound | null;
  readonly max: Bound | null;
  /** Length bounds for text-like fields; item-count bounds for `many` fields. */
  readonly minLength: Bound | null;
  readonly maxLength: Bound | null;
  /** An ECMAScript regular expression (with the `u` flag) that the whole value must match. */
  readonly pattern: string | null;
  /** Allowed values of an enum. */
  readonly values: readonly string[] | null;
  /**
   * For an enum: the label of every one of its values, by value — the spec's `valueLabels`, else the
   * value humanised (`high_risk` → "High risk"); translated like every text of the spec. What every
   * place that shows or offers a value shows (`enumLabel`). Absent for every other type.
   */
  readonly valueLabels?: Readonly<Record<string, string>>;
  /** ISO 4217 currency of a money field. */
  readonly currency: string | null;
  /** Digits after the decimal point of a decimal or money field. */
  readonly scale: number | null;
  /** Total significant digits of a decimal or money field (at most 15, so doubles compare exactly). */
  readonly precision: number | null;
  /** Target entity of a ref. */
  readonly to: string | null;
  /** A list of refs, of enum values, or of files. */
  readonly many: boolean;
  /**
   * For a ref: what deleting the record it points at does to this record (decision 0043);
   * `restrict` unless the spec says otherwise. Null for every other type.
   */
  readonly onDelete: OnDelete | null;
  /**
   * A value derived from the record's own fields and its children (`computed:`; decision 0045):
   * read-only, never accepted in a write, brought up to date in the transaction of every write of
   * the record or of one of its children. Null for a field a person or the system sets.
   */
  readonly computed: Expr | null;
  /**
   * For a file or image: the largest file it holds, in bytes (`maxSize: 10MB`; KB, MB and GB are
   * powers of 1024; decision 0050). The spec's `limits.maxUploadSize` when it says nothing. Null
   * for every other type.
   */
  readonly maxSize: number | null;
  /**
   * For a file or image: the media types it accepts, as sniffed from the content, never from the
   * name (`application/pdf`, `image/*`). Null for any file (an image: `DEFAULT_IMAGE_ACCEPT`, which
   * the compiler fills in) and for every other type.
   */
  readonly accept: readonly string[] | null;
}

/**
 * What deleting a referenced record does to a ref that points at it: refuse the delete
 * (`restrict`, 409 E_REFERENCED), delete the referring records too (`cascade`), or empty the ref
 * (`setNull`, only for a field that is not required; a `many` ref loses the one item).
 */
export const ON_DELETE = ['restrict', 'cascade', 'setNull'] as const;
export type OnDelete = (typeof ON_DELETE)[number];

/**
 * A parent's view of its children: the records of `entity` whose ref field `via` points at the
 * parent (`lines: { type: children, entity: OrderLine, via: order }`).
 */
export interface ChildRelation {
  readonly name: string;
  readonly label: string;
  readonly entity: string;
  /** The child's ref field (single, not `many`) that points at the parent entity. */
  readonly via: string;
}

/**
 * Values as they travel in JSON and through the engine: exact, and unambiguous.
 * decimal and money: a decimal string ("12.50"); date "2026-11-23"; time "09:30" or "09:30:15";
 * datetime: an ISO 8601 instant in UTC ("2026-11-23T09:30:00.000Z").
 */
export type Value = string | number | boolean | null | readonly Value[] | { readonly [key: string]: Value };

// ---------------------------------------------------------------------------------------------
// States

export interface StateMachine {
  readonly entity: string;
  readonly initial: string;
  readonly states: Readonly<Record<string, State>>;
  readonly transitions: Readonly<Record<string, Transition>>;
}

export interface State {
  readonly name: string;
  readonly label: string;
  /** A state no transition leaves. */
  readonly terminal: boolean;
  /** A Mantine colour name or CSS colour for the badge. */
  readonly color: string | null;
}

export interface Transition {
  readonly name: string;
  readonly label: string;
  readonly from: readonly string[];
  readonly to: string;
  /** Who may fire it; `null` means every role that may update the record. */
  readonly roles: readonly string[] | null;
  /** A guard over the record as it is before the transition. */
  readonly when: Expr | null;
  /**
   * The catalogue code answered when the guard does not hold (the spec's `error`), or null for the
   * built-in E_TRANSITION_GUARD, whose message names the condition.
   */
  readonly error: ErrorCode | null;
  /** Fields that must have a value once the transition's input is applied. */
  readonly require: readonly string[];
  /** Fields set by the transition, each to an expression's value. */
  readonly set: Readonly<Record<string, Expr>>;
  /** A question to confirm before firing, or null for none. */
  readonly confirm: string | null;
  /**
   * When the clock fires it, for a transition the system makes (`after:` or `at:`), or null for one
   * a person fires. A timed transition has no `roles`.
   */
  readonly timer: TransitionTimer | null;
}

/**
 * The clock that fires a timed transition: `after` milliseconds since the record entered a `from`
 * state, or `at` the time held by a date or datetime field of the record.
 */
export type TransitionTimer = { readonly after: number } | { readonly at: string };

// ---------------------------------------------------------------------------------------------
// Rules

/** When a rule applies: on create, on update, or on a named transition. */
export type RuleTrigger = 'create' | 'update' | { readonly transition: string };

export interface Rule {
  readonly id: string;
  readonly entity: string;
  readonly description: string;
  /** The rule is checked only when this holds. */
  readonly when: Expr | null;
  readonly assert: Expr;
  /** A code of the error catalogue: the spec's own, or a built-in one. */
  readonly error: ErrorCode;
  /** Fields the error is shown beside. */
  readonly fields: readonly string[];
  readonly on: readonly RuleTrigger[];
}

// ---------------------------------------------------------------------------------------------
// Roles

/** `true` always, `false` never, or when any of the conditions holds. */
export type Access = boolean | { readonly any: readonly Expr[] };

export interface EntityAccess {
  readonly read: Access;
  readonly create: Access;
  readonly update: Access;
  readonly delete: Access;
  /** Fields this role may read; `null` means all of them. */
  readonly readFields: readonly string[] | null;
  /** Fields this role may write; `null` means all writable fields. */
  readonly writeFields: readonly string[] | null;
}

export interface Role {
  readonly name: string;
  readonly label: string;
  readonly description: string;
  /** Roles this role inherits from, transitively. */
  readonly inherits: readonly string[];
  /** What the role may do, per entity; an entity absent here is denied. */
  readonly entities: Readonly<Record<string, EntityAccess>>;
}

// ---------------------------------------------------------------------------------------------
// Screens and navigation

export const SCREEN_KINDS = ['list', 'detail', 'create', 'edit', 'page', 'dashboard'] as const;
export type ScreenKind = (typeof SCREEN_KINDS)[number];

export interface Screen {
  readonly id: string;
  /** A React Router path; detail and edit screens take `:id`. */
  readonly path: string;
  readonly kind: ScreenKind;
  readonly entity: string | null;
  readonly title: string;
  /** Roles that may open it; `null` means every role that may read its entity. */
  readonly roles: readonly string[] | null;
  /** Fields shown as columns (lists) or in order (detail, forms). */
  readonly fields: readonly string[];
  /** Fields offered as filters on a list. */
  readonly filters: readonly string[];
  /** A fixed condition on the rows a list shows; always compilable to SQL. */
  readonly where: Expr | null;
  /** Default sort of a list: a field, `-` first for descending. */
  readonly sort: string | null;
  /** Actions offered: `create`, `edit`, `delete`, `export`, or a transition name. */
  readonly actions: readonly string[];
  /** Markdown body of a `page`. */
  readonly body: string;
  /**
   * The child sections of a detail screen, in order (`related: [Comment.ticket]`; decision 0047);
   * `[]` for none, null for the default: every child relation the viewer may read.
   */
  readonly related: readonly RelatedSection[] | null;
  /** The figures of a `dashboard` screen, in order; empty for every other kind (decision 0046). */
  readonly widgets: readonly Widget[];
  /** True when generated because the spec declared no screens. */
  readonly generated: boolean;
}

/** A child relation shown on a parent's detail page: `Comment.ticket` is `{ entity: 'Comment', via: 'ticket' }`. */
export interface RelatedSection {
  readonly entity: string;
  /** The child's ref field that points at the parent. */
  readonly via: string;
}

export const WIDGET_MEASURES = ['count', 'sum', 'avg', 'min', 'max'] as const;
export type WidgetMeasureKind = (typeof WIDGET_MEASURES)[number];
export const WIDGET_CHARTS = ['number', 'bar', 'line', 'pie', 'table'] as const;
export type WidgetChart = (typeof WIDGET_CHARTS)[number];
export const DATE_BUCKETS = ['day', 'week', 'month'] as const;
export type DateBucket = (typeof DATE_BUCKETS)[number];

/** What a widget measures over the rows it counts: how many, or an aggregate of a numeric field. */
export type WidgetMeasure =
  { readonly kind: 'count' } | { readonly kind: Exclude<WidgetMeasureKind, 'count'>; readonly field: string };

/**
 * A figure of a dashboard (`widgets:` of a `kind: dashboard` screen): a measure over the rows of
 * `entity` that hold `where` and that the viewer may read, whole or grouped `by` a field (an enum,
 * the state, a ref, a boolean, or a date/datetime bucketed by day, week or month).
 */
export interface Widget {
  /** Stable within its screen: the figure's key in the API (`GET <basePath>/dashboards/<screen>`). */
  readonly id: string;
  readonly title: string;
  readonly entity: string;
  /** A fixed condition on the rows counted; always compilable to SQL. */
  readonly where: Expr | null;
  readonly measure: WidgetMeasure;
  readonly by: { readonly field: string; readonly bucket: DateBucket | null } | null;
  readonly chart: WidgetChart;
}

export interface NavItem {
  readonly label: string;
  /** The id of the screen it opens. */
  readonly screen: string;
  readonly icon: string | null;
}

// ---------------------------------------------------------------------------------------------
// Calls, errors, constants, limits

export interface Calls {
  /** Where the generated REST API is mounted. */
  readonly basePath: string;
  readonly timeoutMs: number;
  /** How often a request is retried after a network failure (a write with its Idempotency-Key). */
  readonly retries: number;
  /** Whether the client queues writes made offline and replays them. */
  readonly offlineQueue: boolean;
  /**
   * Whether changes arrive live: the server's `events` stream (Server-Sent Events) and the app's
   * pages that follow it (decision 0056). `false`: no stream; pages show what they read.
   */
  readonly realtime: boolean;
}

export interface Limits {
  /** Default rows per list page. */
  readonly pageSize: number;
  /** The most rows a client may ask for in one page. */
  readonly maxPageSize: number;
  /** The largest request body accepted, in bytes. */
  readonly maxBodyBytes: number;
  /** The largest file a file or image field holds when it names no `maxSize`, in bytes (10 MiB). */
  readonly maxUploadSize: number;
  /** Requests per minute and client; by role, `default` for signed-in users, `guest` otherwise. */
  readonly requestsPerMinute: Readonly<Record<string, number>>;
  /** Login attempts per minute from one address; ten times this caps an account's failures a minute (decision 0027). */
  readonly loginAttemptsPerMinute: number;
  /** Idle and absolute session lifetimes. */
  readonly sessionIdleMinutes: number;
  readonly sessionAbsoluteHours: number;
}

// ---------------------------------------------------------------------------------------------
// Events, notifications and webhooks (section 7)

/**
 * A change of a record that a notification or a webhook listens to, as the spec writes it:
 * `Ticket.created`, `Ticket.updated` (an edit, not a transition), `Ticket.deleted` or
 * `Ticket.<transition>` (made by a person or by the clock).
 */
export interface RecordEvent {
  readonly entity: string;
  /** `created`, `updated`, `deleted`, or the transition's name when `kind` is `transition`. */
  readonly kind: 'created' | 'updated' | 'deleted' | 'transition';
  /** The transition's name, for a `transition` event; null otherwise. */
  readonly transition: string | null;
  /** The event as the spec writes it: `Claim.pay`. */
  readonly name: string;
}

/**
 * Who a notification tells: the users a ref-to-User field names (one or many), every user holding
 * a role, or the address an `email` field holds (who need not be a user; e-mail only).
 */
export type Recipient =
  | { readonly kind: 'user'; readonly field: string }
  | { readonly kind: 'role'; readonly role: string }
  | { readonly kind: 'email'; readonly field: string };

export type NotificationChannel = 'app' | 'email';

/**
 * A notification (`notifications.<name>`): on an event, each recipient who may read the record is
 * told, in the app and/or by e-mail. Subject and message are ICU messages over the record's fields
 * and `user.*` (the person who made the change), rendered with what each recipient may read.
 */
export interface Notification {
  readonly name: string;
  readonly on: readonly RecordEvent[];
  readonly to: readonly Recipient[];
  readonly channels: readonly NotificationChannel[];
  readonly subject: string;
  readonly message: string;
  /** True when users may not turn it off in their profile. */
  readonly mandatory: boolean;
}

/**
 * A webhook (`webhooks.<name>`): on an event, the record is posted to a URL, signed as the Standard
 * Webhooks specification says. `url` and `secret` are text as written in the spec, where `${NAME}`
 * stands for the environment variable NAME (`envReferences`, `resolveEnvText`).
 */
export interface Webhook {
  readonly name: string;
  readonly on: readonly RecordEvent[];
  readonly url: string;
  readonly secret: string;
}

export type Constant = number | string | boolean;
