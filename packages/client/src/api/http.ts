/**
 * The HTTP client of the API a model describes: its base path, the CSRF header, a timeout per
 * request, retries after a network failure, and every failure as a typed error — an `ApiError`
 * carrying the catalogue's problem, or a `NetworkError` (or `WriteQueued`, from the offline queue). A write carries an `Idempotency-Key` of its
 * own, the same in every attempt, so that the server does it once however often it is sent.
 */
import {
  type Calls,
  CSRF_HEADER,
  CSRF_HEADER_VALUE,
  EVENT_CURSOR_HEADER,
  type ErrorCode,
  type FieldProblem,
  type HttpMethod,
  IDEMPOTENCY_KEY_HEADER,
  IF_MATCH_HEADER,
  type Problem,
  ifMatch,
  localProblem,
} from '@ninefold/model';
// the queue's code loads with the screens that write; only its type is needed here
import type { QueuedWrite } from '../offline/queue';
import { type EventCursors, eventCursors } from './event-cursors';
import type { UploadTransport } from './upload';

/** The server answered with a problem: the catalogue's code and its rendered message. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(readonly problem: Problem) {
    super(problem.message);
  }
  get code(): ErrorCode {
    return this.problem.code;
  }
  get status(): number {
    return this.problem.status;
  }
  get fieldErrors(): readonly FieldProblem[] {
    return this.problem.errors ?? [];
  }
}

/** The server could not be reached, or did not answer in time. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
  constructor(
    readonly reason: 'offline' | 'timeout',
    options?: { cause?: unknown },
  ) {
    super(
      reason === 'timeout' ? 'The server did not answer in time.' : 'The server could not be reached.',
      options,
    );
  }
}

/**
 * Not sent, but kept: the server could not be reached, and the write waits in the offline queue
 * (`calls.offlineQueue`) to be sent when it can be.
 */
export class WriteQueued extends Error {
  override readonly name = 'WriteQueued';
  constructor(readonly write: QueuedWrite) {
    super('The change is saved on this device and will be sent when the server can be reached.');
  }
}

export interface RequestOptions {
  readonly body?: unknown;
  /** The record version a write is based on: sent as `If-Match`. */
  readonly version?: number;
  readonly signal?: AbortSignal;
  readonly query?: URLSearchParams | Readonly<Record<string, string>>;
  /**
   * A write's `Idempotency-Key`, when the caller keeps one across its own repeats (a form sent
   * again after a lost answer); otherwise each write gets a new one, kept across the retries.
   */
  readonly idempotencyKey?: string;
  /** Sent with `keepalive`: it outlives the page (a held delete sent as the page goes). */
  readonly keepalive?: boolean;
}

export interface HttpOptions {
  readonly calls: Pick<Calls, 'basePath' | 'timeoutMs' | 'retries'>;
  /** The fetch to use; tests pass one that reaches a real server in-process. */
  readonly fetch?: typeof fetch;
  /** Called on every 401, so that the app can return to sign-in. */
  readonly onUnauthenticated?: (problem: Problem) => void;
  /** Waits before a retry; tests make it instant. */
  readonly sleep?: (ms: number) => Promise<void>;
  /** How uploads are sent: `XMLHttpRequest` in a browser, over `fetch` when one is given. */
  readonly upload?: UploadTransport;
}

export interface UploadOptions {
  readonly query?: RequestOptions['query'];
  readonly signal?: AbortSignal;
  /** Told the bytes sent so far and the total, as they go. */
  readonly onProgress?: (sent: number, total: number) => void;
}

