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
  Input,
  Loader,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { grantedFields, queryableFields } from '@ninefold/engine/field-grants';
import { accessFor } from '@ninefold/engine/grants';
import {
  FIELD_TYPE_INFO,
  type ApiRecord,
  type Entity,
  type Field,
  type Model,
  type Screen,
} from '@ninefold/model';
import { IconFilter, IconFilterOff, IconPlus, IconSearch } from '@tabler/icons-react';
import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type CSSProperties, type ReactNode, Suspense, useCallback, useEffect, useMemo, useRef } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { listQuery, useRecordList } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { useSession } from '../../auth/session';
import { ErrorPanel } from '../../components/ErrorPanel';
import { valueView } from '../../components/FieldValue';
import { fieldLabel } from '../../format/field-labels';
import { useI18n } from '../../i18n/I18nProvider';
import { type I18n } from '../../i18n/i18n';
import { StateBadge } from '../../components/StateBadge';
import { PendingWrites, useUserQueue } from '../../offline/PendingWrites';
import { isWaiting } from '../../offline/queue';
import { NotFoundPage } from '../../pages/NotFoundPage';
import { ReleasePrerender, syncDeviceSettings } from '../../prerender/client';
import { loadDecisions } from '../../runtime/access';
import { lazyComponent, onDemand } from '../../runtime/lazy';
import { createPath, detailPath } from '../../runtime/paths';
import { useHttp, useModel } from '../../runtime/runtime';
import { useDocumentTitle } from '../../shell/title';
import { ColumnChooser, useHiddenColumns } from './ColumnChooser';
import { ExportMenu } from './ExportMenu';
import { columnWidths } from './column-widths';
import { inPhrase } from './noun';
import type { ParamChanges } from './FilterBar';
import { ParentLink } from './ParentLink';
import { RecordCards } from './RecordCards';
import { RecordTable } from './RecordTable';
import { ACTIONS_COLUMN, type ListColumn, fieldOf, isQueryable, listColumns } from './columns';
import { useLeavingRows } from './leaving-rows';
import { NewRowsNotice, useLiveRows } from './live-rows';
import { readListState, toListParams, toggledSort, withParams, withoutFilters } from './list-params';
import { type RowsView } from './rows-view';
import { TypedInput } from './TypedInput';
import { followInApp, usePainted } from './window-rows';

/** Below this width rows are cards. */
const PHONE = '(max-width: 47.99em)';

/** The buttons of a row's transitions, with their dialogs and the form inputs those ask with. */
const rowActions = onDemand(() => import('../detail/TransitionActions'));
const RowActions = lazyComponent(() => rowActions.load().then((module) => module.TransitionActions));

/**
 * The filters and a phone's sort choice, with Mantine's choosers: asked for as soon as the list's
 * code runs, and rendered after its first rows, where their placeholders stood until then.
 */
const choosers = onDemand(() => import('./FilterBar'));
const FilterBar = lazyComponent(() => choosers.load().then((module) => module.FilterBar));
const SortSelect = lazyComponent(() => choosers.load().then((module) => module.SortSelect));
void choosers.load().catch(() => undefined); // a failure shows where they render, with a retry

export default function ListScreen({ screen }: { screen: Screen }) {
  const model = useModel();
  useDocumentTitle(screen.title);
  const entity = model.entities[screen.entity ?? ''];
  if (entity === undefined) return <NotFoundPage />;
  return <EntityList key={screen.id} screen={screen} entity={entity} />;
}

