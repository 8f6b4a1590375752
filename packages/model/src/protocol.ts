/**
 * The wire protocol between the server and its clients, defined once: the shapes of what the API
 * answers (problems, the session, records, list pages, history), the names of the headers, cookies
 * and query parameters both sides spell, the ids of what the server writes into the app's page, and
 * the paths that belong to the server or the app rather than to a spec's screens.
 *
 * Types and constants only: the server writes these, the client reads them, and neither keeps a copy.
 */
import { type BuiltinErrorCode, type ErrorCode } from './error-catalogue.js';
import { type Value } from './model.js';

// ---------------------------------------------------------------------------------------------
// Problems (RFC 9457)

/** The media type of every failure the API answers. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

/** The `type` of a code's problem: a URN that names the catalogue code. */
export const problemType = (code: ErrorCode): string => `urn:ninefold:error:${code}`;

/** One field's issue in a problem: the field it is shown beside, its code and rendered message. */
export interface FieldProblem {
  /** The field's name (not its label), as the client's form knows it; null for the whole record. */
  readonly field: string | null;
  readonly code: ErrorCode;
  readonly message: string;
}

/**
 * A problem document as the API answers it. The server always sends `type` and `title`; a client
 * that makes one of its own (no answer arrived, an answer that was not a problem) may leave them out.
 */
export interface Problem {
  /** `urn:ninefold:error:<code>` (`problemType`). */
  readonly type?: string;
  /** What the code means, from the catalogue. */
  readonly title?: string;
  readonly status: number;
  readonly code: ErrorCode;
  /** The catalogue's message for the code, rendered with its arguments. */
  readonly message: string;
  readonly detail?: string;
  /** The field errors, at most `MAX_PROBLEM_ERRORS` of them, in the order they were found. */
  readonly errors?: readonly FieldProblem[];
  /** How many field errors were found beyond those `errors` lists; absent when it lists them all. */
  readonly moreErrors?: number;
  /** The request's id, which the server's log carries too. */
  readonly correlationId?: string;
}

/**
 * The most field errors a problem lists: a body of 60,000 unknown keys gets a problem of a few
 * kilobytes, the first errors and how many more there are (`moreErrors`), not one of megabytes.
 */
export const MAX_PROBLEM_ERRORS = 50;

/**
 * A problem the client makes itself, for an answer that was not one (a proxy's HTML page) or for a
 * failure that never reached the server.
 *
 * @example localProblem('E_INTERNAL', 502) // { status: 502, code: 'E_INTERNAL', message: '' }
 */
export const localProblem = (code: BuiltinErrorCode, status: number): Problem => ({
  status,
  code,
  message: '',
});

// ---------------------------------------------------------------------------------------------
// Requests

/** The methods the API answers. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * The deepest a JSON body may nest its objects and arrays (a value at the top level is depth 1). A
 * deeper body is E_BAD_REQUEST before it is parsed: no field of any spec needs more, and a body
 * nested thousands deep would otherwise exhaust the stack of every walk over it.
 */
export const MAX_JSON_DEPTH = 64;

// ---------------------------------------------------------------------------------------------
// Headers and cookies

/** The header a state-changing request carries, which a cross-site form or image cannot send. */
export const CSRF_HEADER = 'x-ninefold-csrf';
/** The value of `CSRF_HEADER`. */
export const CSRF_HEADER_VALUE = '1';
/** A write's key (the IETF httpapi draft): a write sent again with it is done once. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on the answer to a write sent again with its key: the first attempt's outcome, not done twice. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/** The record version a write is based on: `If-Match: "<version>"` (`ifMatch`). */
export const IF_MATCH_HEADER = 'if-match';
/** Seconds to wait before asking again, on E_RATE_LIMITED. */
export const RETRY_AFTER_HEADER = 'retry-after';
/** What the rate limit allows, has left and when it resets (seconds), on every limited answer. */
export const RATE_LIMIT_HEADERS = {
  limit: 'x-ratelimit-limit',
  remaining: 'x-ratelimit-remaining',
  reset: 'x-ratelimit-reset',
} as const;
/** Marks a page that carries a prerender of its screen: the client's service worker does not keep it. */
export const PRERENDERED_HEADER = 'x-ninefold-prerendered';

