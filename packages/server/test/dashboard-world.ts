/**
 * The dashboards' test world (decision 0046): a spec with every kind of measure and grouping, roles
 * that read all, their own, some rows (a condition) or a masked set of fields, and the figures of a
 * dashboard worked out by hand from the rows a viewer lists through the list API.
 */
import {
  type FigureGroup,
  type FigureValue,
  type Model,
  type Value,
  type Widget,
  type WidgetFigure,
  fromMinorUnits,
  toMinorUnits,
} from '@ninefold/model';
import { type Client, type Json } from './world.js';

export const SPEC = `
product: { name: Trips, locale: en-GB }
entities:
  Team:
    display: name
    fields:
      name: { type: string, required: true }
  Trip:
    owner: traveller
    display: title
    fields:
      title: { type: string, required: true }
      kind: { type: enum, values: [rail, air, car] }
      km: { type: integer }
      amount: { type: money, currency: EUR }
      rate: { type: decimal, scale: 3, precision: 10 }
      day: { type: date }
      at: { type: datetime }
      urgent: { type: boolean }
      team: { type: ref, to: Team }
      traveller: { type: ref, to: User, default: user.id, readonly: true }
      notes: { type: text }
states:
  Trip:
    initial: planned
    states:
      planned: { label: Planned }
      done: { label: Done and dusted }
    transitions:
      finish: { from: planned, to: done }
roles:
  traveller:
    Trip: { read: own, create: true, update: own }
    Team: { read: true }
  boss:
    Trip: { read: all, create: true, update: true, delete: true }
    Team: true
    User: { read: true }
  auditor:
    Trip:
      read: all
      fields: { read: [title, kind, day, team, traveller] }
  watcher:
    Trip: { read: "urgent == true" }
    Team: { read: true }
  outsider:
    Team: { read: true }
screens:
  figures:
    kind: dashboard
    title: Figures
    widgets:
      - { title: Trips, entity: Trip }
      - { title: Kilometres, entity: Trip, measure: sum(km) }
      - { title: Spent, entity: Trip, measure: sum(amount) }
      - { title: Average spend, entity: Trip, measure: avg(amount) }
      - { title: Lowest rate, entity: Trip, measure: min(rate) }
      - { title: Longest, entity: Trip, measure: max(km) }
      - { title: Average distance, entity: Trip, measure: avg(km) }
      - { title: Highest spend, entity: Trip, measure: max(amount) }
      - { title: By kind, entity: Trip, by: kind, chart: pie }
      - { title: By state, entity: Trip, by: state }
      - { title: Spent by team, entity: Trip, measure: sum(amount), by: team, chart: table }
      - { title: Urgent or not, entity: Trip, by: urgent }
      - { title: By month, entity: Trip, by: day, chart: line }
      - { title: Kilometres by week, entity: Trip, measure: sum(km), by: day, bucket: week }
      - { title: By day, entity: Trip, by: at, bucket: day }
      - { title: Rail trips, entity: Trip, where: "kind == 'rail'" }
      - { title: By traveller, entity: Trip, by: traveller }
      - { title: By team, entity: Trip, by: team }
  boss-figures:
    kind: dashboard
    roles: [boss]
    widgets:
      - { title: Trips, entity: Trip }
`;

/** Every row a viewer may list, through the list API's pages. */
export async function listAll(client: Client, resource: string): Promise<Json[]> {
  const rows: Json[] = [];
  let cursor: string | null = null;
  do {
    const url: string = `/api/${resource}?limit=100${cursor === null ? '' : `&cursor=${cursor}`}`;
    const page = await client.get(url);
    if (page.statusCode !== 200) throw new Error(`${url}: ${page.statusCode} ${page.body}`);
    const body = page.json<{ data: Json[]; nextCursor: string | null }>();
    rows.push(...body.data);
    cursor = body.nextCursor;
  } while (cursor !== null);
  return rows;
}

