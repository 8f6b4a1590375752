/**
 * Telling a database that is gone from a query that went wrong (decision 0023). A connection cut
 * by the database (a restart, a failover, an idle timeout, `pg_terminate_backend`) or one that
 * cannot be made says nothing about the request: the request gets 503 E_UNAVAILABLE with
 * Retry-After, not 500, and a read may be tried once more on a fresh connection.
 */

/** A connection the pool could not make (refused, timed out, not accepted by the database). */
export class DatabaseUnreachable extends Error {
  constructor(cause: unknown) {
    super(`The database cannot be reached: ${messageOf(cause)}`, { cause });
    this.name = 'DatabaseUnreachable';
  }
}

/** Seconds a client is asked to wait before trying again (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 2;

/**
 * PostgreSQL's codes for a connection that failed or was ended by the server: class 08
 * (connection exception), admin_shutdown, crash_shutdown and cannot_connect_now.
 */
const SERVER_CODES = new Set(['57P01', '57P02', '57P03']);

/** Node's codes for a socket that was refused, reset, cut or never answered. */
const SOCKET_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

/** The driver's (pg, pg-pool) words for a connection that ended under it. */
const DRIVER_MESSAGES = [
  'Connection terminated',
  'Client has encountered a connection error and is not queryable',
  'timeout exceeded when trying to connect',
];

/**
 * True when an error (or an error it was caused by) means the connection to the database failed,
 * not the query: the same query on a working connection could succeed.
 *
 * @example if (isConnectionFailure(error)) throw new ApiError('E_UNAVAILABLE');
 */
export function isConnectionFailure(error: unknown): boolean {
  for (let e = error, depth = 0; typeof e === 'object' && e !== null && depth < 5; depth++) {
    if (e instanceof DatabaseUnreachable) return true;
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (code.startsWith('08') || SERVER_CODES.has(code))) return true;
    if (typeof code === 'string' && SOCKET_CODES.has(code)) return true;
    if (typeof message === 'string' && DRIVER_MESSAGES.some((m) => message.startsWith(m))) return true;
    e = cause;
  }
  return false;
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
