/**
 * Decoding a column value takes a fast path for SQLite's integers: it must give exactly what the
 * exact path (text → bigint → `fromMinorUnits`) gives, which PostgreSQL's BIGINT strings still take.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromMinorUnits } from '@ninefold/model';
import { type StoredField, decodeValue, valueDecoder } from '../src/index.js';

const money = (scale: number): StoredField => ({ type: 'money', many: false, scale });

describe('valueDecoder', () => {
  it('decodes minor units from a number as from their text', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.maxSafeInteger(), fc.integer({ min: -1000, max: 1000 }), fc.constant(-0)),
        fc.integer({ min: 0, max: 6 }),
        (units, scale) => {
          const exact = fromMinorUnits(BigInt(units), scale);
          expect(valueDecoder(money(scale))(units)).toBe(exact);
          expect(decodeValue(money(scale), String(units), 'postgres')).toBe(exact);
          expect(decodeValue(money(scale), units, 'sqlite')).toBe(exact);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses what is not minor units, as before', () => {
    expect(() => valueDecoder(money(2))(12.5)).toThrow(/not minor units/);
    expect(() => valueDecoder(money(2))('12.5')).toThrow(/not minor units/);
    // beyond exact integers, the number's text, as before
    expect(valueDecoder(money(2))(2 ** 60)).toBe(fromMinorUnits(BigInt(String(2 ** 60)), 2));
  });

  it('decodes every type as decodeValue does, NULL as null', () => {
    const fields: StoredField[] = [
      { type: 'integer', many: false, scale: null },
      { type: 'boolean', many: false, scale: null },
      { type: 'datetime', many: false, scale: null },
      { type: 'string', many: false, scale: null },
      { type: 'enum', many: true, scale: null },
      { type: 'json', many: false, scale: null },
    ];
    const raws = [null, undefined, 0, 1, 7n, '12', 't', 'true', true, '["a"]', new Date(0)];
    for (const field of fields) {
      const decode = valueDecoder(field);
      for (const raw of raws) {
        if (field.many || field.type === 'json') {
          if (typeof raw === 'string' && raw !== '["a"]' && raw !== '12') continue;
        }
        expect(decode(raw)).toEqual(decodeValue(field, raw, 'sqlite'));
      }
      expect(decode(null)).toBeNull();
    }
  });
});
