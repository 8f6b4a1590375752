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