/** The `If-Match` value of a record version. */
export const ifMatch = (version: number): string => `"${version}"`;

/** The session cookie `POST <basePath>/session` sets: an opaque id, HTTP only. */
export const SESSION_COOKIE = 'ninefold_session';
/**
 * Set by a browser whose own settings (hidden columns, a colour scheme) change how a screen looks:
 * the server then prerenders nothing for it, since it cannot see those settings.
 */
export const DEVICE_SETTINGS_COOKIE = 'nf-device-settings';

// ---------------------------------------------------------------------------------------------
// The page the server sends

/** The script element holding the (public) model, JSON, in every page. */
export const MODEL_SCRIPT_ID = 'ninefold-model';
/** The script element holding the queries a prerender was made from, JSON. */
export const STATE_SCRIPT_ID = 'ninefold-state';
/** The element holding the prerender of the screen, laid over the app's root until the app shows it. */
export const PRERENDER_MOUNT_ID = 'nf-prerender';

// ---------------------------------------------------------------------------------------------
// Paths

/** API paths under the model's `calls.basePath`. */
export const API_PATHS = {
  /** `GET` who is signed in, `POST` sign in, `DELETE` sign out. */
  session: 'session',
  /** `GET` the public model. */
  model: 'model',
  /** `GET` the product's jobs, newest first; `POST <id>/retry` a dead one (admins; decision 0028). */
  jobs: 'admin/jobs',
  /**
   * `GET` the signed-in user's own notifications, newest first (`NotificationPage`);
   * `POST <id>/read` marks one read, `POST read` marks all read.
   */
  notifications: 'notifications',
  /** `GET` the user's notification settings (`NotificationSetting[]`); `PUT` changes them. */
  notificationSettings: 'notifications/settings',
  /** `GET` the webhook deliveries, newest first; `POST <id>/resend` sends one again (admins). */
  webhookDeliveries: 'admin/webhook-deliveries',
  /** `GET` the development mail outbox, newest first: mail kept when no SMTP_URL is set (admins). */
  mailOutbox: 'admin/mail',

  // Identity (decision 0035). The names scripts rely on: sign-ups, password-resets, tokens.
  /**
   * `GET` the invitations (`{ data: WireInvitation[] }`), `POST { user }` invites a user who has no
   * password (again: the earlier link stops working) and answers `InvitationAnswer`, `DELETE <id>`
   * revokes one: for a user who may create users. `POST invitations/accept { token, password }`
   * sets the invitee's password and signs them in (`SessionAnswer`).
   */
  invitations: 'invitations',
  /**
   * `POST { email, password, name }`: 202 whatever the address (`auth.signUp` set); a link to check
   * the address is mailed. `POST sign-ups/verify { token }` opens the account and signs in.
   */
  signUps: 'sign-ups',
  /**
   * `POST { email }`: 202 whatever the address; a 30-minute link is mailed to a known one.
   * `POST password-resets/complete { token, password }` sets it, ends every session and signs in.
   */
  passwordResets: 'password-resets',
  /** `POST { token }`: what a one-time link is for (`WireLink`), or why it no longer works. */
  links: 'links/inspect',
  /**
   * `PUT { locale }`: the language the signed-in user picked, one of the spec's `product.locales`
   * (decision 0067); answers `SessionAnswer`. `{ locale: null }` forgets it.
   */
  accountLocale: 'account/locale',
  /** `PUT { currentPassword, password }`: the signed-in user's new password; their other sessions end. */
  password: 'account/password',
  /** `GET` the signed-in user's sessions (`{ data: WireSession[] }`); `DELETE <id>` ends one. */
  sessions: 'account/sessions',
  /**
   * `GET` the signed-in user's API tokens (`{ data: WireToken[] }`, never the token itself);
   * `POST { name, roles?, expiresAt? }` makes one and answers it once (`NewTokenAnswer`, 201);
   * `DELETE <id>` revokes one. A token is sent as `Authorization: Bearer <token>`.
   */
  tokens: 'tokens',
  /** `GET`: to the OpenID provider's sign-in (302), with `?returnTo=` a path of the app. */
  oidcStart: 'session/oidc',
  /** `GET`: where the provider sends the browser back; signs in and goes on to the app (302). */
  oidcCallback: 'session/oidc/callback',
  /** `GET` the identity audit trail, newest first (`{ data: WireAuthEvent[] }`, admins). */
  authEvents: 'admin/auth-events',

  // The second factor and admins ending sessions (decision 0041).
  /**
   * `GET` the signed-in user's second factor (`MfaStatus`); `POST { currentPassword }` starts an
   * enrolment (`MfaEnrolment`); `DELETE { currentPassword, endOtherSessions? }` turns it off.
   */
  mfa: 'account/mfa',
  /** `POST { code, endOtherSessions? }`: turns the enrolled factor on; answers `RecoveryCodesAnswer` once. */
  mfaConfirm: 'account/mfa/confirm',
  /** `POST { currentPassword }`: ten new recovery codes (`RecoveryCodesAnswer`); the old ones stop working. */
  recoveryCodes: 'account/mfa/recovery-codes',
  /** `POST { challenge, code }`: a sign-in's second step, after a `202 MfaChallengeAnswer` (`SessionAnswer`). */
  mfaSignIn: 'session/mfa',
  /**
   * `POST { challenge }`: for a challenge whose user must enrol first (`auth.mfa`), a new
   * authenticator secret (`MfaEnrolment`); its first code goes to `session/mfa`, which turns the
   * factor on and answers the recovery codes with the session, once.
   */
  mfaEnrolSignIn: 'session/mfa/enrol',
  /** `DELETE ?user=<id>` ends one user's sessions, `DELETE ?all=true` everyone's but the caller's (admins). */
  adminSessions: 'admin/sessions',

  // Recent authentication (decision 0042).
  /**
   * `POST { password }` or `POST { code }` (a code of the second factor, or a recovery code): the
   * session proves a factor again, for the changes that ask for a recent one (204).
   */
  sessionConfirm: 'session/confirm',
  /** `PUT { email }`: the signed-in user's new e-mail address (a recent authentication required). */
  accountEmail: 'account/email',
  /** `GET dashboards/<screen id>`: the figures of a dashboard screen (`DashboardFigures`; decision 0046). */
  dashboards: 'dashboards',
  /**
   * Files (decision 0050; `files-protocol.ts`). `POST` multipart with one part named `file`
   * (`?entity=<name>&field=<name>` to be held to that field's `maxSize` and `accept` at once):
   * `201 FileInfo`. `GET files/<id>` streams it (ranges, ETag; `?w=` one of `IMAGE_WIDTHS` for an
   * image's variant; `?download=1` as an attachment) to whoever may read a record field holding it.
   */
  files: 'files',
  /**
   * `GET events`: the signed-in user's stream of record changes, Server-Sent Events
   * (`events-protocol.ts`, decision 0056); absent when `calls.realtime` is false.
   */
  events: 'events',
} as const;

