/**
 * A row decodes into a record through a function compiled per table (`rowDecoder`): it must give
 * exactly what decoding column by column gives, keys in the table's order, NULLs as null.
 */
import { type Value } from '@ninefold/model';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeRow, entityTable } from '../src/resources/records.js';
import { specModel } from '@ninefold/testkit';

const SPEC = `
entities:
  Trip:
    fields:
      title:    { type: string, required: true }
      notes:    { type: text }
      kind:     { type: enum, values: [a, b] }
      tags:     { type: enum, values: [x, y], many: true }
      cost:     { type: money, currency: EUR }
      rate:     { type: decimal, scale: 3 }
      nights:   { type: integer }
      paid:     { type: boolean }
      leaves:   { type: datetime }
      starts:   { type: date }
`;

describe('decodeRow', () => {
  const model = specModel(SPEC);
  const info = entityTable(model, model.entities['Trip']!);

  /** What decoding column by column gives. */
  const byColumn = (row: readonly unknown[], offset: number) => {
    const record: Record<string, Value> = {};
    info.decoders.forEach(([name, decode], i) => {
      record[name] = decode(row[offset + i]);
    });
    return record;
  };

  const cell = fc.oneof(
    fc.constant(null),
    fc.integer({ min: -1_000_000, max: 1_000_000 }),
    fc.constantFrom('x', 't', '2026-01-02', '["x","y"]', '12'),
  );

  it('gives what decoding column by column gives, keys in the table order', () => {
    fc.assert(
      fc.property(fc.array(cell, { minLength: 20, maxLength: 20 }), fc.nat({ max: 5 }), (row, offset) => {
        let expected: Record<string, Value> | Error;
        try {
          expected = byColumn(row, offset);
        } catch (error) {
          expected = error as Error;
        }
        if (expected instanceof Error) {
          expect(() => decodeRow(info, row, offset)).toThrow(expected.message);
          return;
        }
        const decoded = decodeRow(info, row, offset);
        expect(decoded).toEqual(expected);
        expect(Object.keys(decoded)).toEqual(info.columns);
      }),
      { numRuns: 500 },
    );
  });

  it('decodes an all-NULL row to nulls, and a full one by type', () => {
    const nulls = decodeRow(info, new Array(info.columns.length).fill(null));
    expect(Object.values(nulls).every((v) => v === null)).toBe(true);
    const row = info.columns.map(
      (c) => ({ version: 3, cost: 1250, rate: 1500, nights: 2, paid: 1, tags: '["x"]' })[c] ?? `${c}!`,
    );
    expect(decodeRow(info, ['another column', ...row], 1)).toMatchObject({
      id: 'id!',
      version: 3,
      title: 'title!',
      cost: '12.50',
      rate: '1.500',
      nights: 2,
      paid: true,
      tags: ['x'],
    });
  });
});
