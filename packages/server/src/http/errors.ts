/**
 * Every failure as an RFC 9457 problem: `application/problem+json` with the catalogue code, its
 * status and its message rendered from the spec's ICU template. Nothing else reaches a client: no
 * stack trace, no SQL, no file path.
 */
import {
  type ErrorCode,
  MAX_PROBLEM_ERRORS,
  type Model,
  PROBLEM_MEDIA_TYPE,
  type Problem,
  type Value,
  problemType,
} from '@ninefold/model';
import { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import { formatMessage } from '@ninefold/engine';
import { RETRY_AFTER_SECONDS, isConnectionFailure } from '../db/connection-failure.js';
import { modelIn, readerLocale } from './reader-locale.js';

export type Params = Readonly<Record<string, Value | undefined>>;

/** A problem with one field, before its message is rendered (`FieldProblem` once it is). */
export interface FieldIssue {
  /** The field's name (not its label), as the client's form knows it; null for the whole record. */
  readonly field: string | null;
  readonly code: ErrorCode;
  readonly params?: Params;
}

/** The content type of a problem response. */
export const PROBLEM_CONTENT_TYPE = `${PROBLEM_MEDIA_TYPE}; charset=utf-8`;

/**
 * A failure the server expected: a catalogue code and its parameters. Thrown anywhere in a request,
 * it becomes the problem response of that code.
 *
 * @example throw new ApiError('E_PAYLOAD_TOO_LARGE', { limit: 1024 });
 * @example throw new ApiError('E_VALIDATION', {}, { errors: [{ field: 'email', code: 'E_REQUIRED', params: { field: 'Email' } }] });
 */
export class ApiError extends Error {
  readonly errors: readonly FieldIssue[];
  readonly detail: string | undefined;
  /** Headers the response carries (Retry-After, say). */
  readonly headers: Readonly<Record<string, string>>;
  /** Read by Fastify and plugins that look at a thrown error's status. */
  statusCode: number | undefined;

  constructor(
    readonly code: ErrorCode,
    readonly params: Params = {},
    options: { errors?: readonly FieldIssue[]; detail?: string; headers?: Record<string, string> } = {},
  ) {
    super(code);
    this.name = 'ApiError';
    this.errors = options.errors ?? [];
    this.detail = options.detail;
    this.headers = options.headers ?? {};
    this.statusCode = undefined;
  }
}

/**
 * The problem document of a code. It lists at most `MAX_PROBLEM_ERRORS` field errors, the first
 * found, and says how many more there are (`moreErrors`): only those listed are rendered.
 *
 * @example problemOf(model, 'E_ROUTE_NOT_FOUND').status // 404
 */
export function problemOf(
  model: Model,
  code: ErrorCode,
  params: Params = {},
  extra: { errors?: readonly FieldIssue[]; detail?: string | undefined; correlationId?: string } = {},
): Problem {
  const def = model.errors[code] ?? model.errors['E_INTERNAL'];
  const known = model.errors[code] !== undefined;
  const problem: {
    -readonly [K in keyof Problem]: Problem[K];
  } = {
    type: problemType(known ? code : 'E_INTERNAL'),
    title: def?.description ?? 'An unexpected failure.',
    status: def?.status ?? 500,
    code: known ? code : 'E_INTERNAL',
    message: formatMessage(model, known ? code : 'E_INTERNAL', {
      ...params,
      correlationId: extra.correlationId,
    }),
  };
  if (extra.detail !== undefined) problem.detail = extra.detail;
  if (extra.errors !== undefined && extra.errors.length > 0) {
    const listed = extra.errors.slice(0, MAX_PROBLEM_ERRORS);
    problem.errors = listed.map((issue) => ({
      field: issue.field,
      code: issue.code,
      message: formatMessage(model, issue.code, issue.params ?? {}),
    }));
    if (extra.errors.length > listed.length) problem.moreErrors = extra.errors.length - listed.length;
  }
  if (extra.correlationId !== undefined) problem.correlationId = extra.correlationId;
  return problem;
}

/**
 * Sends a problem response, its message in the reader's language (decision 0068): the spec's
 * locale that fits the request best, said in `Content-Language`.
 *
 * @example return sendProblem(reply, model, new ApiError('E_UNAUTHENTICATED'));
 */
export function sendProblem(reply: FastifyReply, model: Model, error: ApiError): FastifyReply {
  const locale = readerLocale(model, reply.request);
  reply.header('content-language', locale);
  const shown = modelIn(model, locale);
  const problem = problemOf(shown, error.code, error.params, {
    errors: shown === model ? error.errors : error.errors.map((issue) => withLabel(model, shown, issue)),
    detail: error.detail,
    correlationId: String(reply.request.id),
  });
  for (const [name, value] of Object.entries(error.headers)) reply.header(name, value);
  return reply.code(problem.status).type(PROBLEM_CONTENT_TYPE).send(problem);
}

/**
 * A field issue whose `{field}` is the field's label in the default locale, with the reader's label
 * instead: the engine names fields from the spec's model, the reader reads their own language.
 */
function withLabel(model: Model, shown: Model, issue: FieldIssue): FieldIssue {
  const label = issue.params?.['field'];
  if (issue.field === null || typeof label !== 'string') return issue;
  for (const [name, entity] of Object.entries(model.entities)) {
    if (entity.fields[issue.field]?.label !== label) continue;
    const translated = shown.entities[name]?.fields[issue.field]?.label;
    return translated === undefined ? issue : { ...issue, params: { ...issue.params, field: translated } };
  }
  return issue;
}

/**
 * The answer to a request whose database connection failed (decision 0023): 503 E_UNAVAILABLE with
 * Retry-After. A write's transaction did not commit, or its outcome is kept under its
 * Idempotency-Key, so repeating the request is safe.
 *
 * @example throw databaseUnavailable();
 */
export function databaseUnavailable(
  detail = 'The connection to the database failed. Try again in a moment: a write sent with an Idempotency-Key may be repeated safely.',
): ApiError {
  return new ApiError(
    'E_UNAVAILABLE',
    {},
    { detail, headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } },
  );
}