/** The first day of a date's bucket, in UTC. */
function bucketOf(date: string, bucket: 'day' | 'week' | 'month'): string {
  const day = date.slice(0, 10);
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 7)}-01`;
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

function nextOf(key: string, bucket: 'day' | 'week' | 'month'): string {
  const d = new Date(`${key}T00:00:00Z`);
  if (bucket === 'day') d.setUTCDate(d.getUTCDate() + 1);
  if (bucket === 'week') d.setUTCDate(d.getUTCDate() + 7);
  if (bucket === 'month') d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
}

/** The scale of a measured field: its minor units (0 for an integer). */
function scaleOf(model: Model, widget: Widget): number {
  if (widget.measure.kind === 'count') return 0;
  const field = model.entities[widget.entity]!.fields[widget.measure.field]!;
  return field.type === 'integer' ? 0 : (field.scale ?? 2);
}

/** A measure over rows, worked out by hand with exact decimals. */
function measureByHand(model: Model, widget: Widget, rows: readonly Json[]): FigureValue {
  if (widget.measure.kind === 'count') return rows.length;
  const name = widget.measure.field;
  const integer = model.entities[widget.entity]!.fields[name]!.type === 'integer';
  const scale = scaleOf(model, widget);
  const units = rows
    .map((r) => r[name] as Value)
    .filter((v) => v !== null && v !== undefined)
    .map((v) => (typeof v === 'number' ? BigInt(v) : toMinorUnits(String(v), scale)!));
  if (units.length === 0) return null;
  const out = (u: bigint) => (integer ? Number(u) : fromMinorUnits(u, scale));
  switch (widget.measure.kind) {
    case 'sum':
      return out(units.reduce((a, b) => a + b, 0n));
    case 'min':
      return out(units.reduce((a, b) => (b < a ? b : a)));
    case 'max':
      return out(units.reduce((a, b) => (b > a ? b : a)));
    case 'avg': {
      const outScale = integer ? 2 : scale;
      const total = units.reduce((a, b) => a + b, 0n) * 10n ** BigInt(outScale - scale);
      const n = BigInt(units.length);
      const negative = total < 0n;
      const q = ((negative ? -total : total) * 2n + n) / (2n * n);
      return fromMinorUnits(negative ? -q : q, outScale);
    }
  }
}

/**
 * A widget's figure worked out by hand over the rows a viewer listed (groups without labels, in
 * key order for dates), for comparing with the server's; `where` is given as a predicate.
 */
export function figureByHand(
  model: Model,
  widget: Widget,
  listed: readonly Json[],
  where: (row: Json) => boolean = () => true,
): Omit<WidgetFigure, 'groups'> & { groups: Omit<FigureGroup, 'label'>[] | null } {
  const rows = listed.filter(where);
  if (widget.by === null) return { id: widget.id, value: measureByHand(model, widget, rows), groups: null };
  const { field, bucket } = widget.by;
  const keyOf = (row: Json): Value => {
    const v = (row[field] ?? null) as Value;
    return bucket === null || v === null ? v : bucketOf(String(v), bucket);
  };
  const byKey = new Map<string, { key: Value; rows: Json[] }>();
  for (const row of rows) {
    const key = keyOf(row);
    const k = JSON.stringify(key);
    const group = byKey.get(k) ?? { key, rows: [] };
    group.rows.push(row);
    byKey.set(k, group);
  }
  let groups = [...byKey.values()].map((g) => ({ key: g.key, value: measureByHand(model, widget, g.rows) }));
  if (bucket !== null) {
    const dated = groups.filter((g) => typeof g.key === 'string').sort((a, b) => (a.key! < b.key! ? -1 : 1));
    const filled: typeof groups = [];
    const first = dated[0];
    const last = dated.at(-1);
    if (first !== undefined && last !== undefined) {
      for (let key = first.key as string; key <= (last.key as string); key = nextOf(key, bucket)) {
        filled.push(
          dated.find((g) => g.key === key) ?? { key, value: widget.measure.kind === 'count' ? 0 : null },
        );
      }
    }
    groups = [...filled, ...groups.filter((g) => g.key === null)];
  }
  return { id: widget.id, value: null, groups };
}

/** A server figure without its labels, its groups in key order (dates keep theirs). */
export function unlabelled(figure: WidgetFigure, dated: boolean): ReturnType<typeof figureByHand> {
  const groups = figure.groups?.map(({ key, value }) => ({ key, value })) ?? null;
  return {
    id: figure.id,
    value: figure.value,
    groups: dated || groups === null ? groups : sortByKey(groups),
  };
}

/** Groups sorted by key, for comparing groups whose order the server decides by label. */
export function sortByKey<T extends { key: Value }>(groups: readonly T[]): T[] {
  return [...groups].sort((a, b) => (JSON.stringify(a.key) < JSON.stringify(b.key) ? -1 : 1));
}