export interface Http {
  /** `path` is relative to the API's base path: `claims`, `claims/<id>/history`. */
  request<T>(method: HttpMethod, path: string, options?: RequestOptions): Promise<T>;
  get<T>(path: string, options?: RequestOptions): Promise<T>;
  /** The absolute URL of an API path, for links such as a CSV download. */
  url(path: string, query?: RequestOptions['query']): string;
  /**
   * A multipart `POST` with its progress (a file's upload): sent once, never retried, since a
   * file chosen again is the user's to send; aborting its `signal` rejects with an `AbortError`.
   */
  upload<T>(path: string, body: FormData, options?: UploadOptions): Promise<T>;
  /** The live stream's cursors of the reads answered (`event-cursors.ts`): what the stream opens from. */
  readonly eventCursors: EventCursors;
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates the API client.
 *
 * @example
 * const http = createHttp({ calls: model.calls });
 * const page = await http.get<Page>('claims', { query: { sort: '-spentOn' } });
 */
export function createHttp(options: HttpOptions): Http {
  const { basePath, timeoutMs, retries } = options.calls;
  const doFetch = options.fetch ?? globalThis.fetch.bind(globalThis);
  const sleep = options.sleep ?? sleepFor;
  const base = basePath.replace(/\/+$/, '');
  // the transports load with the first upload: no first render sends a file (a smaller first chunk)
  const transport: UploadTransport = async (request) => {
    const { fetchTransport, xhrTransport } = await import('./upload');
    return (options.fetch === undefined ? xhrTransport : fetchTransport(doFetch))(request);
  };
  const cursors = eventCursors();

  const url: Http['url'] = (path, query) => {
    const search = query === undefined ? '' : new URLSearchParams(query).toString();
    return `${base}/${path.replace(/^\/+/, '')}${search === '' ? '' : `?${search}`}`;
  };

  async function once(
    method: HttpMethod,
    target: string,
    init: RequestOptions,
    idempotencyKey: string | null,
  ): Promise<Response> {
    const headers: Record<string, string> = { accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE };
    if (init.body !== undefined) headers['content-type'] = 'application/json';
    if (init.version !== undefined) headers[IF_MATCH_HEADER] = ifMatch(init.version);
    if (idempotencyKey !== null) headers[IDEMPOTENCY_KEY_HEADER] = idempotencyKey;
    const timeout = AbortSignal.timeout(timeoutMs);
    const signal = init.signal === undefined ? timeout : AbortSignal.any([init.signal, timeout]);
    try {
      return await doFetch(target, {
        method,
        headers,
        credentials: 'same-origin',
        signal,
        ...(init.keepalive === true ? { keepalive: true } : {}),
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
    } catch (error) {
      if (init.signal?.aborted === true) throw error; // the caller gave up: not a failure to report
      throw new NetworkError(timeout.aborted ? 'timeout' : 'offline', { cause: error });
    }
  }

  async function request<T>(method: HttpMethod, path: string, init: RequestOptions = {}): Promise<T> {
    const target = url(path, init.query);
    // a write that timed out may have been applied: its repeats carry its key, and the server
    // answers them with the first attempt's outcome instead of doing it again
    const idempotencyKey = method === 'GET' ? null : (init.idempotencyKey ?? newIdempotencyKey());
    const attempts = retries + 1;
    const answered = method === 'GET' ? cursors.reading() : null;
    let response: Response | undefined;
    try {
      for (let attempt = 1; response === undefined; attempt++) {
        try {
          response = await once(method, target, init, idempotencyKey);
        } catch (error) {
          if (!(error instanceof NetworkError) || attempt >= attempts) throw error;
          await sleep(Math.min(250 * 2 ** (attempt - 1), 4000));
        }
      }
    } finally {
      // a read's cursor is the live stream's: where it opens from (`event-cursors.ts`)
      answered?.(response?.ok === true ? response.headers.get(EVENT_CURSOR_HEADER) : null);
    }
    if (response.status === 204) return undefined as T;
    return answer<T>(response.status, await response.text());
  }

  /** The body of a successful answer, or its problem thrown as an `ApiError`. */
  function answer<T>(status: number, text: string): T {
    const body: unknown = text === '' ? undefined : safeJson(text);
    if (status >= 200 && status < 300) return body as T;
    const problem = asProblem(body, status);
    if (status === 401) options.onUnauthenticated?.(problem);
    throw new ApiError(problem);
  }

  async function upload<T>(path: string, body: FormData, init: UploadOptions = {}): Promise<T> {
    const headers = { accept: 'application/json', [CSRF_HEADER]: CSRF_HEADER_VALUE };
    let sent;
    try {
      sent = await (options.upload ?? transport)({
        url: url(path, init.query),
        body,
        headers,
        ...(init.signal === undefined ? {} : { signal: init.signal }),
        ...(init.onProgress === undefined ? {} : { onProgress: init.onProgress }),
      });
    } catch (error) {
      if (init.signal?.aborted === true) throw error; // the caller cancelled: not a failure to report
      throw new NetworkError('offline', { cause: error });
    }
    return answer<T>(sent.status, sent.text);
  }

  return {
    request,
    get: (path, init) => request('GET', path, init),
    url,
    upload,
    eventCursors: cursors,
  };
}

/**
 * A random UUID (version 4) for an `Idempotency-Key`, from `crypto.getRandomValues`, which a page
 * served over plain HTTP has too (`crypto.randomUUID` needs a secure context).
 *
 * @example newIdempotencyKey() // '0b7e6c1e-3f0a-4d8e-9c1b-6f2f4a9d1e77'
 */
export function newIdempotencyKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** A problem from any error body: a proxy's HTML page becomes E_INTERNAL with its status kept. */
function asProblem(body: unknown, status: number): Problem {
  if (typeof body === 'object' && body !== null) {
    const candidate = body as Partial<Problem>;
    if (typeof candidate.code === 'string' && typeof candidate.message === 'string') {
      return { ...candidate, status: candidate.status ?? status } as Problem;
    }
  }
  return localProblem(status === 404 ? 'E_ROUTE_NOT_FOUND' : 'E_INTERNAL', status);
}
