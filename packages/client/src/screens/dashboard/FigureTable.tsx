/**
 * A widget's figures as a table: one row per group (or one row for a whole figure), the group's
 * label a link to the list of the rows it counts. The view that screen readers and keyboards use,
 * and that anyone may switch a chart to.
 */
import { Anchor, Table } from '@mantine/core';
import { type Entity, type Widget } from '@ninefold/model';
import { Link } from 'react-router';
import { fieldLabel } from '../../format/field-labels';
import { useI18n } from '../../i18n/I18nProvider';
import { type I18n } from '../../i18n/i18n';
import { inPhrase } from '../list/noun';
import { type ChartPoint } from './figures';

/**
 * The header of a widget's value column, in the reader's language.
 *
 * @example measureLabel(claim, { kind: 'sum', field: 'amount' }, t, 'en') // 'Sum of amount'
 */
export function measureLabel(
  entity: Entity,
  measure: Widget['measure'],
  t: I18n['t'],
  language: string,
): string {
  if (measure.kind === 'count') return entity.pluralLabel;
  const field = inPhrase(fieldLabel(entity, measure.field, t), language);
  return t(`dashboard.${measure.kind}`, { field });
}

/** The header of a widget's group column: its `by` field's label. */
function groupLabel(entity: Entity, widget: Widget, t: I18n['t']): string {
  const field = widget.by?.field;
  if (field === undefined) return t('dashboard.rows');
  return fieldLabel(entity, field, t);
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
  const { t, language } = useI18n();
  return (
    <Table aria-labelledby={labelledBy}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th scope="col">{groupLabel(entity, widget, t)}</Table.Th>
          <Table.Th scope="col" ta="right">
            {measureLabel(entity, widget.measure, t, language)}
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