function EntityList({ screen, entity }: { screen: Screen; entity: Entity }) {
  const model = useModel();
  const { t, language } = useI18n();
  const entities = inPhrase(entity.pluralLabel, language);
  const newLabel = t('list.new', { entity: inPhrase(entity.label, language) });
  const http = useHttp();
  // what the roles grant, without a record: no condition to evaluate, so no wait for CEL's evaluator
  const { data: session } = useSession();
  const user = session?.context ?? null;
  const navigate = useNavigate();
  const open = useCallback((path: string) => void navigate(path), [navigate]);
  const pathOf = useMemo(() => recordPaths(model, entity.name), [model, entity.name]);
  // read at once, not after a first render: a phone should never flash the wide table
  const phone = useMediaQuery(PHONE, undefined, { getInitialValueInEffect: false });
  const [filtersOpen, { toggle: toggleFilters }] = useDisclosure(false);
  // the filters (and a phone's sort choice) are dozens of Mantine components: they come after the
  // rows' first frame, where their placeholders of the same size stood, so the rows do not wait
  const controls = usePainted({ inTransition: true });
  const [search, setSearch] = useSearchParams();

  const state = useMemo(() => readListState(model, entity, screen, search), [model, entity, screen, search]);
  const params = useMemo(() => toListParams(screen, state), [screen, state]);
  const list = useRecordList(entity, params);
  const loaded = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  // rows others created wait for "show", so that the rows do not move under the user's hands
  const live = useLiveRows(entity, loaded, JSON.stringify(params));
  const records = live.shown;
  const total = (list.data?.pages[0]?.total ?? loaded.length) - live.waiting;
  const heading = useRef<HTMLHeadingElement>(null);
  const showNew = () => {
    live.show();
    heading.current?.focus(); // the button goes: focus stays on the list, above its rows
  };

  // a row a transition takes out of the list says so in the transition's toast
  const watchLeaving = useLeavingRows(loaded, list.data, list.isFetching, list.hasNextPage);

  const queryable = useMemo(() => queryableFields(model, user, entity.name), [model, user, entity.name]);
  const readable = useMemo(
    () => grantedFields(model, user, entity.name, 'read', 'readFields'),
    [model, user, entity.name],
  );
  const columns = useMemo(
    () => listColumns(model, screen, readable, queryable, t),
    [model, screen, readable, queryable, t],
  );
  const filterFields = useMemo(
    () =>
      screen.filters
        .filter((name) => isQueryable(queryable, name))
        .map((name) => fieldOf(model, entity, name, t))
        .filter((field): field is Field => field !== null && FIELD_TYPE_INFO[field.type].filter !== null),
    [screen.filters, queryable, model, entity, t],
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

  const optionalColumns = useMemo(() => columns.filter((c) => c.optional).map((c) => c.name), [columns]);
  const [hidden, setHidden] = useHiddenColumns(model.product.name, screen.id, optionalColumns);
  // the server prerenders no screen for a browser whose columns differ from the spec's
  useEffect(() => syncDeviceSettings(model.product.name, model.product.theme.colorScheme), [hidden, model]);
  const columnDefs = useMemo<ColumnDef<ApiRecord>[]>(() => {
    const defs: ColumnDef<ApiRecord>[] = columns.map((column) => ({
      id: column.name,
      header: column.label,
      accessorFn: (record) => record[column.name],
      cell: ({ row }) =>
        cellView(model, entity, column, row.original, pathOf, open, pendingIds.has(row.original.id), t),
    }));
    if (transitionNames.length > 0)
      defs.push({
        id: ACTIONS_COLUMN,
        header: t('list.actions'),
        cell: ({ row }) => (
          <RowActions
            entity={entity.name}
            record={row.original}
            names={transitionNames}
            size="xs"
            disabled={pendingIds.has(row.original.id)}
            onDone={(next, toast) => watchLeaving(next.id, toast)}
          />
        ),
      });
    return defs;
  }, [columns, entity, transitionNames, model, pathOf, open, pendingIds, watchLeaving, t]);
  // the actions' code (and the engine's decisions they ask) load beside the rows, not after them
  if (transitionNames.length > 0) {
    void rowActions.load().catch(() => undefined); // a failure shows where they render, with a retry
    void loadDecisions().catch(() => undefined); // a failure shows in the rows' boundary, with a retry
  }
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
    screen.actions.includes('create') &&
    newPath !== null &&
    accessFor(model, user, 'create', entity.name) !== false;
  const exportUrl = screen.actions.includes('export')
    ? (format: 'csv' | 'csv-raw') => http.url(entity.resource, { ...listQuery(params), format })
    : null;
  const activeFilters = Object.keys(state.filters).length;
  const filtering = activeFilters > 0 || state.q.trim() !== '';
  const sortable = new Set(columns.filter((c) => c.sortable).map((c) => c.name));
  const widths = columnWidths(
    columns,
    entity.display,
    transitionNames.length > 0 ? { id: ACTIONS_COLUMN, count: transitionNames.length } : null,
  );
  const busy = list.isFetching && !isFetchingNextPage;
  const countText = list.data === undefined ? '' : countOf(entity, total, t, language);
  const sortPlaceholder = columns.some((c) => c.sortable) && <InputPlaceholder style={SORT_STYLE} />;

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end" gap="sm">
        <div>
          <ParentLink model={model} entity={entity} filters={state.filters} />
          <Title order={1} ref={heading} tabIndex={-1} style={{ outline: 'none' }}>
            {screen.title}
          </Title>
          <Text c="dimmed" size="sm" role="status" aria-live="polite" data-testid="list-count">
            {countText}
          </Text>
          <NewRowsNotice entity={entity} waiting={live.waiting} onShow={showNew} />
        </div>
        <Group gap="xs">
          {exportUrl !== null && <ExportMenu url={exportUrl} />}
          {mayCreate && (
            <Button component={Link} to={newPath} leftSection={<IconPlus size={16} aria-hidden />}>
              {newLabel}
            </Button>
          )}
        </Group>
      </Group>

      <Group gap="xs" align="flex-end" wrap="wrap">
        {searchable && (
          <div style={{ flex: '1 1 16rem', minWidth: 0 }}>
            <TypedInput
              label={t('list.search', { entities })}
              hiddenLabel
              type="search"
              inputMode="search"
              placeholder={t('list.searchPlaceholder', {
                fields: new Intl.ListFormat(model.product.locale, { type: 'unit' }).format(
                  entity.search.map((f) => fieldLabel(entity, f, t)),
                ),
              })}
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
            {t('list.filters')}
          </Button>
        )}
        {phone &&
          (controls ? (
            <Suspense fallback={sortPlaceholder}>
              <SortSelect columns={columns.filter((c) => c.sortable)} sort={state.sort} onChange={change} />
            </Suspense>
          ) : (
            sortPlaceholder
          ))}
        {filtering && (
          <Button
            variant="subtle"
            onClick={clearFilters}
            leftSection={<IconFilterOff size={16} aria-hidden />}
          >
            {t('list.clearFilters')}
          </Button>
        )}
        <ColumnChooser columns={columns} hidden={hidden} onToggle={setHidden} />
      </Group>

      {filterFields.length > 0 && (
        <Collapse expanded={!phone || filtersOpen}>
          {controls ? (
            <Suspense fallback={<FiltersPlaceholder fields={filterFields} />}>
              <section aria-label={t('list.filters')}>
                <FilterBar
                  model={model}
                  entity={entity.name}
                  fields={filterFields}
                  filters={state.filters}
                  onChange={change}
                />
              </section>
            </Suspense>
          ) : (
            <FiltersPlaceholder fields={filterFields} />
          )}
        </Collapse>
      )}

      {queue.key !== null && queuedCreates.length > 0 && (
        <section aria-labelledby="nf-queued-creates">
          <Stack gap="xs">
            <Title order={2} size="h4" id="nf-queued-creates">
              {t('list.notSentYet')}
            </Title>
            <PendingWrites queue={queue.key} writes={queuedCreates} />
          </Stack>
        </section>
      )}

      {list.isError && !isFetchNextPageError ? (
        <>
          <ErrorPanel error={list.error} onRetry={() => void list.refetch()} title={t('list.loadFailed')} />
          <ReleasePrerender />
        </>
      ) : list.isPending ? (
        <RowsLoading label={t('list.loading', { entities })} phone={phone} />
      ) : records.length === 0 ? (
        <EmptyState
          title={filtering ? t('list.emptyFiltered', { entities }) : t('list.empty', { entities })}
          description={
            filtering
              ? t('list.emptyFilteredHint')
              : mayCreate
                ? t('list.emptyCreateHint', { action: newLabel })
                : t('list.emptyNothing')
          }
        >
          {filtering && (
            <Group justify="center" mt="sm">
              <Button variant="default" onClick={clearFilters}>
                {t('list.clearFilters')}
              </Button>
            </Group>
          )}
          <ReleasePrerender />
        </EmptyState>
      ) : (
        // the rows wait for their actions' code, rather than grow buttons once it arrives
        <Suspense fallback={<RowsLoading label={t('list.loading', { entities })} phone={phone} />}>
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
              widths={widths}
              busy={busy}
              label={screen.title}
            />
          )}
          {/* the prerender of these rows gives way in the commit that puts them here */}
          <ReleasePrerender />
        </Suspense>
      )}

      {isFetchNextPageError && (
        <ErrorPanel
          error={list.error}
          onRetry={() => void fetchNextPage()}
          alwaysRetry
          title={t('list.moreFailed')}
        />
      )}
      {records.length > 0 && (hasNextPage || isFetchingNextPage) && !isFetchNextPageError && (
        <Center>
          {isFetchingNextPage ? (
            <Loader size="sm" aria-label={t('list.loadingMore')} />
          ) : (
            <Button variant="default" onClick={loadMore}>
              {t('list.loadMore', { shown: records.length, total })}
            </Button>
          )}
        </Center>
      )}
    </Stack>
  );
}

