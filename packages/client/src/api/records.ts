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
import { useHttp } from '../runtime/runtime';

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

export interface Page {
  readonly data: readonly ApiRecord[];
  readonly nextCursor: string | null;
  readonly total?: number;
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

/**
 * What a list asks for. `filters` are query parameters as the API reads them (`amount[gt]` → `100`).
 */
export interface ListParams {
  readonly screen?: string;
  readonly filters?: Readonly<Record<string, string>>;
  readonly sort?: string;
  readonly q?: string;
  readonly limit?: number;
}

/** The query string of a list request, without the cursor. */
export function listQuery(params: ListParams): Record<string, string> {
  const query: Record<string, string> = { ...params.filters };
  if (params.screen !== undefined) query['screen'] = params.screen;
  if (params.sort !== undefined && params.sort !== '') query['sort'] = params.sort;
  if (params.q !== undefined && params.q.trim() !== '') query['q'] = params.q.trim();
  if (params.limit !== undefined) query['limit'] = String(params.limit);
  return query;
}

export const recordKeys = {
  all: (entity: string) => ['records', entity] as const,
  list: (entity: string, params: ListParams) => ['records', entity, 'list', listQuery(params)] as const,
  one: (entity: string, id: string) => ['records', entity, 'one', id] as const,
  history: (entity: string, id: string) => ['records', entity, 'history', id] as const,
  labels: (entity: string) => ['records', entity, 'label'] as const,
};

/** A list, page by page: `fetchNextPage` follows `nextCursor`. The first page also counts the rows. */
export function useRecordList(entity: Entity, params: ListParams, options: { enabled?: boolean } = {}) {
  const http = useHttp();
  return useInfiniteQuery({
    queryKey: recordKeys.list(entity.name, params),
    queryFn: ({ pageParam, signal }) => {
      const query = listQuery(params);
      if (pageParam === null) query['total'] = 'true';
      else query['cursor'] = pageParam;
      return http.get<Page>(entity.resource, { query, signal });
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.nextCursor,
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

export function useCreateRecord(entity: Entity) {
  const http = useHttp();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (values: Record<string, Value>) =>
      http.request<ApiRecord>('POST', entity.resource, { body: values }),
    onSuccess: (record) => settle(client, entity, record, record.id),
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
