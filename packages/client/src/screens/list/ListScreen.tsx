/**
 * A list screen of any entity: the rows the user may read under the screen's fixed condition,
 * sorted, searched and filtered on the server, loaded page by page as the user scrolls, and
 * rendered as a table (cards on phones). Sort, search and filters live in the URL.
 */
import '../../styles/list';
import {
  Badge,
  Button,
  Center,
  Collapse,
  EmptyState,
  Group,
  Loader,
  Select,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { queryableFields } from '@ninefold/engine';
import { type Entity, type Field, type Model, type Screen } from '@ninefold/spec/model';
import { IconDownload, IconFilter, IconFilterOff, IconPlus, IconSearch } from '@tabler/icons-react';
import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type ReactNode, Suspense, lazy, useCallback, useMemo } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { type ApiRecord, listQuery, useRecordList } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { ErrorPanel } from '../../components/ErrorPanel';
import { valueView } from '../../components/FieldValue';
import { formatInteger } from '../../format/values';
import { StateBadge } from '../../components/StateBadge';
import { PendingWrites, useUserQueue } from '../../offline/PendingWrites';
import { isWaiting } from '../../offline/queue';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { useAuthorizer } from '../../runtime/access';
import { createPath, detailPath } from '../../runtime/paths';
import { useHttp, useModel } from '../../runtime/runtime';
import { useDocumentTitle } from '../../shell/title';
import { ColumnChooser, useHiddenColumns } from './ColumnChooser';
import { DROPDOWN, FilterBar, type ParamChanges, TypedInput } from './FilterBar';
import { RecordCards } from './RecordCards';
import { RecordTable } from './RecordTable';
import { ACTIONS_COLUMN, type ListColumn, fieldOf, isQueryable, listColumns } from './columns';
import {
  readListState,
  sortDirection,
  toListParams,
  toggledSort,
  withParams,
  withoutFilters,
} from './list-params';
import { type RowsView } from './rows-view';
import { followInApp } from './window-rows';

/** Below this width rows are cards. */
const PHONE = '(max-width: 47.99em)';

/** The buttons of a row's transitions, with their dialogs and the form inputs those ask with. */
const loadRowActions = () => import('../detail/TransitionActions');
const RowActions = lazy(() => loadRowActions().then((module) => ({ default: module.TransitionActions })));

export default function ListScreen({ screen }: { screen: Screen }) {
  const model = useModel();
  useDocumentTitle(screen.title);
  const entity = model.entities[screen.entity ?? ''];
  if (entity === undefined) return <NotFoundPage />;
  return <EntityList key={screen.id} screen={screen} entity={entity} />;
}

