/**
 * How a file's bytes reach the server: a multipart `POST` whose progress is reported as it is
 * sent. The browser's transport is `XMLHttpRequest`, the one request API that reports upload
 * progress; a `fetch` (tests reach the server in-process through one) reports only the end. Both
 * answer the status and body as they came, for `Http.upload` to read like any other answer.
 */

/** One upload to send: its URL, its multipart body, its headers (the CSRF header among them). */
export interface UploadRequest {
  readonly url: string;
  readonly body: FormData;
  readonly headers: Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
  /** Told the bytes sent so far and the total, as they go. */
  readonly onProgress?: (sent: number, total: number) => void;
}

/** The server's answer to an upload. */
export interface UploadAnswer {
  readonly status: number;
  readonly text: string;
}

/** Sends an upload; rejects with a `TypeError` when the network fails, an `AbortError` when aborted. */
export type UploadTransport = (request: UploadRequest) => Promise<UploadAnswer>;

/**
 * The browser's transport: `XMLHttpRequest`, reporting `upload.onprogress`.
 *
 * @example const answer = await xhrTransport({ url: '/api/files', body, headers, onProgress });
 */
export const xhrTransport: UploadTransport = (request) =>
  new Promise<UploadAnswer>((resolve, reject) => {
    if (request.signal?.aborted === true) return reject(abortError());
    const xhr = new XMLHttpRequest();
    xhr.open('POST', request.url);
    xhr.withCredentials = true;
    for (const [name, value] of Object.entries(request.headers)) xhr.setRequestHeader(name, value);
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable) request.onProgress?.(event.loaded, event.total);
    };
    xhr.onload = () => resolve({ status: xhr.status, text: xhr.responseText });
    xhr.onerror = () => reject(new TypeError('The upload could not reach the server.'));
    xhr.ontimeout = xhr.onerror;
    xhr.onabort = () => reject(abortError());
    request.signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(request.body);
  });

/**
 * A transport over a `fetch`: progress is told once, when the whole file has been sent.
 *
 * @example const transport = fetchTransport(injectFetch(server, jar));
 */
export function fetchTransport(doFetch: typeof fetch): UploadTransport {
  return async (request) => {
    const response = await doFetch(request.url, {
      method: 'POST',
      headers: request.headers,
      body: request.body,
      credentials: 'same-origin',
      ...(request.signal === undefined ? {} : { signal: request.signal }),
    });
    const text = await response.text();
    const file = request.body.get('file');
    const total = typeof file === 'object' && file !== null ? file.size : 0;
    request.onProgress?.(total, total);
    return { status: response.status, text };
  };
}

function abortError(): DOMException {
  return new DOMException('The upload was cancelled.', 'AbortError');
}
