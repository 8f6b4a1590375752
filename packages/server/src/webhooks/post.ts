/**
 * One HTTP POST of a webhook message to the address checked for it (`address.ts`): the connection
 * goes to that address whatever the host resolves to now, while the request still names the host
 * (its Host header, and its TLS server name for https). Redirects are not followed — Node's client
 * never does — so a 3xx is an answer like any other, and a failure for the caller. The answer's
 * body is read only as far as the log keeps it.
 */
import http from 'node:http';
import https from 'node:https';
import { type LookupFunction } from 'node:net';
import { type CheckedAddress } from './address.js';

/** The most of an answer's body kept: enough to read why a receiver refused. */
export const MAX_ANSWER_LENGTH = 500;

/** A receiver's answer. */
export interface PostAnswer {
  readonly status: number;
  /** The start of the body, at most {@link MAX_ANSWER_LENGTH} characters. */
  readonly text: string;
  /** Where a redirect points, for the log. */
  readonly location: string | null;
}

/**
 * Posts `body` to `url`, connecting to `address`; rejects on a network error or when `signal`
 * aborts (a timeout, the runner stopping).
 *
 * @example await postTo(new URL('https://hooks.example/in'), { address: '93.184.215.14', family: 4 }, headers, body, signal)
 */
export function postTo(
  url: URL,
  address: CheckedAddress,
  headers: Readonly<Record<string, string>>,
  body: string,
  signal: AbortSignal,
): Promise<PostAnswer> {
  // every name resolves to the checked address; Node asks for a list when it may try several
  const lookup: LookupFunction = (_hostname, options, callback) => {
    if (options.all === true) callback(null, [{ address: address.address, family: address.family }]);
    else callback(null, address.address, address.family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<PostAnswer>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup,
        signal,
        agent: false,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location ?? null;
        let text = '';
        const finish = () => resolve({ status, text: text.slice(0, MAX_ANSWER_LENGTH), location });
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          text += chunk;
          // enough read: the rest is not kept, so not waited for
          if (text.length >= MAX_ANSWER_LENGTH) {
            response.destroy();
            finish();
          }
        });
        response.on('end', finish);
        response.on('error', (error) => (text.length > 0 ? finish() : reject(error)));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}
