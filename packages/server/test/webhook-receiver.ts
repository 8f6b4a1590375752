/**
 * A real webhook receiver for the tests: a node:http server on a free local port that checks every
 * request's signature with the `standardwebhooks` package, as a receiver would, and answers as the
 * test tells it (200 by default; a status, a redirect, or no answer at all). It counts the requests
 * in flight, so a test can show that one record's deliveries never overlap.
 */
import { randomBytes } from 'node:crypto';
import { type IncomingHttpHeaders, type ServerResponse, createServer } from 'node:http';
import { type AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll } from 'vitest';

/** One request the receiver got. */
export interface Received {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
  /** The body as the signature check returned it, or null when the check failed. */
  readonly verified: {
    type: string;
    timestamp: string;
    data: { entity: string; id: string; record: Record<string, unknown>; actor: unknown };
  } | null;
  readonly error: string | null;
}

/** How to answer the next request: a status (and body), a redirect, or never. */
export type Answer = { status: number; body?: string; location?: string } | 'hang';

export interface Receiver {
  readonly url: string;
  readonly secret: string;
  readonly received: Received[];
  /** The answers of the next requests, in order; when empty, {@link Receiver.decide}'s. */
  readonly answers: Answer[];
  /** The answer to a request when `answers` is empty (default 200). */
  decide: (request: Received) => Answer;
  /** The most requests that were in flight at once. */
  readonly maxInFlight: () => number;
  /** How long each answer waits (ms). */
  delayMs: number;
}

/**
 * Starts a receiver, stopped after the file's tests.
 *
 * @example const receiver = await startReceiver(); receiver.answers.push({ status: 500 });
 */
export async function startReceiver(): Promise<Receiver> {
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const verifier = new Webhook(secret);
  let inFlight = 0;
  let most = 0;
  const received: Received[] = [];
  const answers: Answer[] = [];
  const receiver: Receiver = {
    url: '',
    secret,
    received,
    answers,
    maxInFlight: () => most,
    delayMs: 0,
    decide: () => ({ status: 200, body: 'thanks' }),
  };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      const body = Buffer.concat(chunks).toString('utf8');
      let verified: Received['verified'] = null;
      let error: string | null = null;
      try {
        verified = verifier.verify(body, request.headers as Record<string, string>) as Received['verified'];
      } catch (caught) {
        error = caught instanceof Error ? caught.message : String(caught);
      }
      const got: Received = { path: request.url ?? '', headers: request.headers, body, verified, error };
      received.push(got);
      const answer = answers.shift() ?? receiver.decide(got);
      if (answer === 'hang') return; // never answers: the sender's timeout ends it
      setTimeout(() => {
        inFlight -= 1;
        reply(response, answer);
      }, receiver.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, { url: `http://127.0.0.1:${port}/hook` });
}

function reply(response: ServerResponse, answer: { status: number; body?: string; location?: string }) {
  if (answer.location !== undefined) response.setHeader('location', answer.location);
  response.writeHead(answer.status, { 'content-type': 'text/plain' });
  response.end(answer.body ?? '');
}
