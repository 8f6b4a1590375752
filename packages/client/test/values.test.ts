import { describe, expect, it } from 'vitest';
import { formatDate, formatDecimal, formatInteger } from '../src/format/values';

// locales writing Latin digits: the digits are always the value's own
const LOCALES = ['en-GB', 'de-CH', 'fr-FR', 'de-DE', 'ja-JP', 'en-IN', 'es-ES', 'pl-PL'];

describe('formatDecimal', () => {
  it('writes what Intl writes, for values a double holds exactly', () => {
    for (const locale of LOCALES)
      for (const value of ['0.5', '12.50', '-12.50', '1234.5', '-987654.25', '1000000', '7'])
        for (const currency of [null, 'EUR', 'CHF', 'JPY']) {
          const digits = value.split('.')[1]?.length ?? 0;
          const intl = new Intl.NumberFormat(locale, {
            minimumFractionDigits: digits,
            maximumFractionDigits: digits,
            ...(currency === null ? {} : { style: 'currency', currency }),
          }).format(Number(value));
          expect(formatDecimal(value, locale, currency), `${value} ${currency} in ${locale}`).toBe(intl);
        }
  });

  it('keeps every digit of a value no double holds', () => {
    expect(formatDecimal('12345678901234567.89', 'en-GB')).toBe('12,345,678,901,234,567.89');
    expect(formatDecimal('-0.000000000000000001', 'de-CH', 'CHF')).toMatch(/0\.000000000000000001/);
  });

  it('remembers each pattern apart: digits, currency and sign', () => {
    expect(formatDecimal('1.5', 'en-GB', 'EUR')).toBe('€1.5');
    expect(formatDecimal('1.50', 'en-GB', 'EUR')).toBe('€1.50');
    expect(formatDecimal('-1.50', 'en-GB', 'EUR')).toBe('-€1.50');
    expect(formatDecimal('1.50', 'en-GB', 'USD')).toBe('US$1.50');
    expect(formatDecimal('1.50', 'en-GB')).toBe('1.50');
  });
});

describe('formatInteger and formatDate', () => {
  it('write the locale’s notation, dates never shifted by the time zone', () => {
    expect(formatInteger(10_000, 'en-GB')).toBe('10,000');
    expect(formatInteger(10_000, 'de-CH')).toBe(new Intl.NumberFormat('de-CH').format(10_000));
    expect(formatDate('2026-11-23', 'en-GB')).toBe('23 Nov 2026');
    expect(formatDate('not a date', 'en-GB')).toBe('not a date');
  });
});