/** How much of the toolbar's line a phone's sort choice takes. */
const SORT_STYLE = { flex: '1 1 12rem' } as const;

/** An input's box, empty, at an input's size: a control's place before the control is rendered. */
function InputPlaceholder({ style }: { style?: CSSProperties }) {
  return (
    <div style={style} aria-hidden="true">
      <Input component="div" />
    </div>
  );
}

/**
 * The filters' place in the list's first frame: each filter's label over the boxes of its inputs
 * (two for a range), in the filters' grid, so that the rows below stay where they are when the
 * inputs replace it. Its inside is hidden from assistive technology, which reads the filters as busy.
 */
function FiltersPlaceholder({ fields }: { fields: readonly Field[] }) {
  const { t } = useI18n();
  return (
    <section aria-label={t('list.filters')} aria-busy="true">
      <div className="nf-filters" aria-hidden="true">
        {fields.map((field) => (
          <Input.Wrapper key={field.name} label={field.label} labelElement="div">
            {field.name !== 'state' && FIELD_TYPE_INFO[field.type].filter === 'range' ? (
              <div className="nf-range">
                <Input component="div" />
                <Input component="div" />
              </div>
            ) : (
              <Input component="div" />
            )}
          </Input.Wrapper>
        ))}
      </div>
    </section>
  );
}

/** Placeholders of a few rows, while the first page or the rows' code loads. */
function RowsLoading({ label, phone }: { label: string; phone: boolean }) {
  return (
    // a status, whose name says what is loading (a plain box may not carry a name)
    <Stack gap={6} role="status" aria-busy="true" aria-label={label}>
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
  t: I18n['t'],
): ReactNode {
  if (column.name === 'state') return <StateBadge entity={entity.name} state={record.state} />;
  if (column.name !== entity.display || FIELD_TYPE_INFO[column.field.type].cell === 'ref')
    return valueView(model, column.field, record[column.name]);
  const path = pathOf(record);
  const title = recordTitle(entity, record);
  const mark = pending && (
    <Badge size="xs" variant="light" color="blue" ml={6} data-pending title={t('list.pendingTitle')}>
      {t('list.pending')}
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

/** "1 claim", "60 claims", in the reader's language and locale. */
function countOf(entity: Entity, total: number, t: I18n['t'], language: string): string {
  return t('list.count', {
    count: total,
    one: inPhrase(entity.label, language),
    other: inPhrase(entity.pluralLabel, language),
  });
}
