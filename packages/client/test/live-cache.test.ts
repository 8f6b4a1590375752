import { type ListPage, type RecordChangeEvent } from '@ninefold/model';
import { QueryClient, QueryObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordKeys } from '../src/api/list-query';
import { type LiveNews, listenLive } from '../src/live/live-bus';
import { liveCache } from '../src/live/live-cache';

/**
 * The cost of live changes (decision 0060), through the stream reader's own surface over a real
 * query cache: a burst of changes costs each shown query one request, and a query no page shows
 * none; a change the app already has costs nothing.
 */
const page = (ids: string[]): ListPage => ({
  data: ids.map((id) => ({ id, version: 1 }) as never),
  nextCursor: null,
  total: ids.length,
});
const change = (id: string, version = 2, kind: RecordChangeEvent['kind'] = 'updated'): RecordChangeEvent => ({
  entity: 'Claim',
  id,
  kind,
  transition: null,
  version,
});

let stops: (() => void)[] = [];
afterEach(() => {
  for (const stop of stops) stop();
  stops = [];
});

/** A query a page shows: observed, and counting what it asks. */
function shown(client: QueryClient, key: readonly unknown[], answer: () => unknown) {
  const asked = { count: 0 };
  const observer = new QueryObserver(client, {
    queryKey: key,
    queryFn: async () => {
      asked.count++;
      return answer();
    },
  });
  stops.push(observer.subscribe(() => undefined));
  return asked;
}

function newClient() {
  return new QueryClient({ defaultOptions: { queries: { staleTime: Infinity, retry: false } } });
}

describe('the live cache', () => {
  it('asks each shown query once for a burst of a hundred changes, and no query that nothing shows', async () => {
    const client = newClient();
    const listKey = recordKeys.list('Claim', { screen: 'all' });
    const list = shown(client, listKey, () => page(['c1', 'c2']));
    const record = shown(client, recordKeys.one('Claim', 'c1'), () => ({ id: 'c1', version: 1 }));
    await vi.waitFor(() => expect([list.count, record.count]).toEqual([1, 1]));
    let hiddenAsked = 0;
    const hiddenKey = recordKeys.list('Claim', { screen: 'mine' });
    await client.prefetchQuery({ queryKey: hiddenKey, queryFn: async () => (hiddenAsked++, page([])) });

    const live = liveCache(client);
    stops.push(() => live.close());
    for (let i = 0; i < 100; i++) live.record(change(`c${i % 10}`, 2 + Math.floor(i / 10)));
    await vi.waitFor(() => expect(client.getQueryState(hiddenKey)?.isInvalidated).toBe(true));
    await vi.waitFor(() => expect(client.isFetching()).toBe(0));
    expect([list.count, record.count, hiddenAsked]).toEqual([2, 2, 1]);
  });

  it('asks nothing for a change the app already has (the answer to its own write)', async () => {
    const client = newClient();
    const listKey = recordKeys.list('Claim', { screen: 'all' });
    const list = shown(client, listKey, () => page(['c1']));
    await vi.waitFor(() => expect(list.count).toBe(1));
    client.setQueryData(recordKeys.one('Claim', 'c1'), { id: 'c1', version: 2 });
    const live = liveCache(client);
    stops.push(() => live.close());
    const heard: LiveNews[] = [];
    stops.push(listenLive(client, (news) => heard.push(news)));
    live.record(change('c1', 2));
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    expect(heard[0]).toEqual({ resync: false, changes: [{ ...change('c1', 2), known: true }] });
    expect(client.getQueryState(listKey)?.isInvalidated).toBe(false);
    expect(client.isFetching()).toBe(0);
    expect(list.count).toBe(1);
    expect(client.getQueryData(recordKeys.one('Claim', 'c1'))).toEqual({ id: 'c1', version: 2 });
  });

  it('refreshes and announces a record created and then changed by another within one burst, when the page holds the create', async () => {
    const client = newClient();
    let version = 1;
    const record = shown(client, recordKeys.one('Claim', 'c1'), () => ({ id: 'c1', version }));
    await vi.waitFor(() => expect(record.count).toBe(1));
    const live = liveCache(client);
    stops.push(() => live.close());
    const heard: LiveNews[] = [];
    stops.push(listenLive(client, (news) => heard.push(news)));
    // the stream replays the create the page read, then brings another user's change of it
    version = 2;
    live.record(change('c1', 1, 'created'));
    live.record(change('c1', 2, 'updated'));
    await vi.waitFor(() => expect(heard).toHaveLength(1));
    expect(heard[0]).toEqual({ resync: false, changes: [{ ...change('c1', 2, 'created'), known: false }] });
    await vi.waitFor(() =>
      expect(client.getQueryData(recordKeys.one('Claim', 'c1'))).toEqual({ id: 'c1', version: 2 }),
    );
    expect(record.count).toBe(2);
  });
});
