/**
 * The signed-in user's stream of record changes (`GET <basePath>/events`, decision 0060) as the app
 * reads it: the browser's `EventSource` behind a small interface, so that tests drive it with a fake
 * one. The browser reconnects by itself after a dropped connection and sends `Last-Event-ID`; the
 * server then replays what was missed or sends `resync`. What it does not do is try again after an
 * answer that is not a stream (a 401, a 503 while a deploy rolls): then this module opens a new one
 * after a growing pause. The first stream opens from the cursor of the oldest read the app holds
 * (`?since=`): the server replays what changed after it, or sends `resync`. A stream opened without
 * one (no read had one, or anew after a refusal) asks for a resync once open, so that nothing that
 * changed before it is missed.
 */
import {
  EVENT_RETRY_MS,
  EVENT_SINCE_PARAM,
  type RecordChangeEvent,
  type RecordChangeKind,
  STREAM_EVENTS,
} from '@ninefold/model';

/** What the app needs of an `EventSource`; the browser's is one. */
export interface EventSourceLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onerror: ((event: Event) => void) | null;
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void): void;
  close(): void;
}

/** Opens an event stream at a URL (same origin: the session cookie goes with it). */
export type OpenEventSource = (url: string) => EventSourceLike;

/** What the stream tells its reader. */
export interface StreamHandlers {
  /** One record changed (the event's data, checked). */
  readonly record: (change: RecordChangeEvent) => void;
  /** Something may have been missed: what is shown should be read again. */
  readonly resync: () => void;
  /** The server refused the stream (the session may have ended); a new one is opened later. */
  readonly refused?: () => void;
}

/** `EventSource.CLOSED`, spelled out: jsdom has no `EventSource` to read it from. */
const CLOSED = 2;
/** The longest pause before a new stream is opened after one was refused (ms). */
const MAX_PAUSE_MS = 60_000;
const KINDS: ReadonlySet<RecordChangeKind> = new Set(['created', 'updated', 'transition', 'deleted']);

/**
 * The browser's own `EventSource`, or null where there is none (an old browser; jsdom): then no
 * stream, and pages show what they read.
 */
export const browserEventSource: OpenEventSource | null =
  typeof EventSource === 'undefined' ? null : (url) => new EventSource(url);

/**
 * A `record` event's data, if it is one: anything else on the wire is ignored rather than trusted.
 *
 * @example readChange('{"entity":"Claim","id":"c1","kind":"updated","transition":null,"version":3}')
 */
export function readChange(data: string): RecordChangeEvent | null {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof value !== 'object' || value === null) return null;
  const { entity, id, kind, transition, version } = value as Record<string, unknown>;
  if (typeof entity !== 'string' || typeof id !== 'string' || typeof version !== 'number') return null;
  if (typeof kind !== 'string' || !KINDS.has(kind as RecordChangeKind)) return null;
  if (transition !== null && typeof transition !== 'string') return null;
  return { entity, id, kind: kind as RecordChangeKind, transition, version };
}

/**
 * Follows the stream until closed: opened from `since` (the cursor of the oldest read the app
 * holds), reconnected by the browser after a drop, opened anew after a refusal.
 *
 * @example const stream = followStream(browserEventSource, '/api/events', { record, resync }, cursor); stream.close();
 */
export function followStream(
  open: OpenEventSource,
  url: string,
  handlers: StreamHandlers,
  since: string | null = null,
): { close(): void } {
  let source: EventSourceLike | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let pause = EVENT_RETRY_MS;
  let closed = false;

  const connect = (cursor: string | null) => {
    let fresh = true;
    const current = open(cursor === null ? url : `${url}?${EVENT_SINCE_PARAM}=${encodeURIComponent(cursor)}`);
    source = current;
    current.onopen = () => {
      pause = EVENT_RETRY_MS;
      // a stream without a cursor starts from now: what happened before it is unknown. One with a
      // cursor replays from it (or the server sends resync); the browser's own reconnection sends
      // Last-Event-ID, and the server answers that
      if (fresh && cursor === null) handlers.resync();
      fresh = false;
    };
    current.onerror = () => {
      if (closed || current.readyState !== CLOSED) return; // the browser reconnects by itself
      handlers.refused?.();
      // what was read while the refused stream stood is not covered by any cursor the app kept
      timer = setTimeout(() => connect(null), pause);
      pause = Math.min(pause * 2, MAX_PAUSE_MS);
    };
    current.addEventListener(STREAM_EVENTS.record, (event) => {
      const change = readChange(event.data);
      if (change !== null) handlers.record(change);
    });
    current.addEventListener(STREAM_EVENTS.resync, () => handlers.resync());
  };

  connect(since);
  return {
    close() {
      closed = true;
      clearTimeout(timer);
      source?.close();
    },
  };
}
