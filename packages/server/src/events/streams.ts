/**
 * The open event streams of one app (decision 0056), written by hand over the raw response as
 * Server-Sent Events, so that no hook (compression, a serializer) buffers them: a `retry:` and the
 * present cursor first, then one `record` event per change the user may read, a comment line as a
 * heartbeat on an idle stream, `resync` when a `Last-Event-ID` cannot be honoured.
 *
 * Each batch the hub reads is decided once for every stream (`access.ts`), then written to the
 * streams whose user may read it. A stream ends when its client goes, when its session or token
 * ends (checked every few seconds), when the client reads too slowly (it reconnects and replays),
 * and all at once when the app closes.
 */
import { type UserContext } from '@ninefold/engine';
import {
  EVENT_HEARTBEAT_MS,
  EVENT_RETRY_MS,
  type RecordChangeEvent,
  STREAM_EVENTS,
  type StreamEventName,
} from '@ninefold/model';
import { type ServerResponse } from 'node:http';
import { type EventAccess } from './access.js';
import { type EventHub } from './hub.js';
import { type LoggedEvent } from './log.js';

/** How often a stream's session (or token) is checked again: an ended one ends its stream (ms). */
export const SESSION_CHECK_MS = 2000;
/** Bytes a client may leave unread before its stream is ended (it reconnects and replays). */
const MAX_UNREAD_BYTES = 1 << 20;

/** What opens a stream. */
export interface StreamOpening {
  readonly userId: string;
  readonly user: UserContext;
  readonly response: ServerResponse;
  /** The `Last-Event-ID` sent, if any. */
  readonly lastEventId: string | undefined;
  /** The user as their session or token says now; null when it has ended. */
  readonly check: () => Promise<UserContext | null>;
}

interface Stream {
  readonly userId: string;
  user: UserContext;
  /** Batches that arrive while the stream replays wait here, in order. */
  waiting: Array<{ readonly event: LoggedEvent; readonly cursor: string }> | null;
  /** The rows its replay sent, which the hub may still read live: each is sent once. */
  readonly replayed: Set<string>;
  write(text: string): void;
  end(): void;
}

/**
 * Every open stream of an app.
 *
 * @example const streams = new LiveStreams(hub, eventAccess(context)); await streams.open(opening);
 */
export class LiveStreams {
  readonly #streams = new Set<Stream>();
  #delivering: Promise<void> = Promise.resolve();
  #stopHub: (() => void) | null = null;

  constructor(
    private readonly hub: EventHub,
    private readonly access: EventAccess,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The number of open streams of a user. */
  countOf(userId: string): number {
    let count = 0;
    for (const stream of this.#streams) if (stream.userId === userId) count += 1;
    return count;
  }

  /**
   * Starts a stream on a response whose head is not yet written; resolves once it is open (and has
   * replayed what its `Last-Event-ID` missed).
   */
  async open(opening: StreamOpening): Promise<void> {
    await this.hub.start();
    this.#stopHub ??= this.hub.subscribe((events, cursor) => this.#deliver(events, cursor));
    const stream = this.#stream(opening);
    if (stream === null) {
      if (this.#streams.size === 0) this.#unsubscribe();
      return;
    }
    const { lastEventId } = opening;
    const parsed = lastEventId === undefined ? undefined : this.hub.parse(lastEventId);
    // where the stream stands, so that even a quiet one can resume
    if (parsed === undefined) stream.write(`id: ${this.hub.cursor()}\n\n`);
    else if (parsed === null) send(stream, STREAM_EVENTS.resync, this.hub.cursor(), {});
    else {
      // everything logged below the hub's horizon now is in the replay, read after it
      const reached = this.hub.cursor();
      for (const event of await this.hub.replay(parsed)) {
        stream.replayed.add(event.id);
        const readers = await this.access.readersOf(event, [stream.user]);
        if (readers.size > 0) send(stream, STREAM_EVENTS.record, lastEventId ?? '', wire(event));
      }
      // where the replay left the stream: a quiet one resumes from here, not from its old cursor
      stream.write(`id: ${reached}\n\n`);
    }
    const waiting = stream.waiting ?? [];
    stream.waiting = null;
    for (const { event, cursor } of waiting) live(stream, event, cursor);
  }

  /** Ends every stream now (the app is closing). */
  closeAll(): void {
    for (const stream of this.#streams) stream.end();
    this.#unsubscribe();
  }

  #unsubscribe(): void {
    this.#stopHub?.();
    this.#stopHub = null;
  }

  #stream(opening: StreamOpening): Stream | null {
    const { response } = opening;
    if (response.destroyed) return null;
    let ended = false;
    const timers: NodeJS.Timeout[] = [];
    const stream: Stream = {
      userId: opening.userId,
      user: opening.user,
      waiting: [],
      replayed: new Set(),
      write: (text) => {
        if (ended) return;
        response.write(text);
        // a client that stopped reading: end it rather than hold its events in memory
        if (response.writableLength > MAX_UNREAD_BYTES) stream.end();
      },
      end: () => {
        if (ended) return;
        ended = true;
        for (const timer of timers) clearInterval(timer);
        this.#streams.delete(stream);
        // no stream left: the hub need not poll for this app
        if (this.#streams.size === 0) this.#unsubscribe();
        response.end();
      },
    };
    response.on('close', () => stream.end());
    response.socket?.setTimeout(0);
    response.write(`retry: ${EVENT_RETRY_MS}\n\n`);
    this.#streams.add(stream);
    timers.push(
      setInterval(() => stream.write(': heartbeat\n\n'), EVENT_HEARTBEAT_MS).unref(),
      setInterval(() => {
        opening.check().then(
          (user) => (user === null ? stream.end() : (stream.user = user)),
          (error: unknown) => this.onError(error),
        );
      }, SESSION_CHECK_MS).unref(),
    );
    return stream;
  }

  #deliver(events: readonly LoggedEvent[], cursor: string): void {
    // batches go out in the order read, each decided once for all the streams
    this.#delivering = this.#delivering.then(async () => {
      for (const event of events) {
        const streams = [...this.#streams];
        if (streams.length === 0) return;
        // the users as decided: a session check may replace a stream's user while the decision
        // awaits the record, and the new one is not among the readers (the event was lost)
        const users = streams.map((stream) => stream.user);
        try {
          const readers = await this.access.readersOf(event, users);
          for (const [index, stream] of streams.entries()) {
            if (!readers.has(users[index]!)) continue;
            if (stream.waiting !== null) stream.waiting.push({ event, cursor });
            else live(stream, event, cursor);
          }
        } catch (error) {
          this.onError(error);
        }
      }
    });
  }
}

/** Sends a row the hub read, unless the stream's replay sent it already. */
function live(stream: Stream, event: LoggedEvent, cursor: string): void {
  if (stream.replayed.delete(event.id)) return;
  send(stream, STREAM_EVENTS.record, cursor, wire(event));
}

/** The event of a row: ids only, never values. */
function wire(event: LoggedEvent): RecordChangeEvent {
  return {
    entity: event.entity,
    id: event.recordId,
    kind: event.kind,
    transition: event.transition,
    version: event.version,
  };
}

function send(stream: Stream, name: StreamEventName, id: string, data: object): void {
  stream.write(`event: ${name}\nid: ${id}\ndata: ${JSON.stringify(data)}\n\n`);
}
