/**
 * A format's message says the rule the check applies (decision 0026): a web address may start with
 * http:// or https://, a phone number has at least five digits, a text's length counts characters
 * (code points), so an emoji is one, and a list's counts items.
 */
import { describe, expect, it } from 'vitest';
import { formatMessage, validateRecord } from '../src/index.js';
import { NOW, alice, model } from './fixtures.js';

const m = model(`
product: { name: Contacts }
entities:
  Contact:
    fields:
      name: { type: string, maxLength: 10 }
      website: url
      phone: phone
      topics: { type: enum, many: true, values: [sales, support, billing, legal], minLength: 2, maxLength: 3 }
`);

/** The messages of a contact's errors, or [] when it is valid. */
const said = (input: Record<string, unknown>) => {
  const r = validateRecord(m, 'Contact', input as never, { operation: 'create', user: alice, now: NOW });
  return r.ok ? [] : r.errors.map((e) => formatMessage(m, e.code, e.params));
};

describe('what a format accepts is what its message says', () => {
  it.each(['https://example.com', 'http://example.com/a?b=c', 'HTTPS://EXAMPLE.COM'])(
    'a web address %j starting with http:// or https:// is taken',
    (website) => expect(said({ website })).toEqual([]),
  );

  it.each(['ftp://example.com', 'example.com', 'https://', 'mailto:a@example.com'])(
    '%j is refused, saying both schemes',
    (website) =>
      expect(said({ website })).toEqual(['Website must be a web address starting with http:// or https://.']),
  );

  it.each(['+44 20 7946 0958', '(020) 7946 0958', '020-7946.0958', '12345', '+1 (555) 010-9999'])(
    'a phone number %j with at least five digits is taken',
    (phone) => expect(said({ phone })).toEqual([]),
  );

  it.each(['1234', '+1 23 4', 'call me', '12345 ext', ' 12345', '--12345'])(
    '%j is refused, saying how many digits a phone number needs',
    (phone) =>
      expect(said({ phone })).toEqual([
        'Phone must be a phone number of at least 5 digits, like +44 20 7946 0958.',
      ]),
  );

  it('counts an emoji as one character, as the message says', () => {
    expect(said({ name: '😀'.repeat(10) })).toEqual([]);
    expect(said({ name: '😀'.repeat(11) })).toEqual(['Name must be at most 10 characters long.']);
    expect(said({ name: 'é'.repeat(10) })).toEqual([]);
  });

  it('counts a list’s items, and says items', () => {
    expect(said({ topics: ['sales', 'legal'] })).toEqual([]);
    expect(said({ topics: ['sales'] })).toEqual(['Topics must have at least 2 items.']);
    expect(said({ topics: ['sales', 'support', 'billing', 'legal'] })).toEqual([
      'Topics must have at most 3 items.',
    ]);
  });
});
