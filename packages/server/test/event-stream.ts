/**
 * A client of the live events stream for the tests, over real HTTP (`inject` waits for a response's
 * end, which a stream never reaches): it opens `GET <basePath>/events` with `node:http` and
 * parses the Server-Sent Events as they come, as a browser's EventSource would.
 */
import { type RecordChangeEvent } from '@ninefold/model';
import http from 'node:http';
import { expect } from 'vitest';

/** One message of the stream: its `event:`, `id:`, `data:` and `retry:` fields. */
export interface StreamMessage {
  readonly event: string | undefined;
  readonly id: string | undefined;
  readonly data: string | undefined;
  readonly retry: string | undefined;
}

export interface OpenStream {
  readonly status: number;
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** Every message so far, comments (heartbeats) left out. */
  readonly messages: StreamMessage[];
  /** The `record` events so far. */
  records(): RecordChangeEvent[];
  /** The last `id:` received, as a browser keeps it for `Last-Event-ID`. */
  lastId(): string | undefined;
  /** Settles when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Whether the server has ended it. */
  isEnded(): boolean;
  close(): void;
}

/**
 * Opens the stream at `url` with the session cookie (a `Last-Event-ID`, other headers), over `node:http`: the
 * client goes away by destroying its socket, as a closed tab does.
 *
 * @example const stream = await openStream(`${base}/api/events`, cookie);
 */
export async function openStream(
  url: string,
  cookie: string | undefined,
  lastEventId?: string,
  extra: Record<string, string> = {},
): Promise<OpenStream> {
  const headers: Record<string, string> = { accept: 'text/event-stream', ...extra };
  if (cookie !== undefined) headers['cookie'] = cookie;
  if (lastEventId !== undefined) headers['last-event-id'] = lastEventId;
  const request = http.get(url, { headers, agent: false });
  const response = await new Promise<http.IncomingMessage>((resolve, reject) => {
    request.on('response', resolve);
    request.on('error', reject);
  });
  request.on('error', () => undefined);
  const messages: StreamMessage[] = [];
  let ended = false;
  let buffer = '';
  response.setEncoding('utf8');
  response.on('data', (chunk: string) => {
    buffer += chunk;
    let end = buffer.indexOf('\n\n');
    while (end >= 0) {
      const message = parse(buffer.slice(0, end));
      buffer = buffer.slice(end + 2);
      if (message !== null) messages.push(message);
      end = buffer.indexOf('\n\n');
    }
  });
  const done = new Promise<void>((resolve) => {
    const finish = () => {
      ended = true;
      resolve();
    };
    response.on('end', finish);
    response.on('close', finish);
    response.on('error', finish);
  });
  return {
    status: response.statusCode ?? 0,
    headers: response.headers,
    messages,
    records: () =>
      messages
        .filter((m) => m.event === 'record')
        .map((m) => JSON.parse(m.data ?? '{}') as RecordChangeEvent),
    lastId: () => messages.findLast((m) => m.id !== undefined)?.id,
    ended: done,
    isEnded: () => ended,
    close: () => request.destroy(),
  };
}

function parse(block: string): StreamMessage | null {
  const fields: Record<string, string> = {};
  for (const line of block.split('\n')) {
    if (line.startsWith(':') || line === '') continue;
    const colon = line.indexOf(':');
    const name = colon < 0 ? line : line.slice(0, colon);
    fields[name] = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
  }
  if (Object.keys(fields).length === 0) return null;
  return { event: fields['event'], id: fields['id'], data: fields['data'], retry: fields['retry'] };
}

/**
 * Waits until the stream has a `record` event for `id` of `kind`; returns it.
 *
 * @example await arrives(stream, noteId, 'created');
 */
export async function arrives(
  stream: OpenStream,
  id: string,
  kind: RecordChangeEvent['kind'],
  timeout = 5000,
): Promise<RecordChangeEvent> {
  const find = () => stream.records().find((r) => r.id === id && r.kind === kind);
  await expect.poll(() => find() !== undefined, { timeout, interval: 5 }).toBe(true);
  return find()!;
}
