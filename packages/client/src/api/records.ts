/**
 * Records over HTTP, cached by TanStack Query: lists (keyset pages), one record, its history, and
 * the writes — create, update (with the version it is based on), delete and transitions. Every
 * write refreshes what it may have changed.
 */
import { type Entity, type Value } from '@ninefold/spec/model';
import {
  type QueryClient,
  keepPreviousData,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import { useRef } from 'react';
import { newIdempotencyKey } from './http';
import { type ListParams, recordKeys, recordListOptions } from './list-query';
import { useHttp } from '../runtime/runtime';

export { type ListParams, type Page, listQuery, recordKeys, recordListOptions } from './list-query';

/** A record as the API sends it: system fields, the fields its reader may see, and `_actions`. */
export interface ApiRecord {
  readonly id: string;
  readonly version: number;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly createdBy: string | null;
  readonly state?: string;
  /** The transitions the reader may fire now, decided by the server. */
  readonly _actions?: readonly string[];
  readonly [field: string]: Value | undefined;
}

export interface HistoryEntry {
  readonly id: string;
  readonly at: string;
  readonly by: string | null;
  readonly action: 'create' | 'update' | 'delete' | 'transition';
  readonly transition: string | null;
  readonly from: string | null;
  readonly to: string | null;
  readonly changes: Readonly<Record<string, { readonly from: Value; readonly to: Value }>>;
}

/** A list, page by page, showing the previous rows while another sort or filter loads. */
export function useRecordList(entity: Entity, params: ListParams, options: { enabled?: boolean } = {}) {
  const http = useHttp();
  return useInfiniteQuery({
    ...recordListOptions(http, entity, params),
    placeholderData: keepPreviousData,
    enabled: options.enabled ?? true,
  });
}

export function useRecord(entity: Entity, id: string) {
  const http = useHttp();
  return useQuery({
    queryKey: recordKeys.one(entity.name, id),
    queryFn: ({ signal }) => http.get<ApiRecord>(`${entity.resource}/${encodeURIComponent(id)}`, { signal }),
  });
}

export function useHistory(entity: Entity, id: string) {
  const http = useHttp();
  return useQuery({
    queryKey: recordKeys.history(entity.name, id),
    queryFn: ({ signal }) =>
      http.get<{ data: HistoryEntry[] }>(`${entity.resource}/${encodeURIComponent(id)}/history`, { signal }),
    select: (body) => body.data,
  });
}

/** After a write: the record as the server now has it, and every list of its entity refetched. */
function settle(client: QueryClient, entity: Entity, record: ApiRecord | null, id: string): void {
  if (record === null) client.removeQueries({ queryKey: recordKeys.one(entity.name, id) });
  else client.setQueryData(recordKeys.one(entity.name, record.id), record);
  void client.invalidateQueries({
    queryKey: recordKeys.all(entity.name),
    // the record itself was just set from the answer; asking again would only repeat it
    predicate: (query) => !(query.queryKey[2] === 'one' && query.queryKey[3] === id && record !== null),
  });
}

/**
 * Creates records. The same values sent again before a create succeeds (the user's retry after a
 * lost answer) keep their `Idempotency-Key`, so the server makes one record of them; new values, or
 * values sent after a create succeeded, get a new key.
 */
export function useCreateRecord(entity: Entity) {
  const http = useHttp();
  const client = useQueryClient();
  const attempt = useRef<{ readonly body: string; readonly key: string } | null>(null);
  return useMutation({
    mutationFn: (values: Record<string, Value>) => {
      const body = JSON.stringify(values);
      if (attempt.current?.body !== body) attempt.current = { body, key: newIdempotencyKey() };
      return http.request<ApiRecord>('POST', entity.resource, {
        body: values,
        idempotencyKey: attempt.current.key,
      });
    },
    onSuccess: (record) => {
      attempt.current = null;
      settle(client, entity, record, record.id);
    },
  });
}

export function useUpdateRecord(entity: Entity) {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; version: number; changes: Record<string, Value> }) =>
      http.request<ApiRecord>('PATCH', `${entity.resource}/${encodeURIComponent(input.id)}`, {
        body: input.changes,
        version: input.version,
      }),
    onSuccess: (record) => settle(client, entity, record, record.id),
  });
}

export function useDeleteRecord(entity: Entity) {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; version: number }) =>
      http.request<void>('DELETE', `${entity.resource}/${encodeURIComponent(input.id)}`, {
        version: input.version,
      }),
    onSuccess: (_nothing, input) => settle(client, entity, null, input.id),
  });
}

export function useFireTransition(entity: Entity) {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: {
      id: string;
      version: number;
      transition: string;
      values?: Record<string, Value>;
    }) =>
      http.request<ApiRecord>(
        'POST',
        `${entity.resource}/${encodeURIComponent(input.id)}/transitions/${encodeURIComponent(input.transition)}`,
        { body: input.values ?? {}, version: input.version },
      ),
    onSuccess: (record) => settle(client, entity, record, record.id),
  });
}
