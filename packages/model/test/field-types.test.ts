/**
 * The field-type table agrees with itself: what one column says, the others do not contradict, so
 * that the packages reading different columns treat a type the same way.
 */
import { describe, expect, it } from 'vitest';
import { FIELD_TYPES, FIELD_TYPE_INFO, FILTER_OPERATORS, isColor, normalizeColor } from '../src/index.js';

describe('the field-type table', () => {
  it.each(FIELD_TYPES)('describes %s consistently', (type) => {
    const info = FIELD_TYPE_INFO[type];
    expect(info, 'every type has an entry').toBeDefined();
    const hasBounds = info.constraints.includes('min') && info.constraints.includes('max');
    expect(info.bounds !== null, 'bounds have a format exactly when min and max apply').toBe(hasBounds);
    for (const key of info.requires) expect(info.constraints, 'a required key is accepted').toContain(key);
    expect(info.operators.every((op) => FILTER_OPERATORS.includes(op))).toBe(true);
    expect(info.filter === null, 'a list offers a filter exactly when the API accepts one').toBe(
      info.operators.length === 0,
    );
    if (info.operators.includes('contains')) expect(info.storage.encoding).toBe('text');
    if (info.search) expect(info.operators, 'a searched type can be filtered by text').toContain('contains');
    if (info.filter === 'range') expect(info.operators).toEqual(expect.arrayContaining(['gte', 'lte']));
    if (info.defaultMaxLength !== null) expect(info.constraints).toContain('maxLength');
    if (info.indexed || info.display)
      expect(info.sort, 'an indexed or title type can be sorted').not.toBeNull();
    expect(info.storage.sqlite === 'TEXT', 'text on one database is text on the other').toBe(
      info.storage.postgres === 'TEXT',
    );
  });
});

describe('colours', () => {
  it('are #rrggbb in either case, written in lower case', () => {
    expect(['#1e90ff', '#1E90FF', '#000000'].every(isColor)).toBe(true);
    expect(['1e90ff', '#fff', '#1e90ffaa', '#12345g', 'blue', ''].some(isColor)).toBe(false);
    expect(normalizeColor('#1E90FF')).toBe('#1e90ff');
    expect(new RegExp(FIELD_TYPE_INFO.color.json.pattern ?? '').test(normalizeColor('#ABCDEF'))).toBe(true);
  });
});
