/**
 * The hub of one app's live events (decision 0056): it reads the log of changes (`log.ts`) after
 * the horizon it has reached and hands each batch to its subscribers (the open streams). It reads
 * when woken — by a change written in this process (at once, and again a moment later, as the
 * change commits after it is logged), by `NOTIFY ninefold_events` from any process on PostgreSQL,
 * by a (re)connection of that LISTEN (something may have been missed) — while a stream is open,
 * and every second once started, the fallback where nothing else can wake it and what keeps an
 * idle hub's cursor recent. It prunes the log as it goes.
 *
 * A position in the log is a cursor, `<horizon>.<issued at, ms>`: the stream's `id:`. Everything
 * below the horizon was sent before the cursor was issued; a reconnection replays the log from it,
 * so a row may come twice (at least once: the client ignores a version it has), never not at all.
 */
import { EVENT_REPLAY_MS } from '@ninefold/model';
import { type Database } from '../db/open.js';
import { type Listening } from '../db/postgres-listen.js';
import { EVENTS_CHANNEL, type LoggedEvent, logHorizon, onRecordChange, pruneLog, readLog } from './log.js';

/** The fallback read, and an idle hub's only one (ms). */
const POLL_MS = 1000;
/** The reads after a change logged in this process: it commits a moment after it is logged (ms). */
const AFTER_WAKE_MS = [5, 50, 250] as const;
/** How often the log is pruned (ms). */
const PRUNE_EVERY_MS = 60_000;
/** Rows are kept this much longer than a cursor is honoured: a slow transaction's row, too (ms). */
const PRUNE_MARGIN_MS = 60_000;

/** Hears each batch of new rows, with the cursor of the horizon they were read from. */
export type Subscriber = (events: readonly LoggedEvent[], cursor: string) => void;

/** A cursor read back from a `Last-Event-ID`: where to replay from, or null (send `resync`). */
export type ParsedCursor = { readonly horizon: number } | null;

/**
 * The live events of one app's database.
 *
 * @example const hub = new EventHub(database, () => new Date(), console.error); const stop = hub.subscribe(send);
 */
export class EventHub {
  #horizon = 0;
  /** The rows sent at or above the horizon, by id, with their `tx`: a later read sees them again. */
  readonly #sent = new Map<string, number>();
  readonly #subscribers = new Set<Subscriber>();
  #started: Promise<void> | null = null;
  #ready = false;
  #closed = false;
  #reading: Promise<void> | null = null;
  #again = false;
  #poll: NodeJS.Timeout | null = null;
  #listening: Listening | null = null;
  #stopLocal: (() => void) | null = null;
  #prunedAt = 0;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Starts reading (once): the horizon is now, the rows already written count as sent. */
  start(): Promise<void> {
    // a start that failed (the database away) is tried again by the next stream
    this.#started ??= this.#begin().catch((error: unknown) => {
      this.#started = null;
      throw error;
    });
    return this.#started;
  }

  /** Whether it has started: its cursor is then known without a query. */
  get ready(): boolean {
    return this.#ready;
  }

  /** The cursor of the present: everything logged before it has been handed to the subscribers. */
  cursor(): string {
    return `${this.#horizon}.${this.now().getTime()}`;
  }

  /**
   * A `Last-Event-ID` as a cursor this hub can replay from, or null: not one of ours, or older than
   * the log keeps.
   *
   * @example hub.parse('1042.1767225600000') // { horizon: 1042 } while it is recent
   */
  parse(lastEventId: string): ParsedCursor {
    const match = /^(\d{1,15})\.(\d{1,15})$/.exec(lastEventId);
    if (match === null) return null;
    const horizon = Number(match[1]);
    const issued = Number(match[2]);
    const now = this.now().getTime();
    // a cursor from the future is not one of ours either
    if (issued > now + PRUNE_MARGIN_MS || now - issued > EVENT_REPLAY_MS) return null;
    return { horizon };
  }

  /** The rows logged at or above a parsed cursor's horizon, to replay. */
  async replay(cursor: NonNullable<ParsedCursor>): Promise<readonly LoggedEvent[]> {
    return (await readLog(this.database.db, this.database.dialect, cursor.horizon)).events;
  }

  /** Hands every batch read from now on to `subscriber`; returns how to stop. */
  subscribe(subscriber: Subscriber): () => void {
    this.#subscribers.add(subscriber);
    return () => this.#subscribers.delete(subscriber);
  }

  /**
   * Reads the log now (or right after the read under way), while a stream is open. With none, a
   * change wakes nothing: the once-a-second read keeps the cursor the reads hand out (`cursor-
   * header.ts`) within a second of the present, and a write costs no read of the log at all —
   * bench:instances measured the reads after every write at a quarter of PostgreSQL's time and
   * of the instances' own.
   */
  wake(): void {
    if (this.#subscribers.size > 0) this.#read();
  }

  #read(): void {
    if (this.#closed || this.#started === null) return;
    if (this.#reading !== null) {
      this.#again = true;
      return;
    }
    this.#reading = this.#readAll().finally(() => (this.#reading = null));
  }

  /** Stops listening and reading; the subscribers are the streams', which end them. */
  async close(): Promise<void> {
    this.#closed = true;
    if (this.#poll !== null) clearInterval(this.#poll);
    this.#stopLocal?.();
    await this.#listening?.close();
    await this.#reading;
  }

  async #begin(): Promise<void> {
    const start = await logHorizon(this.database.db, this.database.dialect);
    const { events, horizon } = await readLog(this.database.db, this.database.dialect, start);
    this.#horizon = horizon;
    for (const event of events) if (event.tx >= horizon) this.#sent.set(event.id, event.tx);
    // started by a read while the app closed: nothing to hear any more
    if (this.#closed) return;
    this.#stopLocal = onRecordChange(this.database.db, () => {
      for (const delay of AFTER_WAKE_MS) setTimeout(() => this.wake(), delay).unref();
    });
    this.#listening =
      this.database.listen?.(
        EVENTS_CHANNEL,
        () => this.wake(),
        (error) => this.onError(error),
      ) ?? null;
    // the fallback where nothing else wakes it, and the cursor's pace while no stream is open
    this.#poll = setInterval(() => this.#read(), POLL_MS).unref();
    this.#ready = true;
  }

  async #readAll(): Promise<void> {
    do {
      this.#again = false;
      try {
        await this.#readOnce();
      } catch (error) {
        this.onError(error);
      }
    } while (this.#again && !this.#closed);
  }

  async #readOnce(): Promise<void> {
    const cursor = this.cursor();
    const { events, horizon } = await readLog(this.database.db, this.database.dialect, this.#horizon);
    const fresh = events.filter((event) => !this.#sent.has(event.id));
    this.#horizon = horizon;
    for (const event of fresh) this.#sent.set(event.id, event.tx);
    for (const [id, tx] of this.#sent) if (tx < horizon) this.#sent.delete(id);
    if (fresh.length > 0) for (const subscriber of this.#subscribers) subscriber(fresh, cursor);
    await this.#pruneNow();
  }

  async #pruneNow(): Promise<void> {
    const now = this.now().getTime();
    if (now - this.#prunedAt < PRUNE_EVERY_MS) return;
    this.#prunedAt = now;
    await pruneLog(this.database.db, new Date(now - EVENT_REPLAY_MS - PRUNE_MARGIN_MS));
  }
}
