import { describe, expect, it } from 'vitest';
import { formatMessage } from '../src/index.js';
import { CLAIMS, model } from './fixtures.js';

const m = model(CLAIMS);

describe('formatMessage', () => {
  it('formats built-in messages with plurals', () => {
    expect(formatMessage(m, 'E_TOO_LONG', { field: 'Title', max: 120 }, 'en')).toBe(
      'Title must be at most 120 characters long.',
    );
    expect(formatMessage(m, 'E_TOO_SHORT', { field: 'Code', min: 1 }, 'en')).toBe(
      'Code must be at least 1 character long.',
    );
    expect(formatMessage(m, 'E_TOO_SMALL', { field: 'Amount', min: '0.01' }, 'en')).toBe(
      'Amount must be at least 0.01.',
    );
  });

  it('offers the constants as arguments, formatted for the locale', () => {
    expect(formatMessage(m, 'E_RECEIPT_REQUIRED', {}, 'en')).toBe('A receipt is required above €25.00.');
    expect(formatMessage(m, 'E_RECEIPT_REQUIRED', {}, 'de')).toMatch(
      /^A receipt is required above 25,00\s€\.$/,
    );
    expect(formatMessage(m, 'E_FEE_TOO_HIGH', { fee: '99.51' }, 'en')).toBe('The fee 99.51 is above 99.5.');
  });

  it('never throws: unknown codes, missing arguments and bad locales', () => {
    expect(formatMessage(m, 'E_NOPE', { correlationId: 'abc' }, 'en')).toBe(
      'Something went wrong on our side. Reference: abc.',
    );
    expect(formatMessage(m, 'E_TOO_LONG', {}, 'en')).toBe(m.errors['E_TOO_LONG']!.message);
    expect(formatMessage(m, 'E_FORBIDDEN', {}, 'not a locale!')).toBe('You are not allowed to do this.');
  });
});