/**
 * What a thrown error means for the client: an {@link ApiError} as it is, a failed database
 * connection as E_UNAVAILABLE, Fastify's own errors as their catalogue codes, and anything else as
 * E_INTERNAL (logged with the correlation id).
 */
export function toApiError(error: unknown, model: Model): ApiError | null {
  if (error instanceof ApiError) return error;
  if (isConnectionFailure(error)) return databaseUnavailable();
  const e = error as Partial<FastifyError> & { statusCode?: number };
  if (e.validation !== undefined) {
    // a route's JSON schema refused the request
    const errors = e.validation.map((v) => {
      const missing = v.params?.['missingProperty'];
      const field =
        typeof missing === 'string' ? missing : v.instancePath.replace(/^\//, '').replace(/\//g, '.');
      const issue: FieldIssue = {
        field,
        code: v.keyword === 'required' ? 'E_REQUIRED' : 'E_TYPE',
        params: { field, expected: v.message ?? '' },
      };
      return issue;
    });
    return new ApiError('E_VALIDATION', {}, { errors });
  }
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new ApiError('E_PAYLOAD_TOO_LARGE', { limit: model.limits.maxBodyBytes });
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('E_BAD_REQUEST', {
        reason: 'the body must be JSON (Content-Type: application/json)',
      });
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('E_BAD_REQUEST', { reason: 'the body is not valid JSON' });
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('E_BAD_REQUEST', { reason: 'the body is empty although its Content-Type is JSON' });
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new ApiError('E_BAD_REQUEST', { reason: 'the Content-Length does not match the body' });
  }
  if (e.statusCode === 413) return new ApiError('E_PAYLOAD_TOO_LARGE', { limit: model.limits.maxBodyBytes });
  if (e.statusCode === 400 && error instanceof SyntaxError) {
    return new ApiError('E_BAD_REQUEST', { reason: 'the body is not valid JSON' });
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    // another client error of Fastify's: its message may name internals, so it stays in the log
    return new ApiError('E_BAD_REQUEST', { reason: 'the request is malformed' });
  }
  return null;
}

/**
 * Installs the error and not-found handlers that turn every failure into a problem response.
 *
 * @example installErrorHandling(app, model);
 */
export function installErrorHandling(app: FastifyInstance, model: Model): void {
  app.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const known = toApiError(error, model);
    // the client's answer, and the operator's problem too: said in one line, without a stack
    if (isConnectionFailure(error)) {
      request.log.warn({ correlationId: request.id, cause: messageOf(error) }, 'database connection failed');
    }
    // an expected failure is the client's answer, not the operator's problem: Fastify logs its status
    if (known !== null) return sendProblem(reply, model, known);
    request.log.error({ err: error, correlationId: request.id }, 'unexpected failure');
    return sendProblem(reply, model, new ApiError('E_INTERNAL'));
  });
  app.setNotFoundHandler((_request, reply) => sendProblem(reply, model, new ApiError('E_ROUTE_NOT_FOUND')));
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
