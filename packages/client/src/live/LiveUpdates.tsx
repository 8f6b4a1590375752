/**
 * The signed-in app's one subscription to the live stream (decision 0060): mounted by the shell
 * while someone is signed in and the spec streams (`calls.realtime`), in a chunk of its own loaded
 * after the first paint. Once the page's reads have answered, it opens the stream from the oldest
 * one's cursor (so that the page need not read again), hands its changes to the query cache, reads
 * again what is shown when the browser comes back online (the stream may have missed anything), asks
 * for the session again when the server refuses the stream, and closes the stream when unmounted: at
 * sign-out, or when another user signs in. The shell hands it what it needs of the app: this chunk
 * imports nothing of the first one, which the bundler would otherwise split (`live-cache.ts`).
 */
import { type QueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { EventCursors } from '../api/event-cursors';
import { liveCache } from './live-cache';
import { type OpenEventSource, browserEventSource, followStream } from './stream';

export interface LiveUpdatesProps {
  readonly client: QueryClient;
  /** The stream's URL (`<basePath>/events`). */
  readonly url: string;
  /** Opens it; the browser's `EventSource` unless given. */
  readonly eventSource: OpenEventSource | undefined;
  /** The server refused the stream: the session may have ended, and asking for it says so. */
  readonly onRefused: () => void;
  /** The cursors of the reads the app holds: the stream opens from the oldest. */
  readonly cursors: EventCursors;
}

/** How long the stream waits at most for the page's reads, whose cursors it opens from (ms). */
const SETTLE_WAIT_MS = 2000;

export default function LiveUpdates({ client, url, eventSource, onRefused, cursors }: LiveUpdatesProps) {
  const refused = useRef(onRefused);
  refused.current = onRefused;
  useEffect(() => {
    const open = eventSource ?? browserEventSource;
    if (open === null) return;
    const live = liveCache(client);
    let stream: { close(): void } | null = null;
    let closed = false;
    // opened once the page's reads have answered (or after a moment: a page that reads no
    // records), from the oldest one's cursor
    const follow = () => {
      clearTimeout(waiting);
      if (closed || stream !== null) return;
      stream = followStream(
        open,
        url,
        { record: live.record, resync: live.resync, refused: () => refused.current() },
        cursors.take(),
      );
    };
    const waiting = setTimeout(follow, SETTLE_WAIT_MS);
    void cursors.settled().then(follow);
    // a read that began before the stream's cursor was taken answered from an older moment
    const stopLate = cursors.onLate(() => live.resync());
    const online = () => live.resync();
    window.addEventListener('online', online);
    return () => {
      window.removeEventListener('online', online);
      closed = true;
      clearTimeout(waiting);
      stopLate();
      stream?.close();
      live.close();
    };
  }, [client, url, eventSource, cursors]);
  return null;
}
