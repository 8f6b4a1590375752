import { describe, expect, it } from 'vitest';
import {
  dateTimeFromLocalText,
  dateTimeToLocalText,
  decimalFromText,
  decimalToText,
  integerFromText,
  jsonFromText,
  padToScale,
  timeFromText,
  timeToText,
} from '../src/fields/input-values';

describe('what an input’s text means', () => {
  it('reads decimals exactly in the locale’s notation, and refuses what it cannot read for sure', () => {
    expect(decimalFromText('12.5', 'en-GB')).toBe('12.5');
    expect(decimalFromText(' 1,234.50 ', 'en-GB')).toBe('1234.50');
    expect(decimalFromText('1.234,5', 'de-DE')).toBe('1234.5');
    expect(decimalFromText('12,50', 'de-DE')).toBe('12.50');
    expect(decimalFromText('1’250.75', 'de-CH')).toBe('1250.75');
    expect(decimalFromText('0.1000000000000000055511151231257827', 'en-GB')).toBe(
      '0.1000000000000000055511151231257827',
    );
    // a comma in English is not a decimal mark: "1,5" stays as typed for the engine to refuse
    expect(decimalFromText('1,5', 'en-GB')).toBe('1,5');
    expect(decimalFromText('12.3.4', 'en-GB')).toBe('12.3.4');
    expect(decimalFromText('', 'en-GB')).toBeNull();
    expect(decimalToText('1234.50', 'de-DE')).toBe('1234,50');
    expect(decimalToText('1234.50', 'en-GB')).toBe('1234.50');
    expect(padToScale('12.5', 2)).toBe('12.50');
    expect(padToScale('12', 2)).toBe('12.00');
    expect(padToScale('12.345', 2)).toBe('12.345');
    // regression: trailing zeros already written are digits too ("10.00" stayed "10.00.00" once)
    expect(padToScale('10.00', 2)).toBe('10.00');
    expect(padToScale('10.0', 2)).toBe('10.00');
    expect(padToScale('0.10', 6)).toBe('0.100000');
  });

  it('reads whole numbers, and leaves anything else as text', () => {
    expect(integerFromText('42')).toBe(42);
    expect(integerFromText('-7')).toBe(-7);
    expect(integerFromText('1.5')).toBe('1.5');
    expect(integerFromText('')).toBeNull();
  });

  it('gives times with seconds and instants in UTC, and shows them back as typed', () => {
    expect(timeFromText('09:30')).toBe('09:30:00');
    expect(timeFromText('09:30:15')).toBe('09:30:15');
    expect(timeFromText('')).toBeNull();
    expect(timeToText('09:30:00')).toBe('09:30');
    expect(timeToText('09:30:15')).toBe('09:30:15');
    const instant = dateTimeFromLocalText('2026-03-02T08:30');
    expect(instant).toBe(new Date(2026, 2, 2, 8, 30).toISOString());
    expect(dateTimeToLocalText(instant ?? '')).toBe('2026-03-02T08:30');
    expect(dateTimeFromLocalText('')).toBeNull();
  });

  it('parses JSON, and says when it is not', () => {
    expect(jsonFromText('{"a": [1, 2]}')).toEqual({ ok: true, value: { a: [1, 2] } });
    expect(jsonFromText('  ')).toEqual({ ok: true, value: null });
    expect(jsonFromText('{"a": ')).toEqual({ ok: false });
  });
});
