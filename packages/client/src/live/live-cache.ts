/**
 * What a record change on the live stream does to the query cache (decision 0060). Changes are
 * gathered for a moment and applied as one burst, at most once a second: a hundred changes in a
 * second cost each shown query one refetch, not a hundred. Invalidation refetches only the queries
 * a page shows (TanStack Query's active ones); the others are only marked stale, and read again if a
 * page shows them later. A change the app already has (its own write, whose answer set the record's
 * cache) refetches nothing; while a write of the user's is under way, the burst waits for its answer
 * so that it can tell.
 */
import { type ApiRecord, type ListPage, type RecordChangeEvent } from '@ninefold/model';
import { type InfiniteData, type Query, type QueryClient } from '@tanstack/react-query';
import { type LiveChange, announce } from './live-bus';

/*
 * The cache's keys, spelled out: `recordKeys` (api/list-query.ts) is
 * `['records', entity, 'one' | 'list' | 'history' | 'references' | 'label' | 'options', …]` and
 * `DASHBOARDS_KEY` (api/dashboard-keys.ts) `['dashboard', screen]`. Importing those modules of the
 * first chunk from this lazy one made the bundler split the first chunk into 27 files, +5 kB gzip
 * (bench/client: 2.06× the anchor, over its 2×); test/live.test.tsx fails if the shapes drift.
 */
const RECORDS = 'records';
const DASHBOARDS = 'dashboard';
const oneKey = (entity: string, id: string) => [RECORDS, entity, 'one', id] as const;

/** How long the first change of a burst waits for others (ms). */
const GATHER_MS = 200;
/** The shortest time between two bursts (ms): bursts at most once a second. */
const BURST_GAP_MS = 1000;

/** The stream's reader over one query cache. */
export interface LiveCache {
  /** A record changed. */
  record(change: RecordChangeEvent): void;
  /** Anything may have changed (a resync, or back online): read again what is shown. */
  resync(): void;
  /** Stops (sign-out): a burst still gathering is dropped. */
  close(): void;
}

/** The parts of a record's cache that name one record: `['records', entity, part, id]`. */
const PER_RECORD = new Set(['one', 'history', 'references', 'label']);

/**
 * The reader of the live stream for a query cache.
 *
 * @example const live = liveCache(queryClient); live.record(change); live.close();
 */
export function liveCache(client: QueryClient): LiveCache {
  let pending = new Map<string, RecordChangeEvent>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let last = -Infinity;
  let closed = false;

  const schedule = (delay: number) => {
    clearTimeout(timer);
    timer = setTimeout(flush, delay);
  };

  function flush() {
    timer = undefined;
    if (closed || pending.size === 0) return;
    // the user's own write may be what changed: its answer says so, so wait for it
    if (client.isMutating() > 0) return schedule(GATHER_MS);
    last = Date.now();
    const burst = [...pending.values()];
    pending = new Map();
    // decided before anything is refetched: afterwards, the cache would know every change
    const changes = burst.map((change) => ({ ...change, known: isKnown(client, change) }));
    announce(client, { resync: false, changes });
    const news = changes.filter((change) => !change.known);
    if (news.length > 0) apply(client, news);
  }

  return {
    record(change) {
      if (closed) return;
      const key = `${change.entity}\u0000${change.id}`;
      const before = pending.get(key);
      // the latest of a record's changes in a burst says all; a create stays a create for the lists
      if (before === undefined || change.version >= before.version)
        pending.set(
          key,
          before?.kind === 'created' && change.kind !== 'deleted' ? { ...change, kind: 'created' } : change,
        );
      if (timer === undefined) schedule(Math.max(GATHER_MS, last + BURST_GAP_MS - Date.now()));
    },
    resync() {
      if (closed) return;
      pending = new Map();
      clearTimeout(timer);
      timer = undefined;
      announce(client, { resync: true });
      void client.invalidateQueries({
        predicate: (query) => query.queryKey[0] === RECORDS || query.queryKey[0] === DASHBOARDS,
      });
    },
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}

/**
 * Whether the app already has this change: the answer to the user's own write set the record, or
 * the page read it. A create merged with later changes of the same burst (still a create for the
 * lists) is known only if the app has the record at the burst's last version.
 */
function isKnown(client: QueryClient, change: RecordChangeEvent): boolean {
  // a deleted record's cache is gone after an own delete, and still there after another's
  if (change.kind === 'deleted') return false;
  const cached = client.getQueryData<ApiRecord>(oneKey(change.entity, change.id));
  return cached !== undefined && cached.version >= change.version;
}

/**
 * Refreshes what may show the changed records — their own queries, every list of their entities,
 * every dashboard — in one invalidation, so that each query is asked once for the whole burst. A
 * deleted record leaves the lists' pages at once, in place, without a refetch.
 */
function apply(client: QueryClient, news: readonly LiveChange[]): void {
  for (const { entity, id, kind } of news) {
    if (kind !== 'deleted') continue;
    client.setQueriesData<InfiniteData<ListPage>>({ queryKey: [RECORDS, entity, 'list'] }, (data) =>
      data === undefined ? data : withoutRecord(data, id),
    );
  }
  void client.invalidateQueries({
    predicate: (query) => query.queryKey[0] === DASHBOARDS || news.some((change) => concerns(query, change)),
  });
}

function concerns(query: Query, change: LiveChange): boolean {
  const [records, entity, part, id] = query.queryKey;
  if (records !== RECORDS || entity !== change.entity) return false;
  if (typeof part === 'string' && PER_RECORD.has(part)) return id === change.id;
  // a deleted row has left the lists already; nothing else in them changed
  return !(change.kind === 'deleted' && part === 'list');
}

/** A list's pages without one record, its count one less if it held it. */
function withoutRecord(data: InfiniteData<ListPage>, id: string): InfiniteData<ListPage> {
  if (!data.pages.some((page) => page.data.some((record) => record.id === id))) return data;
  const pages = data.pages.map((page, index) => {
    const kept = page.data.filter((record) => record.id !== id);
    const total = index === 0 && page.total !== undefined ? { total: page.total - 1 } : {};
    return { ...page, data: kept, ...total };
  });
  return { ...data, pages };
}
