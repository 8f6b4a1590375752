/**
 * Where the pages hear what the live stream changed (decision 0060): one bus per query cache, so
 * that two apps (two tests) never hear each other. The stream's reader (`live-cache.ts`) says, after
 * each burst, which records changed and whether the app already knew (its own write); a page that
 * must do more than show its queries' fresh data (a list holding back rows created by others)
 * listens (`use-live-news.ts`). It imports nothing at run time: the stream's chunk and the pages'
 * share it without the bundler splitting the first chunk for it.
 */
import { type RecordChangeEvent } from '@ninefold/model';
import { type QueryClient } from '@tanstack/react-query';

/** A change as the pages hear it. */
export interface LiveChange extends RecordChangeEvent {
  /** The app already had this version (the user's own write): nobody else's change to announce. */
  readonly known: boolean;
}

/** One burst of the stream: the changes in it, or a resync (anything may have changed). */
export type LiveNews =
  | { readonly resync: false; readonly changes: readonly LiveChange[] }
  | {
      readonly resync: true;
    };

export type LiveListener = (news: LiveNews) => void;

const buses = new WeakMap<QueryClient, Set<LiveListener>>();

function listenersOf(client: QueryClient): Set<LiveListener> {
  let listeners = buses.get(client);
  if (listeners === undefined) buses.set(client, (listeners = new Set()));
  return listeners;
}

/**
 * Tells every listener of a query cache's app.
 *
 * @example announce(client, { resync: true });
 */
export function announce(client: QueryClient, news: LiveNews): void {
  for (const listener of listenersOf(client)) listener(news);
}

/**
 * Calls `listener` with each burst of live news of a query cache's app, until the returned function
 * is called.
 *
 * @example const stop = listenLive(client, (news) => heard.push(news)); stop();
 */
export function listenLive(client: QueryClient, listener: LiveListener): () => void {
  const listeners = listenersOf(client);
  listeners.add(listener);
  return () => void listeners.delete(listener);
}
