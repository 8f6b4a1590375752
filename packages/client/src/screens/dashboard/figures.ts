/**
 * A widget's figure as people read it: its value formatted like the field it measures (money with
 * its currency, in the product's locale), its groups as plain points for a chart, and whether it
 * counted any row at all.
 */
import { type Entity, type FigureValue, type Widget, type WidgetFigure } from '@ninefold/model';
import { formatDecimal, formatInteger, formatValue, padScale } from '../../format/values';
import { type I18n } from '../../i18n/i18n';
import { inPhrase } from '../list/noun';

/** The digits an average is shown with when its field has no scale of its own. */
const AVERAGE_DIGITS = 2;

/**
 * A figure's value as text: a count as a whole number, an aggregate as its field shows values (an
 * average rounded to the field's scale, or to two digits); '' for no value.
 *
 * @example formatFigure(claim, { ...widget, measure: { kind: 'sum', field: 'amount' } }, '1234.5', 'en-GB') // '€1,234.50'
 */
export function formatFigure(entity: Entity, widget: Widget, value: FigureValue, locale: string): string {
  if (value === null) return '';
  const { measure } = widget;
  if (measure.kind === 'count') return typeof value === 'number' ? formatInteger(value, locale) : value;
  const field = entity.fields[measure.field];
  if (field === undefined) return String(value);
  if (measure.kind === 'avg') {
    const digits = field.scale ?? AVERAGE_DIGITS;
    const rounded = Number(value).toFixed(digits);
    return Number.isNaN(Number(value)) ? String(value) : formatDecimal(rounded, locale, field.currency);
  }
  if (field.type === 'money' || field.type === 'decimal') {
    const text = String(value);
    return formatDecimal(field.scale === null ? text : padScale(text, field.scale), locale, field.currency);
  }
  return formatValue(field, value, locale);
}

/** One point of a chart: a group's label, its value as a number, and its value as text. */
export interface ChartPoint {
  readonly index: number;
  readonly label: string;
  readonly value: number;
  readonly text: string;
}

/**
 * The groups of a figure as chart points, in the server's order. A group without a value (an
 * aggregate over no rows) is drawn as zero and read as "none".
 */
export function chartPoints(
  entity: Entity,
  widget: Widget,
  figure: WidgetFigure,
  locale: string,
): ChartPoint[] {
  return (figure.groups ?? []).map((group, index) => ({
    index,
    label: group.label,
    value: group.value === null ? 0 : Number(group.value),
    text: group.value === null ? 'none' : formatFigure(entity, widget, group.value, locale),
  }));
}

/**
 * Whether a figure counted no row: a count of zero, an aggregate over nothing, or no group.
 * Such a widget says so ("No claims yet") rather than drawing an empty chart.
 */
export function isEmptyFigure(figure: WidgetFigure): boolean {
  if (figure.groups !== null) return figure.groups.length === 0;
  return figure.value === null || figure.value === 0;
}

/**
 * What a widget shows over no rows, in the reader's language.
 *
 * @example emptyText(claim, t, 'en') // 'No claims yet'
 */
export function emptyText(entity: Entity, t: I18n['t'], language: string): string {
  return t('dashboard.empty', { entities: inPhrase(entity.pluralLabel, language) });
}

/**
 * A chart's name for screen readers: its title and every group with its value, so that the chart
 * itself says what the table view shows.
 *
 * @example chartName('By state', points) // 'By state: Draft 3, Submitted 5'
 */
export function chartName(title: string, points: readonly ChartPoint[]): string {
  return `${title}: ${points.map((point) => `${point.label} ${point.text}`).join(', ')}`;
}
