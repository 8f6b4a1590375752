/**
 * The `color` field type through the engine: its check and normal form, its default, its storage
 * and its use in expressions and SQL filters. The type exists to prove the field-type table: these
 * fail if any of its parts is missing.
 */
import { describe, expect, it } from 'vitest';
import {
  columnType,
  decodeValue,
  encodeValue,
  formatMessage,
  toSqlFilter,
  validateRecord,
} from '../src/index.js';
import { NOW, alice, model } from './fixtures.js';

const m = model(`
product: { name: Labels }
entities:
  Label:
    fields:
      name:  { type: string, required: true }
      color: { type: color, required: true, unique: true }
      background: { type: color, default: '#FFFFFF' }
rules:
  - id: not-black
    entity: Label
    assert: color != '#000000'
    error: E_VALIDATION
    fields: [color]
`);
const label = m.entities['Label']!;
const create = (input: Record<string, unknown>) =>
  validateRecord(m, 'Label', { name: 'Urgent', ...input } as never, {
    operation: 'create',
    user: alice,
    now: NOW,
  });

describe('a color field', () => {
  it('takes a hex colour #rrggbb in either case and keeps it in lower case', () => {
    const r = create({ color: '#1E90FF' });
    expect(r.ok && r.record['color']).toBe('#1e90ff');
  });

  it.each(['blue', '#fff', '#1e90f', '#1e90ffa', '#12345g', '1e90ff', 'rgb(0, 0, 0)'])(
    'refuses %j with E_FORMAT, saying what a colour looks like',
    (value) => {
      const r = create({ color: value });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.errors).toEqual([
        {
          code: 'E_FORMAT',
          field: 'color',
          params: { field: 'Color', value, expected: 'a colour like #1e90ff' },
        },
      ]);
      expect(formatMessage(m, r.errors[0]!.code, r.errors[0]!.params)).toBe(
        'Color must be a colour like #1e90ff.',
      );
    },
  );

  it('refuses a value that is not text with E_TYPE', () => {
    const r = create({ color: 0x1e90ff });
    expect(r.ok ? [] : r.errors.map((e) => `${e.code}:${e.field}`)).toEqual(['E_TYPE:color']);
  });

  it('takes its default as written in the spec, in lower case', () => {
    expect(label.fields['background']?.default).toEqual({ value: '#ffffff' });
  });

  it('is a string in expressions', () => {
    const r = create({ color: '#000000' });
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['E_VALIDATION']);
  });

  it('is stored as text on both databases', () => {
    const field = label.fields['color']!;
    for (const dialect of ['sqlite', 'postgres'] as const) {
      expect(columnType(field, dialect)).toBe('TEXT');
      expect(encodeValue(field, '#1e90ff', dialect)).toBe('#1e90ff');
      expect(decodeValue(field, '#1e90ff', dialect)).toBe('#1e90ff');
    }
  });

  it('is compared in SQL filters as text', () => {
    expect(
      toSqlFilter(m, 'Label', "color == '#1e90ff'", { user: alice, now: NOW, dialect: 'sqlite' }),
    ).toEqual({
      sql: '("color" = ?)',
      params: ['#1e90ff'],
    });
  });
});
