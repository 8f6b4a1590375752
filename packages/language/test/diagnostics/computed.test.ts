import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

/** An order with lines; `extra` goes among the order's fields. */
const orders = (extra: string, line = '') => spec`
  entities:
    Order:
      fields:
        number: string
        lines: { type: children, entity: OrderLine, via: order }
        ${extra}
    OrderLine:
      fields:
        order: { type: ref, to: Order, required: true }
        amount: { type: money, currency: EUR }
        ${line}
`;

describe('computed values and child relations', () => {
  it('compiles a child relation into Entity.children and a computed field with its names', () => {
    const result = compile(
      orders('total: { type: money, currency: EUR, computed: "sum(lines.map(l, l.amount))" }'),
      { file: 'spec.yaml' },
    );
    expect(result.ok, result.ok ? '' : listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    const order = result.model.entities['Order']!;
    expect(order.children).toEqual({
      lines: { name: 'lines', label: 'Lines', entity: 'OrderLine', via: 'order' },
    });
    expect(order.fields['lines']).toBeUndefined();
    expect(order.fields['total']).toMatchObject({
      readonly: true,
      computed: { source: 'sum(lines.map(l, l.amount))', names: ['lines'] },
    });
  });

  it('type-checks size, exists, all, filter, max, min and avg over children', () => {
    const fields = [
      'n: { type: integer, computed: "size(lines)" }',
      'big: { type: boolean, computed: "lines.exists(l, l.amount > 100.0) && lines.all(l, has(l.amount))" }',
      'top: { type: money, currency: EUR, computed: "max(lines.map(l, l.amount))" }',
      'low: { type: money, currency: EUR, computed: "min(lines.filter(l, l.amount > 0.0).map(l, l.amount))" }',
      'mean: { type: decimal, computed: "avg(lines.map(l, l.amount))" }',
    ].join('\n        ');
    const result = compile(orders(fields), { file: 'spec.yaml' });
    expect(result.ok, result.ok ? '' : listed(result.diagnostics)).toBe(true);
  });

  it('NF403: a computed expression of the wrong type for its field', () => {
    expectDiagnostic(orders('n: { type: integer, computed: "sum(lines.map(l, l.amount))" }'), {
      code: 'NF403',
      line: 6,
      column: 38,
      message: /computed value of `Order.n` must be a whole number, but it is a number/,
    });
  });

  it('NF402: a child relation is not in scope outside computed values', () => {
    const src = `${orders('n: { type: integer, computed: "size(lines)" }')}rules:\n  - { id: r, entity: Order, assert: "size(lines) > 0", error: E_VALIDATION }\n`;
    expectDiagnostic(src, {
      code: 'NF402',
      line: 13,
      column: 43,
      message: /uses `lines`, which is not defined here/,
    });
  });

  it('NF225: a computed field with a default', () => {
    expectDiagnostic(orders('n: { type: integer, default: 1, computed: "size(lines)" }'), {
      code: 'NF225',
      line: 6,
      column: 27,
      message: /is computed, so it cannot also have a default/,
      hint: /remove `default`/,
    });
  });

  it('NF225: a required computed field', () => {
    expectDiagnostic(orders('n: { type: integer, required: true, computed: "size(lines)" }'), {
      code: 'NF225',
      line: 6,
      column: 27,
      message: /it cannot be required/,
      hint: /write a rule such as `has\(total\)`/,
    });
  });

  it('NF225: a computed field said not to be read-only', () => {
    expectDiagnostic(orders('n: { type: integer, readonly: false, computed: "size(lines)" }'), {
      code: 'NF225',
      line: 6,
      column: 27,
      message: /always read-only/,
      hint: /remove `readonly: false`/,
    });
  });

  it('NF226: a computed list, ref or json', () => {
    expectDiagnostic(orders('tags: { type: enum, values: [a, b], many: true, computed: "[\'a\']" }'), {
      code: 'NF226',
      line: 6,
      column: 55,
      message: /`Order.tags` is a list, which cannot be computed/,
      hint: /compute a number, money, text/,
    });
  });

  it('NF325: a via that is not a ref of the child to the parent, naming the refs that would do', () => {
    expectDiagnostic(
      spec`
        entities:
          Order:
            fields:
              lines: { type: children, entity: OrderLine, via: amount }
          OrderLine:
            fields:
              order: { type: ref, to: Order }
              amount: integer
      `,
      {
        code: 'NF325',
        line: 4,
        column: 56,
        message:
          /`via` of `Order.lines` must be a single ref of `OrderLine` to `Order`; `OrderLine.amount` is a integer/,
        hint: /use `order`/,
      },
    );
  });

  it('NF325: a child without any ref to the parent is told to add one', () => {
    expectDiagnostic(
      spec`
        entities:
          Order:
            fields:
              lines: { type: children, entity: Note, via: order }
          Note: { fields: { text: string } }
      `,
      {
        code: 'NF325',
        line: 4,
        column: 51,
        message: /`Note` has no field `order`/,
        hint: /add `order: \{ type: ref, to: Order \}` to `Note`/,
      },
    );
  });

  it('NF301: a child relation to an entity that is not declared', () => {
    expectDiagnostic(
      spec`
        entities:
          Order:
            fields:
              lines: { type: children, entity: OrderLines, via: order }
          OrderLine: { fields: { order: { type: ref, to: Order } } }
      `,
      { code: 'NF301', line: 4, column: 40, hint: /did you mean `OrderLine`\?/ },
    );
  });

  it('NF326: computed values that read each other in a cycle', () => {
    expectDiagnostic(
      orders('a: { type: integer, computed: "b + 1" }\n        b: { type: integer, computed: "a + 1" }'),
      {
        code: 'NF326',
        line: 6,
        column: 27,
        message: /Computed values read each other in a cycle: `Order.a` → `Order.b` → `Order.a`/,
      },
    );
  });

  it('NF326: a cycle through a child relation', () => {
    expectDiagnostic(
      spec`
        entities:
          Order:
            fields:
              first: { type: ref, to: OrderLine }
              lines: { type: children, entity: OrderLine, via: order }
              n: { type: integer, computed: "sum(lines.map(l, l.m))" }
          OrderLine:
            fields:
              order: { type: ref, to: Order }
              orders: { type: children, entity: Order, via: first }
              m: { type: integer, computed: "sum(orders.map(o, o.n))" }
      `,
      { code: 'NF326', line: 6, column: 27, message: /`Order.n` → `OrderLine.m` → `Order.n`/ },
    );
  });

  it('NF227: a transition that sets a computed field', () => {
    const src = `${orders('n: { type: integer, computed: "size(lines)" }')}states:
  Order:
    initial: draft
    states: { draft: {}, placed: {} }
    transitions:
      place: { from: draft, to: placed, set: { n: "0" } }
`;
    expectDiagnostic(src, {
      code: 'NF227',
      line: 6,
      column: 27,
      message: /`Order.n` is computed, but transition `place` sets it/,
      hint: /remove `n` from the `set` of `place`/,
    });
  });

  it('NF407: a computed value that reads what changes without a write', () => {
    expectDiagnostic(orders('mine: { type: boolean, computed: "user.id == number" }'), {
      code: 'NF407',
      line: 6,
      column: 40,
      message: /reads `user`, which changes without any write/,
      hint: /compare with `now` or `user` in a rule/,
    });
  });
});
