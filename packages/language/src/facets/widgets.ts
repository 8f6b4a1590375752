/**
 * The widgets of a `kind: dashboard` screen (decision 0046): each a measure (`count`, `sum(field)`,
 * `avg(field)`, `min(field)`, `max(field)`) over the rows of an entity that hold its `where`, whole
 * or grouped `by` a field (an enum, the state, a ref, a boolean, or a date bucketed by day, week or
 * month), drawn as a `chart`. And the dashboard `product.dashboard: true` asks for when the spec
 * declares none.
 */
import {
  DATE_BUCKETS,
  type DateBucket,
  type Entity,
  type Field,
  type Screen,
  WIDGET_CHARTS,
  WIDGET_MEASURES,
  type Widget,
  type WidgetChart,
  type WidgetMeasure,
  type WidgetMeasureKind,
} from '@ninefold/model';
import { suggestion } from '../diagnostics/suggest.js';
import { checkExpression } from '../expressions/check.js';
import { own } from '../own.js';
import { type YNode } from '../source/yaml.js';
import { type CompileContext } from './context.js';
import { NAME_RULES } from './reader.js';

export const WIDGET_KEYS = ['id', 'title', 'entity', 'where', 'measure', 'by', 'bucket', 'chart'] as const;

/** Field types a `sum`, `avg`, `min` or `max` can measure: exact numbers. */
export const MEASURABLE_TYPES: readonly string[] = ['integer', 'decimal', 'money'];
/** Field types a widget can group `by` (a single value each); dates and instants take a bucket. */
export const GROUPABLE_TYPES: readonly string[] = ['enum', 'ref', 'boolean', 'date', 'datetime'];
const DATE_TYPES: readonly string[] = ['date', 'datetime'];

/** A widget's field as it groups or measures: a spec field, or a system one (`state`, `createdAt`…). */
interface WidgetField {
  readonly name: string;
  readonly type: string;
  readonly many: boolean;
}

/**
 * The id of a widget from its title: lower-case words joined by `-`.
 *
 * @example widgetId('Claims by state') // 'claims-by-state'
 */
export function widgetId(title: string): string {
  const id = title
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return id === '' ? 'widget' : id;
}

/** The fields of an entity a widget may name: its own and the system ones. */
function widgetFields(ctx: CompileContext, entity: Entity): WidgetField[] {
  const system: WidgetField[] = [
    { name: 'createdAt', type: 'datetime', many: false },
    { name: 'updatedAt', type: 'datetime', many: false },
    { name: 'createdBy', type: 'ref', many: false },
    ...(ctx.states[entity.name] ? [{ name: 'state', type: 'state', many: false }] : []),
  ];
  return [...system, ...Object.values(entity.fields).map((f: Field) => f)];
}

/**
 * Reads the `widgets:` of a dashboard screen (`where` names it in messages), reporting each widget
 * that cannot be drawn (and leaving it out).
 *
 * @example readWidgets(ctx, node, 'screen `overview`') // [{ id: 'claims-by-state', … }]
 */
