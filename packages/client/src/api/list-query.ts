/**
 * The request of a list, and the keys of the records' cache: what the first screen needs before its
 * code has loaded, kept apart from the hooks and writes of `records.ts` so that it alone is in the
 * app's first chunk.
 */
import { infiniteQueryOptions } from '@tanstack/react-query';
import { type Entity, LIST_PARAMS, type ListPage } from '@ninefold/model';
import { isHeld } from '../feedback/held-deletes';
import { type Http } from './http';

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
  if (params.screen !== undefined) query[LIST_PARAMS.screen] = params.screen;
  if (params.sort !== undefined && params.sort !== '') query[LIST_PARAMS.sort] = params.sort;
  if (params.q !== undefined && params.q.trim() !== '') query[LIST_PARAMS.q] = params.q.trim();
  if (params.limit !== undefined) query[LIST_PARAMS.limit] = String(params.limit);
  return query;
}

export const recordKeys = {
  all: (entity: string) => ['records', entity] as const,
  list: (entity: string, params: ListParams) => ['records', entity, 'list', listQuery(params)] as const,
  one: (entity: string, id: string) => ['records', entity, 'one', id] as const,
  history: (entity: string, id: string) => ['records', entity, 'history', id] as const,
  labels: (entity: string) => ['records', entity, 'label'] as const,
};

/**
 * The query of a list, page by page: `fetchNextPage` follows `nextCursor`, and the first page also
 * counts the rows. Shared by `useRecordList` and the screen gate, which asks for the first page
 * while the list's code is still loading; both must name the same key and URL for the list to find it.
 */
export function recordListOptions(http: Http, entity: Entity, params: ListParams) {
  return infiniteQueryOptions({
    queryKey: recordKeys.list(entity.name, params),
    queryFn: ({ pageParam, signal }) => {
      const query = listQuery(params);
      if (pageParam === null) query[LIST_PARAMS.total] = 'true';
      else query[LIST_PARAMS.cursor] = pageParam;
      return http.get<ListPage>(entity.resource, { query, signal }).then((page) => withoutHeld(entity, page));
    },
    initialPageParam: null as string | null,
    getNextPageParam: (last: ListPage) => last.nextCursor,
  });
}

/** A page without the records whose delete is held for its Undo (`held-deletes.ts`). */
function withoutHeld(entity: Entity, page: ListPage): ListPage {
  const rows = page.data.filter((row) => !isHeld(entity.name, row.id));
  if (rows.length === page.data.length) return page;
  const total =
    page.total === undefined ? {} : { total: Math.max(0, page.total - (page.data.length - rows.length)) };
  return { ...page, data: rows, ...total };
}
