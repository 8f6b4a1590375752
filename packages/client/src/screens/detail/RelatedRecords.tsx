/**
 * The records that point at a record, on its page (decision 0047): one section per child relation,
 * each a compact list of its own — the child's list columns without the ref to the parent, its own
 * pages and sort, the rows the server lets the viewer read (`GET <children>?<via>[eq]=<id>`) — with
 * "Add" (the child's create form with the parent set) and "See all" (the child's list filtered by
 * the parent, a deep link). Each section asks for its first page as the record's page renders, all
 * at once: one request per section, none per row.
 */
import { Anchor, Button, Center, Group, Loader, Skeleton, Stack, Text, Title } from '@mantine/core';
import { queryableFields, grantedFields } from '@ninefold/engine/field-grants';
import { type ApiRecord, type Entity, FIELD_TYPE_INFO, type Model, type Screen } from '@ninefold/model';
import { IconPlus } from '@tabler/icons-react';
import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { type ReactNode, useCallback, useId, useMemo, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { useRecordList } from '../../api/records';
import { recordTitle } from '../../api/ref-labels';
import { useSession } from '../../auth/session';
import { ErrorPanel } from '../../components/ErrorPanel';
import { RecordLink, valueView } from '../../components/FieldValue';
import { StateBadge } from '../../components/StateBadge';
import { useT } from '../../i18n/I18nProvider';
import { useAuthorizer } from '../../runtime/access';
import { detailPath, screenFor } from '../../runtime/paths';
import { useModel } from '../../runtime/runtime';
import { type ListColumn } from '../list/columns';
import { toggledSort } from '../list/list-params';
import { RecordTable } from '../list/RecordTable';
import { columnWidths } from '../list/column-widths';
import { type RowsView } from '../list/rows-view';
import {
  type RelatedView,
  addPath,
  emptyText,
  lowerFirst,
  parentFilter,
  sectionColumns,
  sectionSort,
  seeAllPath,
  visibleSections,
} from './related';

/** Rows a section loads at a time: a glance at the children, "Show more" for the rest. */
export const SECTION_PAGE = 10;

/**
 * Every related section of a detail screen the viewer may read, in the screen's order.
 *
 * @example <RelatedRecords screen={ticketScreen} record={ticket} />
 */
export function RelatedRecords({ screen, record }: { screen: Screen; record: ApiRecord }) {
  const model = useModel();
  const { data: session } = useSession();
  const t = useT();
  const user = session?.context ?? null;
  const sections = useMemo(
    () => visibleSections(model, screen, user, (entity) => queryableFields(model, user, entity), t),
    [model, screen, user, t],
  );
  return sections.map((section) => <Section key={section.key} section={section} parent={record} />);
}

function Section({ section, parent }: { section: RelatedView; parent: ApiRecord }) {
  const model = useModel();
  const access = useAuthorizer();
  const navigate = useNavigate();
  const headingId = useId();
  const t = useT();
  const locale = model.product.locale;
  const { child, via } = section;
  const entities = lowerFirst(child.pluralLabel, locale);
  const [sort, setSort] = useState(() => sectionSort(model, child));
  const list = useRecordList(child, { filters: parentFilter(via, parent.id), sort, limit: SECTION_PAGE });
  const records = useMemo(() => list.data?.pages.flatMap((page) => page.data) ?? [], [list.data]);
  const total = list.data?.pages[0]?.total ?? records.length;

  const user = access.user;
  const columns = useMemo(
    () =>
      sectionColumns(
        model,
        section,
        grantedFields(model, user, child.name, 'read', 'readFields'),
        queryableFields(model, user, child.name),
        t,
      ),
    [model, section, user, child.name, t],
  );
  const open = useCallback((path: string) => void navigate(path), [navigate]);
  const columnDefs = useMemo<ColumnDef<ApiRecord>[]>(
    () =>
      columns.map((column) => ({
        id: column.name,
        header: column.label,
        accessorFn: (row) => row[column.name],
        cell: ({ row }) => cellView(model, child, column, row.original),
      })),
    [columns, model, child],
  );
  const table = useReactTable({
    data: records as ApiRecord[],
    columns: columnDefs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (row) => row.id,
    manualSorting: true,
  });
  const rows: RowsView = {
    total,
    pathOf: (row) => detailPath(model, child.name, row.id),
    open,
    loadMore: () => undefined,
    // more rows come with "Show more", not by scrolling past the section
    canLoadMore: false,
  };

  const createScreen = screenFor(model, child.name, 'create');
  const mayAdd =
    createScreen !== undefined && access.mayOpen(createScreen) && access.can('create', child.name);
  const listScreen = screenFor(model, child.name, 'list');
  const mayList = listScreen !== undefined && access.mayOpen(listScreen);
  const sortable = new Set(columns.filter((c) => c.sortable).map((c) => c.name));

  return (
    <section aria-labelledby={headingId} data-related={section.key}>
      <Stack gap="sm">
        <Group justify="space-between" align="flex-end" gap="sm">
          <div>
            <Title order={2} size="h3" id={headingId}>
              {section.heading}
            </Title>
            <Text c="dimmed" size="sm" data-testid="related-count">
              {list.data === undefined
                ? ''
                : t('detail.relatedCount', {
                    n: total,
                    entity: lowerFirst(child.label, locale),
                    entities,
                  })}
            </Text>
          </div>
          <Group gap="xs">
            {mayList && (
              <Anchor component={Link} to={seeAllPath(listScreen.path, via, parent.id)} size="sm">
                {t('detail.seeAll', { entities })}
              </Anchor>
            )}
            {mayAdd && (
              <Button
                component={Link}
                to={addPath(createScreen.path, via, parent.id)}
                variant="default"
                size="xs"
                leftSection={<IconPlus size={14} aria-hidden />}
              >
                {t('detail.add', { entity: lowerFirst(child.label, locale) })}
              </Button>
            )}
          </Group>
        </Group>
        {list.isError && !list.isFetchNextPageError ? (
          <ErrorPanel
            error={list.error}
            onRetry={() => void list.refetch()}
            title={t('detail.loadFailed', { title: section.heading })}
          />
        ) : list.isPending ? (
          <Stack
            gap={6}
            role="status"
            aria-busy="true"
            aria-label={t('detail.loadingMany', { entities: lowerFirst(section.heading, locale) })}
          >
            {[0, 1, 2].map((i) => (
              <Skeleton key={i} height={36} radius="sm" />
            ))}
          </Stack>
        ) : records.length === 0 ? (
          <Text c="dimmed" size="sm" data-testid="related-empty">
            {emptyText(section, t, locale)}
          </Text>
        ) : (
          <RecordTable
            table={table}
            rows={rows}
            sort={sort}
            onSort={(column) => setSort((current) => toggledSort(current.split(',')[0] ?? '', column))}
            sortable={sortable}
            widths={columnWidths(columns, child.display, null)}
            busy={list.isFetching && !list.isFetchingNextPage}
            label={section.heading}
          />
        )}
        {list.isFetchNextPageError && (
          <ErrorPanel
            error={list.error}
            onRetry={() => void list.fetchNextPage()}
            alwaysRetry
            title={t('detail.moreFailed')}
          />
        )}
        {records.length > 0 && list.hasNextPage && !list.isFetchNextPageError && (
          <Center>
            {list.isFetchingNextPage ? (
              <Loader size="sm" aria-label={t('detail.loadingMore', { entities })} />
            ) : (
              <Button variant="subtle" size="xs" onClick={() => void list.fetchNextPage()}>
                {t('detail.showMore', { entities, shown: records.length, total })}
              </Button>
            )}
          </Center>
        )}
      </Stack>
    </section>
  );
}

/** One cell: the record's title as the link to it, the state as its badge, any other value as read. */
function cellView(model: Model, entity: Entity, column: ListColumn, record: ApiRecord): ReactNode {
  if (column.name === 'state') return <StateBadge entity={entity.name} state={record.state} />;
  if (column.name !== entity.display || FIELD_TYPE_INFO[column.field.type].cell === 'ref')
    return valueView(model, column.field, record[column.name]);
  return (
    <RecordLink path={detailPath(model, entity.name, record.id)} title={recordTitle(entity, record)} strong />
  );
}
