/**
 * Dashboards in the notation (decision 0046): what a widget compiles to, its defaults, the
 * generated dashboard `product.dashboard: true` asks for, and every diagnostic with line and hint.
 */
import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, spec } from './expect-diagnostic.js';

const ENTITIES = `entities:
  Team: { display: name, fields: { name: string } }
  Trip:
    fields:
      title: string
      kind: { type: enum, values: [rail, air] }
      km: integer
      amount: { type: money, currency: EUR }
      day: date
      urgent: boolean
      team: { type: ref, to: Team }
      tags: { type: enum, many: true, values: [a, b] }
      notes: text
states:
  Trip:
    initial: planned
    states: { planned: {}, done: {} }
    transitions:
      finish: { from: planned, to: done }
`;

/** A spec of the entities above and a dashboard with these widgets (YAML flow mappings, one a line). */
function dashboard(...widgets: string[]): string {
  return `${ENTITIES}screens:\n  figures:\n    kind: dashboard\n    widgets:\n${widgets.map((w) => `      - ${w}\n`).join('')}`;
}
/** The line of the n-th widget (from 1) in `dashboard(…)`. */
const widgetLine = (n: number) => ENTITIES.split('\n').length + 3 + n;

function compiled(text: string) {
  const result = compile(text, { file: 'spec.yaml' });
  if (!result.ok)
    throw new Error(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n'));
  return result.model;
}

describe('dashboards', () => {
  it('compiles widgets with their defaults: ids from titles, count, month buckets, number or bar', () => {
    const model = compiled(
      dashboard(
        '{ title: All trips, entity: Trip }',
        '{ title: Spent by month, entity: Trip, measure: "sum(amount)", by: day }',
        '{ title: Kilometres by week, entity: Trip, measure: avg(km), by: day, bucket: week, chart: line }',
        '{ title: By state, entity: Trip, by: state, chart: pie, where: "urgent == true" }',
        '{ id: teams, title: By team, entity: Trip, measure: max(amount), by: team, chart: table }',
      ),
    );
    const screen = model.screens.find((s) => s.id === 'figures')!;
    expect(screen).toMatchObject({ kind: 'dashboard', entity: null, path: '/figures', title: 'Figures' });
    expect(screen.widgets.map(({ where, ...w }) => ({ ...w, where: where?.source ?? null }))).toEqual([
      {
        id: 'all-trips',
        title: 'All trips',
        entity: 'Trip',
        where: null,
        measure: { kind: 'count' },
        by: null,
        chart: 'number',
      },
      {
        id: 'spent-by-month',
        title: 'Spent by month',
        entity: 'Trip',
        where: null,
        measure: { kind: 'sum', field: 'amount' },
        by: { field: 'day', bucket: 'month' },
        chart: 'bar',
      },
      {
        id: 'kilometres-by-week',
        title: 'Kilometres by week',
        entity: 'Trip',
        where: null,
        measure: { kind: 'avg', field: 'km' },
        by: { field: 'day', bucket: 'week' },
        chart: 'line',
      },
      {
        id: 'by-state',
        title: 'By state',
        entity: 'Trip',
        where: 'urgent == true',
        measure: { kind: 'count' },
        by: { field: 'state', bucket: null },
        chart: 'pie',
      },
      {
        id: 'teams',
        title: 'By team',
        entity: 'Trip',
        where: null,
        measure: { kind: 'max', field: 'amount' },
        by: { field: 'team', bucket: null },
        chart: 'table',
      },
    ]);
    // a declared dashboard is in the default navigation; no dashboard is generated beside it
    expect(model.nav.map((n) => n.screen)).toContain('figures');
    expect(model.screens.filter((s) => s.kind === 'dashboard')).toHaveLength(1);
  });

  it('generates a dashboard only when the product asks for it, first in the navigation', () => {
    expect(compiled(ENTITIES).screens.some((s) => s.kind === 'dashboard')).toBe(false);
    expect(compiled(ENTITIES).product.dashboard).toBe(false);
    const model = compiled(`product: { name: Trips, dashboard: true }\n${ENTITIES}`);
    expect(model.product.dashboard).toBe(true);
    const generated = model.screens.find((s) => s.kind === 'dashboard')!;
    expect(generated).toMatchObject({ id: 'dashboard', path: '/dashboard', generated: true, roles: null });
    expect(generated.widgets).toEqual([
      {
        id: 'teams',
        title: 'Teams',
        entity: 'Team',
        where: null,
        measure: { kind: 'count' },
        by: null,
        chart: 'number',
      },
      {
        id: 'trips',
        title: 'Trips',
        entity: 'Trip',
        where: null,
        measure: { kind: 'count' },
        by: { field: 'state', bucket: null },
        chart: 'bar',
      },
    ]);
    expect(model.nav[0]).toEqual({ label: 'Dashboard', screen: 'dashboard', icon: null });
    // with a declared navigation too
    const declared = compiled(`product: { name: Trips, dashboard: true }\n${ENTITIES}nav: [trips]\n`);
    expect(declared.nav.map((n) => n.screen)).toEqual(['dashboard', 'trips']);
    // a spec that declares a dashboard gets no generated one
    const own = compiled(
      `product: { name: Trips, dashboard: true }\n${dashboard('{ title: All, entity: Trip }')}`,
    );
    expect(own.screens.filter((s) => s.kind === 'dashboard').map((s) => s.id)).toEqual(['figures']);
  });

  it('NF229: a measure that is not one, and a sum of text', () => {
    expectDiagnostic(dashboard('{ title: T, entity: Trip, measure: total }'), {
      code: 'NF229',
      line: widgetLine(1),
      column: 44,
      message: /`total` is not a measure/,
      hint: /`count` or one of `sum\(field\)`/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, measure: sum(title) }'), {
      code: 'NF229',
      line: widgetLine(1),
      column: 44,
      message: /cannot sum `title`: it holds string/,
      hint: /measure a number \(integer, decimal, money\)/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, measure: count(km) }'), {
      code: 'NF229',
      line: widgetLine(1),
      column: 44,
    });
  });

  it('NF302: an unknown field, with a suggestion', () => {
    expectDiagnostic(dashboard('{ title: T, entity: Trip, measure: sum(amout) }'), {
      code: 'NF302',
      line: widgetLine(1),
      column: 44,
      message: /`Trip` has no field `amout`/,
      hint: /did you mean `amount`\?/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: knd }'), {
      code: 'NF302',
      line: widgetLine(1),
      column: 39,
      hint: /did you mean `kind`\?/,
    });
  });

  it('NF301: a widget over an entity that is not declared', () => {
    expectDiagnostic(dashboard('{ title: T, entity: Tirp }'), {
      code: 'NF301',
      line: widgetLine(1),
      column: 29,
      hint: /did you mean `Trip`\?/,
    });
  });

  it('NF230: grouping by text, a list or a json field', () => {
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: notes }'), {
      code: 'NF230',
      line: widgetLine(1),
      column: 39,
      message: /cannot group by `notes`: it holds text/,
      hint: /an enum, the state, a single ref, a boolean, or a date/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: tags }'), {
      code: 'NF230',
      line: widgetLine(1),
      column: 39,
      message: /it holds a list/,
    });
  });

  it('NF231: a chart or bucket that does not fit the grouping', () => {
    expectDiagnostic(dashboard('{ title: T, entity: Trip, chart: pie }'), {
      code: 'NF231',
      line: widgetLine(1),
      column: 42,
      message: /a `pie` chart needs groups/,
      hint: /add `by:`/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: kind, chart: line }'), {
      code: 'NF231',
      line: widgetLine(1),
      column: 52,
      message: /a `line` chart draws a figure over time/,
      hint: /group by a date/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: kind, chart: number }'), {
      code: 'NF231',
      line: widgetLine(1),
      column: 52,
      message: /a `number` shows one figure/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: kind, bucket: week }'), {
      code: 'NF231',
      line: widgetLine(1),
      column: 53,
      message: /has a `bucket` but does not group by a date/,
    });
    expectDiagnostic(dashboard('{ title: T, entity: Trip, by: day, bucket: year }'), {
      code: 'NF211',
      line: widgetLine(1),
      column: 52,
      message: /`year` is not a date bucket/,
    });
  });

  it('NF232: a dashboard with an entity or no widgets, and widgets on a list', () => {
    expectDiagnostic(
      spec`
        entities:
          Trip: { fields: { title: string } }
        screens:
          figures: { kind: dashboard, entity: Trip, widgets: [{ title: T, entity: Trip }] }
      `,
      { code: 'NF232', line: 4, column: 31, hint: /move `entity:` into each widget/ },
    );
    expectDiagnostic(
      spec`
        entities:
          Trip: { fields: { title: string } }
        screens:
          trips: { entity: Trip, widgets: [{ title: T, entity: Trip }] }
      `,
      { code: 'NF232', line: 4, column: 26, message: /only a dashboard holds widgets/ },
    );
    expectDiagnostic(
      spec`
        entities:
          Trip: { fields: { title: string } }
        screens:
          figures: { kind: dashboard }
      `,
      { code: 'NF203', line: 4, column: 3, hint: /widgets:/ },
    );
  });

  it('NF327: two widgets with the same id', () => {
    expectDiagnostic(dashboard('{ title: Trips, entity: Trip }', '{ title: trips!, entity: Trip }'), {
      code: 'NF327',
      line: widgetLine(2),
      column: 18,
      message: /Two widgets of screen `figures` have the id `trips`/,
      hint: /an `id:` of its own/,
    });
  });

  it('NF405: a widget’s where that cannot run as SQL', () => {
    expectDiagnostic(dashboard(`{ title: T, entity: Trip, where: "title.matches('x')" }`), {
      code: 'NF405',
      line: widgetLine(1),
      column: 43,
      message: /The filter of widget `t` runs as SQL, but the method `matches` has no SQL translation/,
    });
  });
});
