/**
 * The title of a referenced record (its entity's `display` field), for lists, details and pickers.
 * Lookups made in the same tick are batched into one `id[in]=…` request per entity, so a page of
 * 50 rows costs one request per referenced entity, not 50.
 */
import {
  type ApiRecord,
  type Entity,
  type ListPage,
  type Value,
  plainNamePart,
  recordName,
} from '@ninefold/model';
import { useQueries, useQuery } from '@tanstack/react-query';
import { type Http } from './http';
import { formatDate, formatDateTime } from '../format/values';
import { recordKeys } from './list-query';
import { useHttp, useModel } from '../runtime/runtime';

/** The batch size: the API's `in` filter takes at most 100 values. */
const BATCH = 100;

type Pending = Map<string, { resolve: (label: string | null) => void; reject: (error: unknown) => void }[]>;

const loaders = new WeakMap<Http, Map<string, (id: string) => Promise<string | null>>>();

/**
 * The name a record shows as its title: its display field or its entity's composed title, with
 * dates in the locale when one is given; never its id (decision 0065).
 *
 * @example recordTitle(person, { id: '…', firstName: 'Ada', lastName: 'Lovelace' }) // 'Ada Lovelace'
 */
export function recordTitle(
  entity: Entity,
  record: Pick<ApiRecord, 'id'> & Record<string, Value | undefined>,
  locale?: string,
): string {
  if (locale === undefined) return recordName(entity, record);
  return recordName(entity, record, (name, value) => {
    const type = name === 'createdAt' || name === 'updatedAt' ? 'datetime' : entity.fields[name]?.type;
    if (type === 'date') return formatDate(String(value), locale);
    if (type === 'datetime') return formatDateTime(String(value), locale);
    return plainNamePart(name, value);
  });
}

function loaderFor(http: Http, entity: Entity, locale: string): (id: string) => Promise<string | null> {
  let byEntity = loaders.get(http);
  if (byEntity === undefined) loaders.set(http, (byEntity = new Map()));
  const existing = byEntity.get(entity.name);
  if (existing !== undefined) return existing;

  let pending: Pending = new Map();
  let scheduled = false;
  const flush = async () => {
    const batch = pending;
    pending = new Map();
    scheduled = false;
    const ids = [...batch.keys()];
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = ids.slice(i, i + BATCH);
      try {
        const page = await http.get<ListPage>(entity.resource, {
          query: { 'id[in]': chunk.join(','), limit: String(chunk.length) },
        });
        const found = new Map(page.data.map((record) => [record.id, recordTitle(entity, record, locale)]));
        // an id the reader may not see comes back as nothing: it shows as hidden, never as an error
        for (const id of chunk)
          for (const waiter of batch.get(id) ?? []) waiter.resolve(found.get(id) ?? null);
      } catch (error) {
        for (const id of chunk) for (const waiter of batch.get(id) ?? []) waiter.reject(error);
      }
    }
  };
  const load = (id: string) =>
    new Promise<string | null>((resolve, reject) => {
      const waiters = pending.get(id) ?? [];
      waiters.push({ resolve, reject });
      pending.set(id, waiters);
      if (!scheduled) {
        scheduled = true;
        queueMicrotask(() => void flush());
      }
    });
  byEntity.set(entity.name, load);
  return load;
}

/**
 * The title of the record `id` of `entityName`: `undefined` while loading, `null` when the reader
 * may not see it.
 *
 * @example const { data: title } = useRecordTitle('Department', claim.department);
 */
export function useRecordTitle(entityName: string, id: string | null | undefined) {
  const model = useModel();
  const http = useHttp();
  const entity = model.entities[entityName];
  return useQuery({
    queryKey: [...recordKeys.labels(entityName), id ?? ''],
    queryFn: () =>
      entity === undefined || id == null ? null : loaderFor(http, entity, model.product.locale)(id),
    enabled: entity !== undefined && id != null && id !== '',
    staleTime: 5 * 60_000,
  });
}

/**
 * The titles of several records of one entity, batched like `useRecordTitle` and sharing its
 * cache: each `undefined` while loading, `null` when the reader may not see it.
 *
 * @example const titles = useRecordTitles('User', claim.attendees); // Map { id → 'Ann' }
 */
export function useRecordTitles(
  entityName: string,
  ids: readonly string[],
): ReadonlyMap<string, string | null | undefined> {
  const model = useModel();
  const http = useHttp();
  const entity = model.entities[entityName];
  return useQueries({
    queries: ids.map((id) => ({
      queryKey: [...recordKeys.labels(entityName), id],
      queryFn: () => (entity === undefined ? null : loaderFor(http, entity, model.product.locale)(id)),
      enabled: entity !== undefined && id !== '',
      staleTime: 5 * 60_000,
    })),
    combine: (results) => new Map(ids.map((id, i) => [id, results[i]?.data])),
  });
}
