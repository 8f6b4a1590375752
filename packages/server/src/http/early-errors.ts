/**
 * Failures before any route runs, as problems like every other: a request Node's HTTP parser refuses
 * (headers over its 16 KB, bytes that are not HTTP), answered on the socket since no request exists
 * yet, and an address Fastify's router refuses (a `%` that does not decode, a path parameter longer
 * than it reads). Fastify's defaults answer these in a JSON of their own. A query string that does
 * not decode, which Fastify's parser would keep as literal text, is refused the same way.
 */
import { type Model } from '@ninefold/model';
import { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { STATUS_CODES } from 'node:http';
import { type Duplex } from 'node:stream';
import { ApiError, PROBLEM_CONTENT_TYPE, problemOf, sendProblem, toApiError } from './errors.js';

type EarlyErrorOptions = Required<Pick<FastifyServerOptions, 'clientErrorHandler' | 'frameworkErrors'>>;

/**
 * The Fastify options that answer early failures with problems.
 *
 * @example Fastify({ ...earlyErrorOptions(model), bodyLimit: 1024 })
 */
export function earlyErrorOptions(model: Model): EarlyErrorOptions {
  return {
    clientErrorHandler: (error, socket) => answerOnSocket(model, error, socket),
    frameworkErrors: (error, _request, reply) => {
      const code = (error as { code?: unknown }).code;
      if (code === 'FST_ERR_BAD_URL') {
        return sendProblem(reply, model, new ApiError('E_BAD_REQUEST', { reason: UNDECODABLE }));
      }
      if (code === 'FST_ERR_MAX_PARAM_LENGTH')
        return sendProblem(reply, model, new ApiError('E_URI_TOO_LONG'));
      return sendProblem(reply, model, toApiError(error, model) ?? new ApiError('E_INTERNAL'));
    },
  };
}

const UNDECODABLE = 'the address holds a % sequence that does not decode';

/**
 * Refuses, with E_BAD_REQUEST, a request whose query string holds a `%` sequence that does not
 * decode (`%E0%A4%A`, `100%`): the query parser would keep it as literal text, and a filter would
 * then answer for a value no one asked about. A query without `%` costs one `indexOf`.
 *
 * @example refuseUndecodableQueries(app);
 */
export function refuseUndecodableQueries(app: FastifyInstance): void {
  app.addHook('onRequest', (request, _reply, done) => {
    const start = request.url.indexOf('?');
    if (start !== -1 && request.url.includes('%', start) && !decodes(request.url.slice(start + 1))) {
      done(new ApiError('E_BAD_REQUEST', { reason: UNDECODABLE }));
      return;
    }
    done();
  });
}

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The problem of an error of Node's HTTP parser, written on the socket, which is then closed. */
function answerOnSocket(model: Model, error: Error & { code?: string }, socket: Duplex): void {
  // a connection reset or already closed: there is no one to answer
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const problem =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? problemOf(model, 'E_HEADERS_TOO_LARGE')
      : problemOf(model, 'E_BAD_REQUEST', {
          reason:
            error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
              ? 'it did not arrive in time'
              : 'it is not a well-formed HTTP request',
        });
  const body = JSON.stringify(problem);
  socket.end(
    `HTTP/1.1 ${problem.status} ${STATUS_CODES[problem.status] ?? ''}\r\n` +
      `Content-Type: ${PROBLEM_CONTENT_TYPE}\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'X-Content-Type-Options: nosniff\r\n' +
      'Connection: close\r\n\r\n' +
      body,
  );
}