/** Paths the server answers at the root, outside the API's base path. */
export const SERVER_PATHS = ['/health', '/ready', '/openapi.json', '/docs'] as const;

/** Pages the app serves itself, readable before signing in. */
export const APP_PATHS = {
  signIn: '/sign-in',
  help: '/help',
  about: '/about',
  /** Sign-up, when the spec's `auth.signUp` is set. */
  signUp: '/sign-up',
  /** Asks for a password reset link. */
  forgotPassword: '/forgot-password',
  /**
   * Where every one-time link leads: `/link#token=…` (in the fragment, which no server, log or
   * Referer sees); the page asks what the link is for and shows its form.
   */
  link: '/link',
} as const;

/**
 * Pages the app serves itself to a signed-in user, whatever the spec: the admin area (admins only)
 * and the user's own settings. Their first segments (`/admin`, `/account`) are reserved whole.
 */
export const SIGNED_IN_PATHS = {
  adminJobs: '/admin/jobs',
  adminWebhooks: '/admin/webhooks',
  adminMail: '/admin/mail',
  notificationSettings: '/account/notifications',
  /** The signed-in user's profile, password and sessions. */
  account: '/account',
  /** The signed-in user's API tokens (roles in `auth.tokens`). */
  accountTokens: '/account/tokens',
  /** Invitations: who has not accepted, re-send, revoke (those who may create users). */
  adminInvitations: '/admin/invitations',
  /** The identity audit trail (admins). */
  adminAudit: '/admin/audit',
  /** The signed-in user's two-step sign-in: turn it on or off, recovery codes (decision 0041). */
  accountTwoStep: '/account/two-step',
} as const;