function EntityList({ screen, entity }: { screen: Screen; entity: Entity }) {
  const model = useModel();
  const http = useHttp();
  const access = useAuthorizer();
  const navigate = useNavigate();
  const open = useCallback((path: string) => void navigate(path), [navigate]);
  const pathOf = useMemo(() => recordPaths(model, entity.name), [model, entity.name]);
  // read at once, not after a first render: a phone should never flash the wide table
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  const [filtersOpen, { toggle: toggleFilters }] = useDisclosure(false);
  const [search, setSearch] = useSearchParams();

  const state = useMemo(() => readListState(model, entity, screen, search), [model, entity, screen, search]);
  const params = useMemo(() => toListParams(screen, state), [screen, state]);
  const list = useRecordList(entity, params);
  const records = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? records.length;

  const user = access.user;
  const queryable = useMemo(() => queryableFields(model, user, entity.name), [model, user, entity.name]);
  const readable = useMemo(() => access.readable(entity.name), [access, entity.name]);
  const columns = useMemo(
    () => listColumns(model, screen, readable, queryable),
    [model, screen, readable, queryable],
  );
  const filterFields = useMemo(
    () =>
      screen.filters
        .filter((name) => isQueryable(queryable, name))
        .map((name) => fieldOf(model, entity, name))
        .filter((field): field is Field => field !== null && field.type !== 'json'),
    [screen.filters, queryable, model, entity],
  );
  const transitionNames = useMemo(
    () => screen.actions.filter((name) => model.states[entity.name]?.transitions[name] !== undefined),
    [screen.actions, model.states, entity.name],
  );
  const searchable = entity.search.some((name) => isQueryable(queryable, name));

  const change = useCallback(
    (changes: ParamChanges) =>
      setSearch((current) => withParams(current, changes), { preventScrollReset: true }),
    [setSearch],
  );
  const onSort = useCallback(
    (column: string) => change({ sort: toggledSort(state.sort.split(',')[0] ?? '', column) }),
    [change, state.sort],
  );
  const clearFilters = () => setSearch((current) => withoutFilters(current), { preventScrollReset: true });

  const queue = useUserQueue();
  // the entity's records with a change waiting on this device, marked in their rows
  const pendingIds = useMemo(
    () =>
      new Set(
        queue.writes
          .filter((w) => w.entity === entity.name && w.recordId !== null && isWaiting(w))
          .map((w) => w.recordId),
      ),
    [queue.writes, entity.name],
  );
  const queuedCreates = queue.writes.filter((w) => w.entity === entity.name && w.kind === 'create');

  const [hidden, setHidden] = useHiddenColumns(model.product.name, screen.id);
  const columnDefs = useMemo<ColumnDef<ApiRecord>[]>(() => {
    const defs: ColumnDef<ApiRecord>[] = columns.map((column) => ({
      id: column.name,
      header: column.label,
      accessorFn: (record) => record[column.name],
      cell: ({ row }) =>
        cellView(model, entity, column, row.original, pathOf, open, pendingIds.has(row.original.id)),
    }));
    if (transitionNames.length > 0)
      defs.push({
        id: ACTIONS_COLUMN,
        header: 'Actions',
        cell: ({ row }) => (
          <RowActions
            entity={entity.name}
            record={row.original}
            names={transitionNames}
            size="xs"
            disabled={pendingIds.has(row.original.id)}
          />
        ),
      });
    return defs;
  }, [columns, entity, transitionNames, model, pathOf, open, pendingIds]);
  // the actions' code loads beside the rows, not once they are rendered
  if (transitionNames.length > 0) void loadRowActions();
  const columnVisibility = useMemo(
    () => Object.fromEntries([...hidden].map((name) => [name, false])),
    [hidden],
  );
  const table = useReactTable({
    data: records as ApiRecord[],
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (record) => record.id,
    manualSorting: true,
    state: { columnVisibility },
  });

  const { hasNextPage, isFetchingNextPage, isFetchNextPageError, fetchNextPage } = list;
  const loadMore = useCallback(() => void fetchNextPage(), [fetchNextPage]);
  const rows: RowsView = {
    total,
    pathOf,
    open,
    loadMore,
    canLoadMore: hasNextPage && !isFetchingNextPage && !isFetchNextPageError,
  };

  const newPath = createPath(model, entity.name);
  const mayCreate =
    screen.actions.includes('create') && newPath !== null && access.can('create', entity.name);
  const exportUrl = screen.actions.includes('export')
    ? http.url(entity.resource, { ...listQuery(params), format: 'csv' })
    : null;
  const activeFilters = Object.keys(state.filters).length;
  const filtering = activeFilters > 0 || state.q.trim() !== '';
  const sortable = new Set(columns.filter((c) => c.sortable).map((c) => c.name));
  const busy = list.isFetching && !isFetchingNextPage;
  const countText = list.data === undefined ? '' : countOf(entity, total, model.product.locale);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <Title order={1}>{screen.title}</Title>
          <Text c="dimmed" size="sm" role="status" aria-live="polite" data-testid="list-count">
            {countText}
          </Text>
        </div>
        <Group gap="xs">
          {exportUrl !== null && (
            <Button
              component="a"
              href={exportUrl}
              download
              variant="default"
              leftSection={<IconDownload size={16} aria-hidden />}
            >
              Export CSV
            </Button>
          )}
          {mayCreate && (
            <Button component={Link} to={newPath} leftSection={<IconPlus size={16} aria-hidden />}>
              New {lowerFirst(entity.label)}
            </Button>
          )}
        </Group>
      </Group>

      <Group gap="xs" align="flex-end" wrap="wrap">
        {searchable && (
          <div style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <TypedInput
              label={`Search ${lowerFirst(entity.pluralLabel)}`}
              hiddenLabel
              type="search"
              inputMode="search"
              placeholder={`Search ${entity.search.map((f) => entity.fields[f]?.label ?? f).join(', ')}`}
              leftSection={<IconSearch size={16} aria-hidden />}
              value={state.q}
              onCommit={(q) => change({ q: q.trim() === '' ? null : q })}
            />
          </div>
        )}
        {phone && filterFields.length > 0 && (
          <Button
            variant="default"
            onClick={toggleFilters}
            aria-expanded={filtersOpen}
            leftSection={<IconFilter size={16} aria-hidden />}
            rightSection={activeFilters > 0 ? <Badge size="sm">{activeFilters}</Badge> : null}
          >
            Filters
          </Button>
        )}
        {phone && (
          <SortSelect columns={columns.filter((c) => c.sortable)} sort={state.sort} onChange={change} />
        )}
        {filtering && (
          <Button
            variant="subtle"
            onClick={clearFilters}
            leftSection={<IconFilterOff size={16} aria-hidden />}
          >
            Clear filters
          </Button>
        )}
        <ColumnChooser columns={columns} hidden={hidden} onToggle={setHidden} />
      </Group>

      {filterFields.length > 0 && (
        <Collapse expanded={!phone || filtersOpen}>
          <section aria-label="Filters">
            <FilterBar
              model={model}
              entity={entity.name}
              fields={filterFields}
              filters={state.filters}
              onChange={change}
            />
          </section>
        </Collapse>
      )}

      {queue.key !== null && queuedCreates.length > 0 && (
        <section aria-labelledby="nf-queued-creates">
          <Stack gap="xs">
            <Title order={2} size="h4" id="nf-queued-creates">
              Not sent yet
            </Title>
            <PendingWrites queue={queue.key} writes={queuedCreates} />
          </Stack>
        </section>
      )}

      {list.isError && !isFetchNextPageError ? (
        <ErrorPanel
          error={list.error}
          onRetry={() => void list.refetch()}
          title="The list could not be loaded"
        />
      ) : list.isPending ? (
        <RowsLoading label={`Loading ${lowerFirst(entity.pluralLabel)}`} phone={phone} />
      ) : records.length === 0 ? (
        <EmptyState
          title={
            filtering
              ? `No ${lowerFirst(entity.pluralLabel)} match`
              : `No ${lowerFirst(entity.pluralLabel)} yet`
          }
          description={
            filtering
              ? 'Nothing matches the search and filters. Change them, or clear them to see everything.'
              : mayCreate
                ? `Create the first one with “New ${lowerFirst(entity.label)}”.`
                : 'There is nothing here for you yet.'
          }
        >
          {filtering && (
            <Group justify="center" mt="sm">
              <Button variant="default" onClick={clearFilters}>
                Clear filters
              </Button>
            </Group>
          )}
        </EmptyState>
      ) : (
        // the rows wait for their actions' code, rather than grow buttons once it arrives
        <Suspense
          fallback={<RowsLoading label={`Loading ${lowerFirst(entity.pluralLabel)}`} phone={phone} />}
        >
          {phone ? (
            <RecordCards
              table={table}
              rows={rows}
              titleColumn={
                columns.some((c) => c.name === entity.display) ? entity.display : (columns[0]?.name ?? '')
              }
              busy={busy}
              label={screen.title}
            />
          ) : (
            <RecordTable
              table={table}
              rows={rows}
              sort={state.sort}
              onSort={onSort}
              sortable={sortable}
              busy={busy}
              label={screen.title}
            />
          )}
        </Suspense>
      )}

      {isFetchNextPageError && (
        <ErrorPanel
          error={list.error}
          onRetry={() => void fetchNextPage()}
          alwaysRetry
          title="More rows could not be loaded"
        />
      )}
      {records.length > 0 && (hasNextPage || isFetchingNextPage) && !isFetchNextPageError && (
        <Center>
          {isFetchingNextPage ? (
            <Loader size="sm" aria-label="Loading more" />
          ) : (
            <Button variant="default" onClick={loadMore}>
              Load more ({records.length} of {total} shown)
            </Button>
          )}
        </Center>
      )}
    </Stack>
  );
}

