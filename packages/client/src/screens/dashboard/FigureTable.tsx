/**
 * A widget's figures as a table: one row per group (or one row for a whole figure), the group's
 * label a link to the list of the rows it counts. The view that screen readers and keyboards use,
 * and that anyone may switch a chart to.
 */
import { Anchor, Table } from '@mantine/core';
import { type Entity, type Widget, humanize } from '@ninefold/model';
import { Link } from 'react-router';
import { type ChartPoint } from './figures';

/**
 * The header of a widget's value column.
 *
 * @example measureLabel(claim, { kind: 'sum', field: 'amount' }) // 'Sum of amount'
 */
export function measureLabel(entity: Entity, measure: Widget['measure']): string {
  if (measure.kind === 'count') return entity.pluralLabel;
  const label = (entity.fields[measure.field]?.label ?? humanize(measure.field)).toLowerCase();
  const words = { sum: 'Sum of', avg: 'Average', min: 'Lowest', max: 'Highest' } as const;
  return `${words[measure.kind]} ${label}`;
}

/** The header of a widget's group column: its `by` field's label. */
function groupLabel(entity: Entity, widget: Widget): string {
  const field = widget.by?.field;
  if (field === undefined) return 'Rows';
  return entity.fields[field]?.label ?? humanize(field);
}

export interface FigureTableProps {
  readonly entity: Entity;
  readonly widget: Widget;
  readonly points: readonly ChartPoint[];
  /** The id of the element that names the table (the card's title). */
  readonly labelledBy: string;
  /** The address of a row's list, or null when the viewer may open no list of them. */
  readonly hrefOf: (point: ChartPoint) => string | null;
}

/**
 * A widget's figures as a table of links.
 *
 * @example <FigureTable entity={claim} widget={widget} points={points} labelledBy="w-title" hrefOf={href} />
 */
export function FigureTable({ entity, widget, points, labelledBy, hrefOf }: FigureTableProps) {
  return (
    <Table aria-labelledby={labelledBy}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{groupLabel(entity, widget)}</Table.Th>
          <Table.Th scope="col" ta="right">
            {measureLabel(entity, widget.measure)}
          </Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {points.map((point) => {
          const href = hrefOf(point);
          return (
            <Table.Tr key={point.index}>
              <Table.Th scope="row" fw="normal">
                {href === null ? (
                  point.label
                ) : (
                  <Anchor component={Link} to={href}>
                    {point.label}
                  </Anchor>
                )}
              </Table.Th>
              <Table.Td ta="right">{point.text}</Table.Td>
            </Table.Tr>
          );
        })}
      </Table.Tbody>
    </Table>
  );
}
