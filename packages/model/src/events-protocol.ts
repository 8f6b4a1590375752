/**
 * The wire of the live changes (decision 0056): `GET <basePath>/events` is a Server-Sent Events
 * stream for the signed-in user. When a record is created, changed, transitioned or deleted, every
 * connected user who may read it receives one `record` event that names it — ids only, never its
 * values, so that a permission changed meanwhile can never leak data: the page reads the record
 * through the API, as for any other read.
 *
 * Each event has an `id:` line; a client that reconnects sends it back as `Last-Event-ID` and gets
 * what it missed, or one `resync` event when the server cannot tell (too long away, or it lost
 * track): the page then reads everything it shows again.
 */

/** The `event:` names of the stream. */
export const STREAM_EVENTS = {
  /** A change of one record (`RecordChangeEvent` as the `data:` line's JSON). */
  record: 'record',
  /** The server cannot say what was missed: read again what is shown (`data:` is `{}`). */
  resync: 'resync',
} as const;

export type StreamEventName = (typeof STREAM_EVENTS)[keyof typeof STREAM_EVENTS];

/** What happened to the record. */
export type RecordChangeKind = 'created' | 'updated' | 'transition' | 'deleted';

/** The `data:` of a `record` event. */
export interface RecordChangeEvent {
  /** The entity's name, as in the model (`Claim`). */
  readonly entity: string;
  /** The record's id. */
  readonly id: string;
  readonly kind: RecordChangeKind;
  /** The transition's name when `kind` is `transition`; null otherwise. */
  readonly transition: string | null;
  /** The record's version after the change; for `deleted`, the version it had. */
  readonly version: number;
}

/**
 * How long the server keeps events to answer a `Last-Event-ID` with what was missed; a client away
 * longer gets `resync`.
 */
export const EVENT_REPLAY_MS = 5 * 60_000;

/** The `retry:` the stream advises: how long a browser waits before it reconnects (ms). */
export const EVENT_RETRY_MS = 2000;

/** A comment line the server sends this often on an idle stream, so proxies keep it open (ms). */
export const EVENT_HEARTBEAT_MS = 25_000;

/**
 * The response header on every read of records, lists and dashboards: the stream's cursor of the
 * moment before the read, so that a stream opened from it replays every change the read may have
 * missed (at least once). A cursor is `<horizon>.<issued at, ms>`; only the server reads its parts,
 * except to tell which of two is older (`olderEventCursor`).
 */
export const EVENT_CURSOR_HEADER = 'ninefold-event-cursor';

/**
 * The query parameter that opens a stream from a cursor (`GET <basePath>/events?since=<cursor>`):
 * a browser's `EventSource` cannot send `Last-Event-ID` on its first request. Treated as that
 * header, which wins when the browser sends one (its own reconnection).
 */
export const EVENT_SINCE_PARAM = 'since';

/**
 * The older of two cursors (the lower horizon): a stream opened from it misses nothing either read
 * could have missed.
 *
 * @example olderEventCursor('1040.1767225600000', '1042.1767225500000') // '1040.1767225600000'
 */
export function olderEventCursor(a: string, b: string): string {
  const horizon = (cursor: string) => Number(/^(\d{1,15})\.\d{1,15}$/.exec(cursor)?.[1] ?? NaN);
  const [x, y] = [horizon(a), horizon(b)];
  // one not of the shape wins: the server answers it with `resync`, which misses nothing
  if (Number.isNaN(x)) return a;
  if (Number.isNaN(y)) return b;
  return y < x ? b : a;
}
