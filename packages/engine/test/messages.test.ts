import { compile } from '@ninefold/language';
import { IntlMessageFormat } from 'intl-messageformat';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatMessage } from '../src/index.js';
import { type MessageValues, renderMessage, simpleMessage } from '../src/message-text.js';
import { compileMessage } from '../src/messages.js';
import { CLAIMS, model } from './fixtures.js';

const m = model(CLAIMS);
const EXAMPLES = join(import.meta.dirname, '../../../examples');

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

describe('simple templates, filled in without the ICU parser', () => {
  const icu = (template: string, values: MessageValues, locale = 'en') => {
    const out = new IntlMessageFormat(template, locale).format(values);
    return Array.isArray(out) ? out.join('') : String(out);
  };
  const VALUES: MessageValues[] = [
    { field: 'Title', max: 120, min: 0, amount: '12.50', flag: true, off: false, empty: '' },
    { field: 'Ünïcødé «titre»', max: 1234567.5, min: -3, amount: '0', flag: false, off: true, empty: 'x' },
    { field: '', max: 0, min: 1e21, amount: '{not an argument}', flag: true, off: false, empty: '' },
  ];
  const HAND_WRITTEN = [
    'Plain text, with no argument.',
    '{field} is required.',
    '{ field } must be at most {max} long; at least { min }.',
    "The claim's {field} can't be {amount}.",
    'Yes/no: {flag} {off} {empty}.',
    'Braces {field}{max}{min} back to back, and # a hash.',
  ];

  it('writes every simple template of every example exactly as intl-messageformat does', () => {
    const templates = new Set(HAND_WRITTEN);
    for (const file of readdirSync(EXAMPLES)) {
      const compiled = compile(readFileSync(join(EXAMPLES, file), 'utf8'), { file });
      if (!compiled.ok) continue;
      for (const def of Object.values(compiled.model.errors)) templates.add(def.message);
    }
    // a missing argument throws on both sides (and the message falls back to its template)
    const outcome = (write: () => string | undefined) => {
      try {
        return write();
      } catch {
        return 'missing argument';
      }
    };
    let simple = 0;
    for (const template of templates)
      for (const values of VALUES) {
        const all = { ...values, RECEIPT_THRESHOLD: 25, correlationId: 'abc' };
        const ours = outcome(() => simpleMessage(template, all));
        if (ours === undefined) continue;
        simple += 1;
        expect(ours, template).toBe(outcome(() => icu(template, all)));
      }
    expect(simple).toBeGreaterThan(30); // the built-in catalogue is mostly simple
  });

  it('leaves to ICU what only ICU can write: plurals, formats, quoting and tags', () => {
    for (const template of [
      '{n, plural, one {# item} other {# items}}',
      'Above {limit, number, ::currency/EUR}.',
      "Quoted '{braces}' stay as written.",
      "Doubled '' apostrophe.",
      'A <b>tag</b>.',
      "Ends with an apostrophe'",
      '{unbalanced',
    ])
      expect(simpleMessage(template, { n: 1, limit: 2, braces: 'x' }), template).toBeUndefined();
  });

  it('without a compiler, renders simple templates and shows the others as written', () => {
    expect(renderMessage(m, 'E_REQUIRED', { field: 'Title' }, 'en', null)).toBe(
      formatMessage(m, 'E_REQUIRED', { field: 'Title' }, 'en'),
    );
    const template = m.errors['E_TOO_LONG']?.message ?? '';
    expect(renderMessage(m, 'E_TOO_LONG', { field: 'Title', max: 120 }, 'en', null)).toBe(template);
    expect(renderMessage(m, 'E_TOO_LONG', { field: 'Title', max: 120 }, 'en', compileMessage)).toBe(
      'Title must be at most 120 characters long.',
    );
  });

  it('falls back to the template when an argument is missing, as ICU does', () => {
    expect(renderMessage(m, 'E_REQUIRED', {}, 'en', null)).toBe(m.errors['E_REQUIRED']?.message);
    expect(formatMessage(m, 'E_REQUIRED', {}, 'en')).toBe(m.errors['E_REQUIRED']?.message);
  });
});
