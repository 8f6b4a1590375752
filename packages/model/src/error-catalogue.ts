/**
 * The built-in error catalogue: every code any product can answer without its spec saying so, with
 * its status, its message (an ICU template) and what it means. Plain data, so that the compiler
 * fills a model's catalogue from it, the server and the client name its codes as a typed union
 * (`BuiltinErrorCode`: a misspelt code is a type error), and a bundle that reads no message drops it.
 *
 * A spec overrides a message (or status) by declaring the same code under `errors:`, and adds codes
 * of its own (a rule's error: `SpecErrorCode`).
 * Arguments: `field` is the field's label, `value` the value given; others as named.
 */

/** An entry of a model's error catalogue: a built-in code, or one the spec declares. */
export interface ErrorDef {
  readonly code: ErrorCode;
  /** HTTP status, 400–599. */
  readonly status: number;
  /** An ICU MessageFormat template. */
  readonly message: string;
  /** The field the error is shown beside, if any. */
  readonly field: string | null;
  readonly description: string;
  /** True when the code comes from the built-in catalogue (possibly with a spec's message). */
  readonly builtin: boolean;
  /**
   * A built-in code whose message the spec rewrote: the shipped translations of the built-in
   * message do not apply to it (the spec's own translations do; decision 0067).
   */
  readonly reworded?: true;
}

/** An entry of the built-in catalogue, whose code the catalogue itself makes a type. */
type BuiltinErrorDef = Omit<ErrorDef, 'code'> & { readonly code: string };

