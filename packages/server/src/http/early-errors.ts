/**
 * Failures before any route runs, as problems like every other: a request Node's HTTP parser refuses
 * (headers over its 16 KB, bytes that are not HTTP), answered on the socket since no request exists
 * yet, and an address Fastify's router refuses (a `%` that does not decode, a path parameter longer
 * than it reads). Fastify's defaults answer these in a JSON of their own.
 */
import { type Model } from '@ninefold/model';
import { type FastifyServerOptions } from 'fastify';
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
        return sendProblem(
          reply,
          model,
          new ApiError('E_BAD_REQUEST', { reason: 'the address holds a % sequence that does not decode' }),
        );
      }
      if (code === 'FST_ERR_MAX_PARAM_LENGTH')
        return sendProblem(reply, model, new ApiError('E_URI_TOO_LONG'));
      return sendProblem(reply, model, toApiError(error, model) ?? new ApiError('E_INTERNAL'));
    },
  };
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