/** Placeholders of a few rows, while the first page or the rows' code loads. */
function RowsLoading({ label, phone }: { label: string; phone: boolean }) {
  return (
    <Stack gap={6} aria-busy="true" aria-label={label}>
      {[0, 1, 2, 3, 4].map((i) => (
        <Skeleton key={i} height={phone ? 96 : 36} radius="sm" />
      ))}
    </Stack>
  );
}

/**
 * One cell, made without a component of its own: the record's title as the link to it, the state
 * as its badge, any other value as read.
 */
function cellView(
  model: Model,
  entity: Entity,
  column: ListColumn,
  record: ApiRecord,
  pathOf: (record: ApiRecord) => string | null,
  open: (path: string) => void,
  /** A change to the record waits in the offline queue. */
  pending: boolean,
): ReactNode {
  if (column.name === 'state') return <StateBadge entity={entity.name} state={record.state} />;
  if (column.name !== entity.display || column.field.type === 'ref')
    return valueView(model, column.field, record[column.name]);
  const path = pathOf(record);
  const title = recordTitle(entity, record);
  const mark = pending && (
    <Badge size="xs" variant="light" color="blue" ml={6} data-pending title="A change waits to be sent">
      Pending
    </Badge>
  );
  if (path === null)
    return mark === false ? (
      title
    ) : (
      <>
        {title}
        {mark}
      </>
    );
  // a plain link the app follows itself: react-router's Link costs a dozen hooks per row
  return (
    <>
      <a href={path} className="nf-value-link nf-value-title" onClick={followInApp(() => open(path))}>
        {title}
      </a>
      {mark}
    </>
  );
}

