import { type ErrorDef } from '@ninefold/model';

const e = (
  code: string,
  status: number,
  message: string,
  description: string,
  field: string | null = null,
): ErrorDef => ({
  code,
  status,
  message,
  description,
  field,
  builtin: true,
});

/**
 * The built-in error catalogue: what every product can answer without its spec saying so.
 * A spec overrides a message (or status) by declaring the same code under `errors:`.
 * Arguments: `field` is the field's label, `value` the value given; others as named.
 */
export const BUILTIN_ERRORS: readonly ErrorDef[] = [
  e(
    'E_BAD_REQUEST',
    400,
    'The request could not be read: {reason}.',
    'The body is not valid JSON or the query is malformed.',
  ),
  e(
    'E_VALIDATION',
    422,
    'Some values are not valid; see the fields marked.',
    'One or more fields failed validation; the per-field errors say which.',
  ),
  e('E_REQUIRED', 422, '{field} is required.', 'A required field has no value.'),
  e(
    'E_TYPE',
    422,
    '{field} must be {expected}.',
    'A value has the wrong JSON type ("12" for a number, say).',
  ),
  e(
    'E_FORMAT',
    422,
    '{field} must be {expected}.',
    'A value does not have the format of its type (a date, an email…).',
  ),
  e(
    'E_TOO_SHORT',
    422,
    '{field} must be at least {min, plural, one {# character} other {# characters}} long.',
    'Text shorter than minLength, or a list with fewer items.',
  ),
  e(
    'E_TOO_LONG',
    422,
    '{field} must be at most {max, plural, one {# character} other {# characters}} long.',
    'Text longer than maxLength, or a list with more items.',
  ),
  e('E_TOO_SMALL', 422, '{field} must be at least {min}.', 'A number, amount or date below its minimum.'),
  e('E_TOO_LARGE', 422, '{field} must be at most {max}.', 'A number, amount or date above its maximum.'),
  e(
    'E_PATTERN',
    422,
    '{field} does not have the expected form.',
    'Text that does not match the field’s pattern.',
  ),
  e(
    'E_NOT_ONE_OF',
    422,
    '{field} must be one of: {values}.',
    'An enum value that is not among the allowed values.',
  ),
  e(
    'E_PRECISION',
    422,
    '{field} allows at most {scale, plural, one {# decimal place} other {# decimal places}}.',
    'A decimal or amount with too many digits.',
  ),
  e(
    'E_UNKNOWN_FIELD',
    422,
    '{field} is not a field of {entity}.',
    'A write names a field the entity does not have.',
  ),
  e(
    'E_READONLY_FIELD',
    422,
    '{field} cannot be written.',
    'A write sets a read-only or system field, or one the role may not write.',
  ),
  e(
    'E_REF_NOT_FOUND',
    422,
    '{field} refers to a record that does not exist or that you may not see.',
    'A ref points to a missing or unreadable record.',
  ),
  e('E_UNIQUE', 409, 'Another record already has this {field}.', 'A unique field’s value is taken.'),
  e('E_UNAUTHENTICATED', 401, 'Please sign in to continue.', 'No valid session.'),
  e(
    'E_INVALID_CREDENTIALS',
    401,
    'The email or password is not correct.',
    'Login failed; the same answer for an unknown email and a wrong password.',
  ),
  e(
    'E_SESSION_EXPIRED',
    401,
    'Your session has expired. Please sign in again.',
    'The session passed its idle or absolute lifetime.',
  ),
  e(
    'E_FORBIDDEN',
    403,
    'You are not allowed to do this.',
    'The role may not perform this action on this record.',
  ),
  e(
    'E_CSRF',
    403,
    'The request was refused because it did not come from the application.',
    'A state-changing request without the CSRF header or with a foreign Origin.',
  ),
  e(
    'E_NOT_FOUND',
    404,
    'This {entity} does not exist or you may not see it.',
    'No such record, or one the user may not read (the two are indistinguishable on purpose).',
  ),
  e('E_ROUTE_NOT_FOUND', 404, 'There is nothing at this address.', 'No such API route.'),
  e(
    'E_CONFLICT',
    409,
    'Someone else changed this record since you opened it. Reload to see their changes.',
    'The If-Match version is stale; nothing was written.',
  ),
  e(
    'E_TRANSITION_NOT_ALLOWED',
    409,
    '{transition} is not possible while the record is {state}.',
    'The transition does not leave the record’s current state, or its guard does not hold.',
  ),
  e(
    'E_PRECONDITION_REQUIRED',
    428,
    'This change needs the version of the record it is based on (If-Match).',
    'An update or transition without If-Match.',
  ),
  e(
    'E_IDEMPOTENCY_KEY_REUSED',
    422,
    'This request key was already used for a different change. Send the change again as a new request.',
    'An Idempotency-Key sent again with another method, address, version or body.',
  ),
  e(
    'E_PAYLOAD_TOO_LARGE',
    413,
    'The request is larger than {limit, number} bytes.',
    'The body exceeds limits.maxBodyBytes.',
  ),
  e(
    'E_RATE_LIMITED',
    429,
    'Too many requests. Try again in {retryAfter, plural, one {# second} other {# seconds}}.',
    'The client exceeded its request rate.',
  ),
  e(
    'E_INVALID_QUERY',
    400,
    'The list query is not valid: {reason}.',
    'A filter, sort, cursor or page size that cannot be applied.',
  ),
  e(
    'E_INTERNAL',
    500,
    'Something went wrong on our side. Reference: {correlationId}.',
    'An unexpected failure; the server log carries the same correlation id.',
  ),
  e(
    'E_UNAVAILABLE',
    503,
    'The service is starting or stopping. Try again in a moment.',
    'The server is not ready or is draining.',
  ),
  e(
    'E_NETWORK',
    503,
    'The server could not be reached. Check your connection and try again.',
    'Raised by the client, never sent: a request failed before any answer arrived.',
  ),
  e(
    'E_TIMEOUT',
    504,
    'The server did not answer in time. Try again in a moment.',
    'Raised by the client, never sent: no answer within `calls.timeoutMs`.',
  ),
  e(
    'E_OFFLINE_QUEUED',
    503,
    'The server could not be reached: your change is saved on this device and will be sent when the connection returns.',
    'Raised by the client, never sent: a write that could not reach the server waits in the offline queue (`calls.offlineQueue`).',
  ),
];

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
  'limit',
  'retryAfter',
  'reason',
  'correlationId',
] as const;