export function readWidgets(ctx: CompileContext, node: YNode, where: string): Widget[] {
  const { reader, bag } = ctx;
  const widgets: Widget[] = [];
  const ids = new Set<string>();
  for (const item of reader.list(node, `the widgets of ${where}`)) {
    const widgetWhere = `a widget of ${where}`;
    const m = reader.map(item, widgetWhere, WIDGET_KEYS);
    if (m === null) continue;
    const str = (key: string) => {
      const e = m.get(key);
      return e ? reader.string(e.value, `\`${key}\` of ${widgetWhere}`) : null;
    };
    const title = str('title');
    if (title === null) {
      if (!m.has('title')) reader.missing(item.span, 'title', widgetWhere, 'title: Claims by state');
      continue;
    }
    const idEntry = m.get('id');
    let id = str('id') ?? widgetId(title);
    if (idEntry && !NAME_RULES.screen.pattern.test(id)) {
      bag.report(
        'NF204',
        idEntry.value.span,
        `The widget id \`${id}\` does not follow the convention for widget ids.`,
        'write it in lower-case with `-`, like `claims-by-state`',
      );
      id = widgetId(id);
    }
    if (ids.has(id)) {
      bag.report(
        'NF327',
        (idEntry ?? m.get('title')!).value.span,
        `Two widgets of ${where} have the id \`${id}\`.`,
        'give one of them another title, or an `id:` of its own',
      );
      continue;
    }
    ids.add(id);

    const entityName = str('entity');
    if (entityName === null) {
      if (!m.has('entity')) reader.missing(item.span, 'entity', widgetWhere, 'entity: Claim');
      continue;
    }
    const entity = own(ctx.entities, entityName);
    if (entity === undefined) {
      bag.report(
        'NF301',
        m.get('entity')!.value.span,
        `\`${entityName}\` is not a declared entity, so widget \`${id}\` cannot measure it.`,
        suggestion(entityName, Object.keys(ctx.entities), 'entity'),
      );
      continue;
    }
    const fields = widgetFields(ctx, entity);
    const fieldNamed = (name: string, span: YNode['span']): WidgetField | null => {
      const field = fields.find((f) => f.name === name);
      if (field === undefined) {
        bag.report(
          'NF302',
          span,
          `\`${entity.name}\` has no field \`${name}\` for widget \`${id}\`.`,
          suggestion(
            name,
            fields.map((f) => f.name),
            'field',
          ),
        );
        return null;
      }
      return field;
    };

    let ok = true;
    let measure: WidgetMeasure = { kind: 'count' };
    const measureEntry = m.get('measure');
    const measureText = str('measure');
    if (measureText !== null) {
      const parsed = /^\s*(count|sum|avg|min|max)\s*(?:\(\s*([A-Za-z_][A-Za-z0-9_]*)\s*\))?\s*$/.exec(
        measureText,
      );
      const kind = parsed?.[1] as WidgetMeasureKind | undefined;
      const fieldName = parsed?.[2];
      if (kind === undefined || (kind === 'count') !== (fieldName === undefined)) {
        bag.report(
          'NF229',
          measureEntry!.value.span,
          `\`${measureText}\` is not a measure.`,
          `write \`count\` or one of ${WIDGET_MEASURES.filter((k) => k !== 'count')
            .map((k) => `\`${k}(field)\``)
            .join(', ')}`,
        );
        ok = false;
      } else if (kind !== 'count' && fieldName !== undefined) {
        const field = fieldNamed(fieldName, measureEntry!.value.span);
        if (field === null) ok = false;
        else if (field.many || !MEASURABLE_TYPES.includes(field.type)) {
          bag.report(
            'NF229',
            measureEntry!.value.span,
            `Widget \`${id}\` cannot ${kind === 'avg' ? 'average' : kind} \`${field.name}\`: it holds ${field.many ? 'a list' : field.type}.`,
            `measure a number (${MEASURABLE_TYPES.join(', ')}), or count the rows with \`measure: count\``,
          );
          ok = false;
        } else measure = { kind, field: field.name };
      }
    }

    let by: Widget['by'] = null;
    const byEntry = m.get('by');
    const byName = str('by');
    if (byName !== null) {
      const byField = fieldNamed(byName, byEntry!.value.span);
      if (byField === null) ok = false;
      else if (byField.many || !(GROUPABLE_TYPES.includes(byField.type) || byField.type === 'state')) {
        bag.report(
          'NF230',
          byEntry!.value.span,
          `Widget \`${id}\` cannot group by \`${byField.name}\`: it holds ${byField.many ? 'a list' : byField.type}.`,
          'group by an enum, the state, a single ref, a boolean, or a date or datetime',
        );
        ok = false;
      } else by = { field: byField.name, bucket: DATE_TYPES.includes(byField.type) ? 'month' : null };
    }
    const bucketEntry = m.get('bucket');
    const bucket = str('bucket');
    if (bucket !== null) {
      if (!(DATE_BUCKETS as readonly string[]).includes(bucket)) {
        bag.report(
          'NF211',
          bucketEntry!.value.span,
          `\`${bucket}\` is not a date bucket.`,
          suggestion(bucket, DATE_BUCKETS, 'bucket'),
        );
        ok = false;
      } else if (by === null || by.bucket === null) {
        bag.report(
          'NF231',
          bucketEntry!.value.span,
          `Widget \`${id}\` has a \`bucket\` but does not group by a date.`,
          byName === null ? 'add `by:` a date or datetime field' : 'remove `bucket`, or group by a date',
        );
        ok = false;
      } else by = { field: by.field, bucket: bucket as DateBucket };
    }

    const chartEntry = m.get('chart');
    const chartName = str('chart');
    let chart: WidgetChart = by === null ? 'number' : 'bar';
    if (chartName !== null) {
      if (!(WIDGET_CHARTS as readonly string[]).includes(chartName)) {
        bag.report(
          'NF211',
          chartEntry!.value.span,
          `\`${chartName}\` is not a chart.`,
          suggestion(chartName, WIDGET_CHARTS, 'chart'),
        );
        ok = false;
      } else {
        chart = chartName as WidgetChart;
        const problem = chartProblem(chart, byName !== null, by?.bucket ?? null);
        if (problem !== null) {
          bag.report('NF231', chartEntry!.value.span, `Widget \`${id}\`: ${problem.message}`, problem.hint);
          ok = false;
        }
      }
    }

    let condition = null;
    const whereEntry = m.get('where');
    if (whereEntry) {
      const source = reader.string(whereEntry.value, `the filter of widget \`${id}\``);
      if (source !== null) {
        condition = checkExpression(ctx, ctx.envs, {
          source,
          span: whereEntry.value.span,
          raw: whereEntry.value.raw,
          scope: { entity, old: false },
          expect: 'bool',
          sql: true,
          what: `the filter of widget \`${id}\``,
        });
        if (condition === null) ok = false;
      }
    }
    if (!ok) continue;
    widgets.push({ id, title, entity: entity.name, where: condition, measure, by, chart });
  }
  return widgets;
}