/**
 * Paths a spec's screen may not take (nor any path under them): the API's usual base path, the
 * server's own paths and the app's own pages.
 */
export const RESERVED_PATHS: readonly string[] = [
  '/api',
  ...SERVER_PATHS,
  ...Object.values(APP_PATHS),
  '/admin',
  '/account',
];

// ---------------------------------------------------------------------------------------------
// Records, lists and history

/** The key under which a record lists the transitions its reader may fire now (decision 0009). */
export const ACTIONS_KEY = '_actions';

/**
 * The key under which `POST <basePath>/users` answers the new user's invitation
 * (`InvitationAnswer`): mailed, or its link shown this once when the server sends no mail
 * (decision 0035). Only on that answer.
 */
export const INVITATION_KEY = '_invitation';

/** A record as the API sends it: system fields, the fields its reader may see, and `_actions`. */
export interface ApiRecord {
  readonly id: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly createdBy: string | null;
  readonly state?: string;
  /** The transitions the reader may fire now, decided by the server. */
  readonly [ACTIONS_KEY]?: readonly string[];
  readonly [field: string]: Value | undefined;
}

/** One page of a list: its records, the cursor of the next page (null at the end), and the count when asked. */
export interface ListPage<R = ApiRecord> {
  readonly data: readonly R[];
  readonly nextCursor: string | null;
  /** Every matching record, on a request with `total=true`. */
  readonly total?: number;
}

/** What a history entry records. */
export type HistoryAction = 'create' | 'update' | 'delete' | 'transition';

/** One change of a record, as `GET <resource>/<id>/history` lists it (`{ data: HistoryEntry[] }`). */
export interface HistoryEntry {
  readonly id: string;
  readonly at: string;
  readonly by: string | null;
  readonly action: HistoryAction;
  readonly transition: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly changes: Readonly<Record<string, { readonly from: Value; readonly to: Value }>>;
}

/** The answer of a record's history. */
export interface HistoryPage {
  readonly data: readonly HistoryEntry[];
}

/** The query parameters of a list that are not filters. */
export const LIST_PARAMS = {
  sort: 'sort',
  q: 'q',
  cursor: 'cursor',
  limit: 'limit',
  /** `true`: the first page counts every matching record. */
  total: 'total',
  /** A list screen's id: its fixed condition applies too. */
  screen: 'screen',
  /** `csv`: every matching record as a download. */
  format: 'format',
} as const;

/**
 * Operators of a list filter, `field[op]=value` in a list's query string (`eq` when none is given).
 * Which of them a field takes is its type's (`FIELD_TYPE_INFO[type].operators`).
 */
