/**
 * Records over HTTP, cached by TanStack Query: lists (keyset pages), one record, its history, and
 * the writes — create, update (with the version it is based on), delete and transitions. Every
 * write refreshes what it may have changed.
 */
import {
  type ApiRecord,
  type Entity,
  type HistoryPage,
  type HttpMethod,
  type ListPage,
  type Model,
  type SessionUser,
  type Value,
} from '@ninefold/model';
import {
  type InfiniteData,
  type QueryClient,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useRef } from 'react';
import { DASHBOARDS_KEY } from './dashboard-keys';
import { newIdempotencyKey } from './http';
import { type ListParams, recordKeys, recordListOptions } from './list-query';
import { recordTitle } from './ref-labels';
import { SESSION_KEY } from '../auth/session';
import { type QueuedWrite, type WriteKind } from '../offline/queue';
import { sendOrQueue } from '../offline/send';
import { useRuntime } from '../runtime/runtime';

export { type ListParams, listQuery, recordKeys, recordListOptions } from './list-query';

/** A list, page by page, showing the previous rows while another sort or filter loads. */
export function useRecordList(entity: Entity, params: ListParams, options: { enabled?: boolean } = {}) {
  const { http } = useRuntime();
  return useInfiniteQuery({
    ...recordListOptions(http, entity, params),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function useRecord(entity: Entity, id: string) {
  const { http } = useRuntime();
  return useQuery({
    queryKey: recordKeys.one(entity.name, id),
    queryFn: ({ signal }) => http.get<ApiRecord>(`${entity.resource}/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useHistory(entity: Entity, id: string) {
  const { http } = useRuntime();
  return useQuery({
    queryKey: recordKeys.history(entity.name, id),
    queryFn: ({ signal }) =>
      http.get<HistoryPage>(`${entity.resource}/${encodeURIComponent(id)}/history`, { signal }),
    select: (body) => body.data,
  });
}

/**
 * After a write: the record as the server now has it, every list of its entity refetched, and every
 * dashboard's figures stale (asked again when next shown: any figure may count the record).
 */
function settle(client: QueryClient, entity: Entity, record: ApiRecord | null, id: string): void {
  if (record === null) client.removeQueries({ queryKey: recordKeys.one(entity.name, id) });
  else client.setQueryData(recordKeys.one(entity.name, record.id), record);
  void client.invalidateQueries({
    queryKey: recordKeys.all(entity.name),
    // the record itself was just set from the answer; asking again would only repeat it
    predicate: (query) => !(query.queryKey[2] === 'one' && query.queryKey[3] === id && record !== null),
  });
  void client.invalidateQueries({ queryKey: DASHBOARDS_KEY });
}

/** After a queued write reached the server (replayed): its record and lists, as after any write. */
export function settleWrite(client: QueryClient, model: Model, write: QueuedWrite, answer: unknown): void {
  const entity = model.entities[write.entity];
  if (entity === undefined) return;
  const record = write.kind === 'delete' ? null : (answer as ApiRecord | undefined);
  settle(client, entity, record ?? null, record?.id ?? write.recordId ?? '');
}

/**
 * After a queued write was refused: what the app holds of its record may be what made it fail (a
 * version someone else replaced), so it is fetched afresh before the user fixes the write.
 */
export function forgetRecordOf(client: QueryClient, write: QueuedWrite): void {
  if (write.recordId !== null)
    void client.resetQueries({ queryKey: recordKeys.one(write.entity, write.recordId) });
  void client.invalidateQueries({ queryKey: recordKeys.all(write.entity) });
}

/**
 * A hook's writes: each sent with its `Idempotency-Key`, or — with `calls.offlineQueue`, when the
 * server cannot be reached — queued for the signed-in user (the promise then rejects with
 * `WriteQueued`).
 */
function useWrite(entity: Entity) {
  const { http, model } = useRuntime();
  const client = useQueryClient();
  return {
    client,
    send<T>(
      write: {
        kind: WriteKind;
        method: HttpMethod;
        path: string;
        recordId: string | null;
        body?: Readonly<Record<string, Value>>;
        version?: number;
        transition?: string;
        key?: string;
      },
      keepalive = false,
    ): Promise<T> {
      const user = client.getQueryData<SessionUser | null>(SESSION_KEY) ?? null;
      const known =
        write.recordId === null
          ? undefined
          : client.getQueryData<ApiRecord>(recordKeys.one(entity.name, write.recordId));
      const title =
        write.recordId === null
          ? recordTitle(entity, { id: '', ...write.body })
          : recordTitle(entity, known ?? { id: write.recordId });
      const queued: QueuedWrite = {
        ...write,
        key: write.key ?? newIdempotencyKey(),
        entity: entity.name,
        title,
        at: new Date().toISOString(),
      };
      return sendOrQueue<T>(http, model, user?.id ?? null, queued, keepalive);
    },
  };
}

const recordPath = (entity: Entity, id: string) => `${entity.resource}/${encodeURIComponent(id)}`;

/**
 * Creates records. The same values sent again before a create succeeds (the user's retry after a
 * lost answer) keep their `Idempotency-Key`, so the server makes one record of them; new values, or
 * values sent after a create succeeded, get a new key.
 */
export function useCreateRecord(entity: Entity) {
  const { client, send } = useWrite(entity);
  const attempt = useRef<{ readonly body: string; readonly key: string } | null>(null);
  return useMutation({
    mutationFn: (values: Record<string, Value>) => {
      const body = JSON.stringify(values);
      if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() };
      return send<ApiRecord>({
        kind: 'create',
        method: 'POST',
        path: entity.resource,
        recordId: null,
        body: values,
        key: attempt.current.key,
      });
    },
    onSuccess: (record) => {
      attempt.current = null;
      settle(client, entity, record, record.id);
    },
  });
}

export function useUpdateRecord(entity: Entity) {
  const { client, send } = useWrite(entity);
  return useMutation({
    mutationFn: (input: { id: string; version: number; changes: Record<string, Value> }) =>
      send<ApiRecord>({
        kind: 'update',
        method: 'PATCH',
        path: recordPath(entity, input.id),
        recordId: input.id,
        body: input.changes,
        version: input.version,
      }),
    onSuccess: (record) => settle(client, entity, record, record.id),
  });
}

/**
 * A delete held for its Undo (`feedback/held-deletes.ts`), in the caches: `hide` takes the record
 * out of its entity's loaded lists at once (and `isHeld` out of those read again), `restore` shows
 * it again, `send` sends the delete with the version it was based on (settling as any delete, or
 * restoring on a failure, which it rethrows), and `leave` sends it with `keepalive` as the page goes.
 */
export function useHeldDelete(entity: Entity) {
  const { client, send } = useWrite(entity);
  const write = (input: { id: string; version: number }) => ({
    kind: 'delete' as const,
    method: 'DELETE' as const,
    path: recordPath(entity, input.id),
    recordId: input.id,
    version: input.version,
  });
  const restore = () => {
    void client.invalidateQueries({ queryKey: recordKeys.all(entity.name) });
    void client.invalidateQueries({ queryKey: DASHBOARDS_KEY });
  };
  return {
    hide(id: string): void {
      client.setQueriesData<InfiniteData<ListPage>>(
        { queryKey: [...recordKeys.all(entity.name), 'list'] },
        (data) =>
          data === undefined
            ? data
            : {
                ...data,
                pages: data.pages.map((page) =>
                  page.data.some((row) => row.id === id)
                    ? {
                        ...page,
                        data: page.data.filter((row) => row.id !== id),
                        ...(page.total === undefined ? {} : { total: Math.max(0, page.total - 1) }),
                      }
                    : page,
                ),
              },
      );
    },
    restore,
    async send(input: { id: string; version: number }): Promise<void> {
      try {
        await send<void>(write(input));
      } catch (error) {
        restore();
        throw error;
      }
      settle(client, entity, null, input.id);
    },
    leave(input: { id: string; version: number }): void {
      // the request leaves (or the write is queued) before this returns; no one waits for the answer
      send<void>(write(input), true).catch(() => undefined);
    },
  };
}

export function useFireTransition(entity: Entity) {
  const { client, send } = useWrite(entity);
  return useMutation({
    mutationFn: (input: {
      id: string;
      version: number;
      transition: string;
      values?: Record<string, Value>;
    }) =>
      send<ApiRecord>({
        kind: 'transition',
        method: 'POST',
        path: `${recordPath(entity, input.id)}/transitions/${encodeURIComponent(input.transition)}`,
        recordId: input.id,
        body: input.values ?? {},
        version: input.version,
        transition: input.transition,
      }),
    onSuccess: (record) => settle(client, entity, record, record.id),
  });
}