/** The built-in catalogue, in the order the documentation lists it. */
export const BUILTIN_ERRORS = [
  {
    code: 'E_BAD_REQUEST',
    status: 400,
    message: 'The request could not be read: {reason}.',
    description: 'The body is not valid JSON or the query is malformed.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_VALIDATION',
    status: 422,
    message: 'Some values are not valid; see the fields marked.',
    description: 'One or more fields failed validation; the per-field errors say which.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_REQUIRED',
    status: 422,
    message: '{field} is required.',
    description: 'A required field has no value.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TYPE',
    status: 422,
    message: '{field} must be {expected}.',
    description: 'A value has the wrong JSON type ("12" for a number, say).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_FORMAT',
    status: 422,
    message: '{field} must be {expected}.',
    description: 'A value does not have the format of its type (a date, an email…).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_SHORT',
    status: 422,
    message: '{field} must be at least {min, plural, one {# character} other {# characters}} long.',
    description: 'Text shorter than minLength, counted in characters (code points).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_LONG',
    status: 422,
    message: '{field} must be at most {max, plural, one {# character} other {# characters}} long.',
    description: 'Text longer than maxLength, counted in characters (code points): an emoji is one.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_FEW',
    status: 422,
    message: '{field} must have at least {min, plural, one {# item} other {# items}}.',
    description: 'A list (`many`) with fewer items than minLength.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_MANY',
    status: 422,
    message: '{field} must have at most {max, plural, one {# item} other {# items}}.',
    description: 'A list (`many`) with more items than maxLength.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_SMALL',
    status: 422,
    message: '{field} must be at least {min}.',
    description: 'A number, amount or date below its minimum.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOO_LARGE',
    status: 422,
    message: '{field} must be at most {max}.',
    description: 'A number, amount or date above its maximum.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PATTERN',
    status: 422,
    message: '{field} does not have the expected form.',
    description: 'Text that does not match the field’s pattern.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_NOT_ONE_OF',
    status: 422,
    message: '{field} must be one of: {values}.',
    description: 'An enum value that is not among the allowed values.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PRECISION',
    status: 422,
    message: '{field} allows at most {scale, plural, one {# decimal place} other {# decimal places}}.',
    description: 'A decimal or amount with too many digits.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_UNKNOWN_FIELD',
    status: 422,
    message: '{field} is not a field of {entity}.',
    description: 'A write names a field the entity does not have.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_READONLY_FIELD',
    status: 422,
    message: '{field} cannot be written.',
    description: 'A write sets a read-only or system field, or one the role may not write.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_REF_NOT_FOUND',
    status: 422,
    message: '{field} refers to a record that does not exist or that you may not see.',
    description: 'A ref points to a missing or unreadable record.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_FILE_NOT_FOUND',
    status: 422,
    message: '{field} names a file that does not exist, is not yours, or is held by another record.',
    description:
      'A file field names an id that no upload of this user answered, or a file another record holds.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_FILE_TYPE',
    status: 415,
    message: 'This file is {type}; {field} accepts {accept}.',
    description: 'The content of the file (sniffed, never its name) is not of a type the field accepts.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_FILE_TOO_LARGE',
    status: 413,
    message: 'The file is larger than {limit, number} bytes.',
    description: "The file exceeds the field's maxSize (or limits.maxUploadSize).",
    field: null,
    builtin: true,
  },
  {
    code: 'E_RANGE_NOT_SATISFIABLE',
    status: 416,
    message: 'This part of the file cannot be sent: the file is {size, number} bytes long.',
    description:
      'A download’s Range holds none of the file’s bytes (it starts at or beyond its end); the answer’s Content-Range, bytes */<size>, says the size.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_UNIQUE',
    status: 409,
    message: 'Another record already has this {field}.',
    description: 'A unique field’s value is taken.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_UNAUTHENTICATED',
    status: 401,
    message: 'Please sign in to continue.',
    description: 'No valid session.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_INVALID_CREDENTIALS',
    status: 401,
    message: 'The email or password is not correct.',
    description: 'Login failed; the same answer for an unknown email and a wrong password.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_SESSION_EXPIRED',
    status: 401,
    message: 'Your session has expired. Please sign in again.',
    description: 'The session passed its idle or absolute lifetime.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_FORBIDDEN',
    status: 403,
    message: 'You are not allowed to do this.',
    description: 'The role may not perform this action on this record.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_CSRF',
    status: 403,
    message: 'The request was refused because it did not come from the application.',
    description: 'A state-changing request without the CSRF header or with a foreign Origin.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_NOT_FOUND',
    status: 404,
    message: 'This {entity} does not exist or you may not see it.',
    description: 'No such record, or one the user may not read (the two are indistinguishable on purpose).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_ROUTE_NOT_FOUND',
    status: 404,
    message: 'There is nothing at this address.',
    description: 'No such API route.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_CONFLICT',
    status: 409,
    message: 'Someone else changed this record since you opened it. Reload to see their changes.',
    description: 'The If-Match version is stale; nothing was written.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_REFERENCED',
    status: 409,
    message:
      '{count, plural, one {# {label} refers} other {# {plural} refer}} to this record through “{field}”. Delete or change {count, plural, one {it} other {them}} first.',
    description:
      'A delete refused because records still point at this one through a ref whose `onDelete` is `restrict` (the default); nothing was deleted. `label` and `plural` name the referring entity, `field` its ref.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TRANSITION_NOT_ALLOWED',
    status: 409,
    message: '{transition} is not possible while the record is {state}.',
    description: 'The transition does not leave the record’s current state.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TRANSITION_GUARD',
    status: 409,
    message: '{transition} is not possible now: it needs {condition}.',
    description:
      'The transition leaves the record’s state, but its guard (`when`) does not hold; the message names it.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PRECONDITION_REQUIRED',
    status: 428,
    message: 'This change needs the version of the record it is based on (If-Match).',
    description: 'An update or transition without If-Match.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_IDEMPOTENCY_KEY_REUSED',
    status: 422,
    message:
      'This request key was already used for a different change. Send the change again as a new request.',
    description: 'An Idempotency-Key sent again with another method, address, version or body.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PAYLOAD_TOO_LARGE',
    status: 413,
    message: 'The request is larger than {limit, number} bytes.',
    description: 'The body exceeds limits.maxBodyBytes.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_URI_TOO_LONG',
    status: 414,
    message: 'The address is longer than the server accepts.',
    description: 'A part of the path is longer than the router reads (a record id is 36 characters).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_HEADERS_TOO_LARGE',
    status: 431,
    message: 'The request’s address and headers are larger than the server accepts.',
    description: 'The request line and headers exceed the HTTP server’s limit (16 KB), cookies included.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_RATE_LIMITED',
    status: 429,
    message: 'Too many requests. Try again in {retryAfter, plural, one {# second} other {# seconds}}.',
    description: 'The client exceeded its request rate.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_INVALID_QUERY',
    status: 400,
    message: 'The list query is not valid: {reason}.',
    description: 'A filter, sort, cursor or page size that cannot be applied.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_UNKNOWN_NOTIFICATION',
    status: 422,
    message: 'There is no notification {value}.',
    description: 'A notification setting names a notification the spec does not declare.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_MANDATORY_NOTIFICATION',
    status: 422,
    message: 'The notification {value} cannot be turned off.',
    description: 'A notification setting turns off a notification the spec marks `mandatory: true`.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_LINK_INVALID',
    status: 404,
    message: 'This link is not valid. Check that it was copied whole, or ask for a new one.',
    description: 'A one-time link (invitation, e-mail check, password reset) that names nothing.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_LINK_EXPIRED',
    status: 410,
    message: 'This link has expired. Ask for a new one.',
    description: 'A one-time link past its lifetime, or revoked.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_LINK_USED',
    status: 410,
    message: 'This link has already been used. Sign in, or ask for a new one.',
    description: 'A one-time link that was used: each works once.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_INVITATION_REFUSED',
    status: 409,
    message: 'This invitation cannot be {action}: {reason}.',
    description:
      'An invitation to a user who has a password (they reset it instead) or is disabled, or the revocation of one already accepted.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PASSWORD_COMMON',
    status: 422,
    message: 'This password is one of the most common ones. Choose another.',
    description: 'A new password found in the list of common passwords the product ships.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_PASSWORD_CONTEXT',
    status: 422,
    message: 'This password is too close to your name, your address or the product’s name. Choose another.',
    description:
      'A new password built on a context word (the product’s name, the person’s e-mail or name) with few characters around it.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_WRONG_PASSWORD',
    status: 422,
    message: 'The current password is not correct.',
    description: 'A password change whose current password does not match.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_EMAIL_DOMAIN',
    status: 422,
    message: 'Only addresses at {values} can sign up here.',
    description: 'A sign-up from an e-mail domain that `auth.signUpDomains` does not list.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TOKEN_EXPIRED',
    status: 401,
    message: 'This API token has expired or was revoked. Create a new one.',
    description: 'A bearer token past its expiry, or revoked.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_SSO_FAILED',
    status: 401,
    message: 'Signing in with {value} did not work: {reason}.',
    description: 'Single sign-on failed: the provider refused, or its answer did not check out.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_SSO_NO_ACCOUNT',
    status: 403,
    message: 'No account here uses {value}, and single sign-on cannot open one. Ask an admin to invite you.',
    description:
      'Single sign-on by a person with no account, when `auth.signUp` is not set or gives no role.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_MFA_CODE',
    status: 422,
    message:
      'This code is not right, or was used already. Enter the code your authenticator app shows now, or an unused recovery code.',
    description:
      'A second-step code that does not match, is past its 30 seconds, or was used before (each code works once).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_MFA_CHALLENGE',
    status: 401,
    message: 'This sign-in has expired or had too many wrong codes. Sign in again with your password.',
    description:
      'A second step whose challenge is unknown, older than 5 minutes, used, or past its 5 wrong codes.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_MFA_STATE',
    status: 409,
    message: 'Two-step sign-in cannot do that now: {reason}.',
    description:
      'A change of the second factor that does not fit its state: on already, not on, nothing to confirm, or no password to protect.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_MFA_REQUIRED',
    status: 409,
    message:
      'Two-step sign-in is required for your account ({reason}), so it cannot be turned off. You can replace your recovery codes instead.',
    description:
      "Turning the second factor off for a user the spec's `auth.mfa` requires it of (every user, or one of the listed roles).",
    field: null,
    builtin: true,
  },
  {
    code: 'E_REAUTH_REQUIRED',
    status: 403,
    message:
      'Confirm it is you first: enter your password (or a code of your authenticator app) again, then try once more.',
    description:
      'A sensitive change (ending sessions, making an API token, changing your e-mail) by a session that has not proved a factor in the last 10 minutes, or by an API token, which never can (decision 0042).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_OWN_EMAIL',
    status: 403,
    message:
      'Your own e-mail address is changed on your account page (/account), which asks for your password again.',
    description:
      'A write to your own User record that changes its email: the e-mail is where reset links go, so it changes only through `PUT <basePath>/account/email` (decision 0042).',
    field: null,
    builtin: true,
  },
  {
    code: 'E_INTERNAL',
    status: 500,
    message: 'Something went wrong on our side. Reference: {correlationId}.',
    description: 'An unexpected failure; the server log carries the same correlation id.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_UNAVAILABLE',
    status: 503,
    message: 'The service is unavailable for a moment. Try again shortly.',
    description: 'The server is starting, draining, or cannot reach its database.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_NETWORK',
    status: 503,
    message: 'The server could not be reached. Check your connection and try again.',
    description: 'Raised by the client, never sent: a request failed before any answer arrived.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_TIMEOUT',
    status: 504,
    message: 'The server did not answer in time. Try again in a moment.',
    description: 'Raised by the client, never sent: no answer within `calls.timeoutMs`.',
    field: null,
    builtin: true,
  },
  {
    code: 'E_OFFLINE_QUEUED',
    status: 503,
    message:
      'The server could not be reached: your change is saved on this device and will be sent when the connection returns.',
    description:
      'Raised by the client, never sent: a write that could not reach the server waits in the offline queue (`calls.offlineQueue`).',
    field: null,
    builtin: true,
  },
] as const satisfies readonly BuiltinErrorDef[];

/** A code of the built-in catalogue: `E_NOT_FOUND`, `E_VALIDATION`, … */
export type BuiltinErrorCode = (typeof BUILTIN_ERRORS)[number]['code'];

/**
 * A code a spec declares under `errors:` (a rule's error, `E_OVER_APPROVAL_LIMIT`): known only once
 * a spec is read, so a string marked as such where it is read (`specErrorCode`).
 */
export type SpecErrorCode = string & { readonly __specErrorCode: true };

/** Any code of a model's catalogue: a built-in one, or one its spec declares. */
export type ErrorCode = BuiltinErrorCode | SpecErrorCode;

/**
 * Marks a code read from a spec or a model (a rule's `error`, a problem's `code`) as a catalogue code.
 *
 * @example specErrorCode(rule.error)
 */
export const specErrorCode = (code: string): SpecErrorCode => code as SpecErrorCode;

/** Arguments every built-in message may use, besides constants. */
export const BUILTIN_ARGUMENTS = [
  'field',
  'value',
  'expected',
  'min',
  'max',
  'scale',
  'values',
  'entity',
  'state',
  'transition',
  'condition',
  'limit',
  'retryAfter',
  'reason',
  'correlationId',
] as const;
