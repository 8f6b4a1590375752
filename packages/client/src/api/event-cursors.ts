/**
 * The live stream's cursors of the reads the app holds (decisions 0056 and 0060). Every read of
 * records, lists and dashboards answers with the cursor of the moment before it read
 * (`Ninefold-Event-Cursor`); the app opens its stream from the oldest of them (`?since=`), and the
 * server replays every change committed after it — so the stream misses nothing any read missed,
 * and the page need not read everything again once the stream is open.
 *
 * A read begun before the stream took its cursor may answer after, from an older moment than the
 * one taken: its data may lack a change the stream will never send. Such a late read is told to
 * the stream's reader (`onLate`), which then reads again what is shown, as it did before cursors.
 * Data the app holds without a cursor (a prerender from a server that sends none) makes a stream
 * open without one, and read everything again once open.
 *
 * The oldest cursor is the app's since it started, never forgotten: data read before a stream
 * opened may still be in the cache when another opens (a remount), and a cursor older than needed
 * only replays more (or, past the server's five minutes, asks for the resync a stream without one
 * would have done anyway).
 */
import { olderEventCursor } from '@ninefold/model';

export interface EventCursors {
  /**
   * A read begins; the returned function is told, once, how it ended: its answer's cursor, or null
   * (it failed, or answered without one: not a read of records).
   */
  reading(): (cursor: string | null) => void;
  /**
   * Settles once the app holds a read of records (or data of an unknown moment) and no read is
   * under way: a stream opened then has the cursor of every read the page began with.
   */
  settled(): Promise<void>;
  /** The app holds data of an unknown moment: the next stream opens without a cursor. */
  holdUnknown(): void;
  /**
   * The oldest cursor of the reads answered so far, or null (none, or data of an unknown moment
   * held): what a stream opens from.
   */
  take(): string | null;
  /** Calls `listener` when a read begun before the last take answers from an older moment; returns how to stop. */
  onLate(listener: () => void): () => void;
}

/**
 * The cursors of one app's reads.
 *
 * @example const cursors = eventCursors(); const answered = cursors.reading(); answered(header); cursors.take();
 */
export function eventCursors(): EventCursors {
  let oldest: string | null = null;
  let unknown = false;
  let begun = 0;
  // the reads begun before the last take, and what it took
  let beforeTake = 0;
  let taken: string | null = null;
  let underWay = 0;
  const late = new Set<() => void>();
  const idle: (() => void)[] = [];
  const isSettled = () => underWay === 0 && (oldest !== null || unknown);
  return {
    reading() {
      const number = ++begun;
      underWay += 1;
      let ended = false;
      return (cursor) => {
        if (ended) return;
        ended = true;
        underWay -= 1;
        if (cursor !== null) oldest = oldest === null ? cursor : olderEventCursor(oldest, cursor);
        if (isSettled()) for (const resolve of idle.splice(0)) resolve();
        if (cursor === null) return;
        if (number <= beforeTake && taken !== null && olderEventCursor(taken, cursor) !== taken)
          for (const listener of late) listener();
      };
    },
    settled() {
      return isSettled() ? Promise.resolve() : new Promise((resolve) => idle.push(resolve));
    },
    holdUnknown() {
      unknown = true;
      if (isSettled()) for (const resolve of idle.splice(0)) resolve();
    },
    take() {
      taken = unknown ? null : oldest;
      beforeTake = begun;
      return taken;
    },
    onLate(listener) {
      late.add(listener);
      return () => void late.delete(listener);
    },
  };
}