/** Why a chart cannot draw a widget, or null when it can. */
function chartProblem(
  chart: WidgetChart,
  grouped: boolean,
  bucket: DateBucket | null,
): { message: string; hint: string } | null {
  if (chart === 'number' && grouped)
    return {
      message: 'a `number` shows one figure, but the widget is grouped.',
      hint: 'use `bar`, `pie`, `table` (or `line` by a date), or remove `by`',
    };
  if ((chart === 'pie' || chart === 'line' || chart === 'bar') && !grouped)
    return {
      message: `a \`${chart}\` chart needs groups, but the widget has no \`by\`.`,
      hint: 'add `by:` a field to group by, or use `chart: number`',
    };
  if (chart === 'line' && bucket === null)
    return {
      message: 'a `line` chart draws a figure over time, but the widget is not grouped by a date.',
      hint: 'group by a date or datetime field, or use `bar`',
    };
  return null;
}

/**
 * The dashboard `product.dashboard: true` asks for when the spec declares none: for each entity of
 * the spec (not the built-in User), how many records, by state when it has a machine, else by its
 * first single enum field, else in all. The server leaves out the widgets a viewer may not read, so
 * one screen serves every role.
 *
 * @example generatedDashboard(ctx, screens)?.widgets[0] // { id: 'claims', measure: { kind: 'count' }, by: { field: 'state', … } }
 */
export function generatedDashboard(ctx: CompileContext, screens: readonly Screen[]): Screen | null {
  const taken = (id: string) => screens.some((s) => s.id === id || s.path === `/${id}`);
  const id = ['dashboard', 'overview', 'figures'].find((candidate) => !taken(candidate));
  if (id === undefined) return null;
  const widgets: Widget[] = [];
  for (const entity of Object.values(ctx.entities)) {
    if (entity.builtin) continue;
    const enumField = Object.values(entity.fields).find((f) => f.type === 'enum' && !f.many);
    const by = ctx.states[entity.name] ? 'state' : (enumField?.name ?? null);
    widgets.push({
      id: widgetId(entity.pluralLabel),
      title: entity.pluralLabel,
      entity: entity.name,
      where: null,
      measure: { kind: 'count' },
      by: by === null ? null : { field: by, bucket: null },
      chart: by === null ? 'number' : 'bar',
    });
  }
  return {
    id,
    path: `/${id}`,
    kind: 'dashboard',
    entity: null,
    title: 'Dashboard',
    roles: null,
    fields: [],
    filters: [],
    where: null,
    sort: null,
    actions: [],
    body: '',
    related: null,
    widgets,
    generated: true,
  };
}