export const FILTER_OPERATORS = ['eq', 'ne', 'lt', 'lte', 'gt', 'gte', 'in', 'contains', 'isNull'] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

/**
 * The query parameter of a filter.
 *
 * @example filterParam('amount', 'gte') // 'amount[gte]'
 */
export const filterParam = (field: string, op: FilterOperator): string => `${field}[${op}]`;

// ---------------------------------------------------------------------------------------------
// The session

/**
 * The user as rules see them (`user.department` in an expression): their own User record, so that
 * the client decides permissions and defaults exactly as the server does.
 */
export interface SessionContext {
  readonly id: string;
  readonly roles: readonly string[];
  readonly [field: string]: Value | undefined;
}

/** The signed-in user as `GET` and `POST <basePath>/session` answer it (`{ user }`). */
export interface SessionUser {
  readonly id: string;
  readonly email: string;
  readonly name: string;
  readonly roles: readonly string[];
  /**
   * The locale the user picked in the app (`PUT <basePath>/account/locale`, decision 0067), null
   * until they pick one: the app then follows the browser.
   */
  readonly locale: string | null;
  readonly context: SessionContext;
}

/** The body of a session answer. */
export interface SessionAnswer {
  readonly user: SessionUser;
}

// ---------------------------------------------------------------------------------------------
// Jobs (admins; decision 0028)

/** Where a job is in its life: waiting, claimed by a runner, finished, or out of attempts. */
export type JobState = 'pending' | 'running' | 'done' | 'dead';

/** Every job state, in the order of a job's life. */
export const JOB_STATES: readonly JobState[] = ['pending', 'running', 'done', 'dead'];

/** A job as `GET <basePath>/admin/jobs` answers it (`{ data: WireJob[] }`). */
export interface WireJob {
  readonly id: string;
  readonly kind: string;
  readonly payload: unknown;
  readonly state: JobState;
  readonly attempts: number;
  readonly maxAttempts: number;
  readonly runAt: string;
  readonly lockedUntil: string | null;
  readonly lastError: string | null;
  readonly key: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

// ---------------------------------------------------------------------------------------------
// Notifications (section 7)

/** One of a user's notifications, rendered for them when it was made. */
export interface WireNotification {
  readonly id: string;
  /** The spec's name of the notification: `ticket-answered`. */
  readonly notification: string;
  readonly entity: string;
  readonly recordId: string;
  readonly subject: string;
  readonly message: string;
  readonly createdAt: string;
  /** When the user read it, or null while unread. */
  readonly readAt: string | null;
}

/** A page of a user's notifications, newest first, and how many of all theirs are unread. */
export interface NotificationPage {
  readonly items: readonly WireNotification[];
  readonly unread: number;
  /** The `before` cursor of the next page, or null on the last. */
  readonly next: string | null;
}

/** Whether a user gets a notification; a mandatory one cannot be turned off. */
export interface NotificationSetting {
  readonly notification: string;
  readonly enabled: boolean;
  readonly mandatory: boolean;
}

// ---------------------------------------------------------------------------------------------
// Webhook deliveries and the mail outbox (admins)

export type DeliveryState = 'pending' | 'delivered' | 'failed';

/** One delivery of an event to a webhook, as admins see it in its log. */
export interface WireDelivery {
  readonly id: string;
  readonly webhook: string;
  /** The event as the spec writes it: `Claim.pay`. */
  readonly event: string;
  readonly entity: string;
  readonly recordId: string;
  readonly state: DeliveryState;
  readonly attempts: number;
  /** The receiver's last HTTP status, or null when none answered. */
  readonly lastStatus: number | null;
  /** The start of the receiver's last answer, or why there was none. */
  readonly lastAnswer: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** A mail kept in the development outbox. */
export interface WireMail {
  readonly id: string;
  readonly to: string;
  readonly subject: string;
  readonly text: string;
  readonly html: string;
  readonly createdAt: string;
}