/** The detail page of each record, worked out once per record however often its row renders. */
function recordPaths(model: Model, entity: string): (record: ApiRecord) => string | null {
  const paths = new WeakMap<ApiRecord, string | null>();
  return (record) => {
    let path = paths.get(record);
    if (path === undefined) paths.set(record, (path = detailPath(model, entity, record.id)));
    return path;
  };
}

/** On phones, where there are no column headers: the sort as a choice. */
function SortSelect({
  columns,
  sort,
  onChange,
}: {
  columns: readonly ListColumn[];
  sort: string;
  onChange(changes: ParamChanges): void;
}) {
  if (columns.length === 0) return null;
  const data = columns.flatMap((c) => [
    { value: c.name, label: `${c.label}, ascending` },
    { value: `-${c.name}`, label: `${c.label}, descending` },
  ]);
  const first = sort.split(',')[0] ?? '';
  const current = columns.find((c) => sortDirection(sort, c.name) !== null) === undefined ? null : first;
  return (
    <Select
      aria-label="Sort by"
      placeholder="Sort by"
      data={data}
      value={current}
      onChange={(next) => onChange({ sort: next })}
      allowDeselect={false}
      comboboxProps={DROPDOWN}
      style={{ flex: '1 1 12rem' }}
    />
  );
}

/** "1 claim", "60 claims", in the product's locale. */
function countOf(entity: Entity, total: number, locale: string): string {
  const word = total === 1 ? entity.label : entity.pluralLabel;
  return `${formatInteger(total, locale)} ${lowerFirst(word)}`;
}

/** "Claims" → "claims", but "API keys" stays as it is. */
function lowerFirst(word: string): string {
  return /^[A-Z][a-z]/.test(word) ? word.charAt(0).toLowerCase() + word.slice(1) : word;
}
