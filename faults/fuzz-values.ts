/**
 * What the fuzz sends (faults/fuzz.faults.ts), as fast-check arbitraries: for a field, a mix of
 * valid values, its boundaries (min and max and one past them, maxLength and one past it, empty,
 * blank), values of the wrong JSON type, hostile text (emoji, right-to-left, combining marks, huge
 * and NaN-like numbers), nesting a few levels deep, and null; for a write, bodies with missing and
 * unknown keys and bodies that are not objects at all.
 *
 * The inputs of issue 14's hostile-input findings are in `HOSTILE`, each naming its finding: they
 * stay in the mix so that what was fixed once stays fixed.
 */
import { type Field, type Value } from '@ninefold/model';
import fc from 'fast-check';

/** Nesting `depth` levels deep: arrays in objects in arrays… */
export function nested(depth: number): Value {
  let value: Value = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { deeper: value };
  return value;
}

/** Inputs of issue 14's hostile-input findings, each of which once answered a 5xx or stored a wrong value. */
export const HOSTILE = {
  /** Lone UTF-16 surrogates in text: not valid Unicode, refused by PostgreSQL's UTF-8 (now E_FORMAT). */
  loneSurrogates: ['\uD800', 'a\uDFFFb', '\uDBFF\uDBFF', 'x\uD83D'],
  /** NUL in text and ids: PostgreSQL refuses it in a text column (now E_FORMAT, or 404 as an id). */
  nul: ['\u0000', 'a\u0000b', 'nul\u0000'],
  /**
   * Nesting far past the server's bound of 64 levels: a recursive walk ran out of stack (now
   * E_BAD_REQUEST). A thousand levels, as the fuzz's own JSON.stringify of a whole body recurses too;
   * the server's tests send 100,000 (packages/server/test/hostile-input.test.ts).
   */
  deepNesting: [nested(1_000)],
} satisfies Record<string, readonly Value[]>;

/** Every input of `HOSTILE`. */
export const HOSTILE_STRINGS: readonly Value[] = Object.values(HOSTILE).flat();

/** Text from all of Unicode, graphemes or raw code points (lone surrogates among them). */
const anyText = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/** Text people really type, and text made to trip a length or a comparison. */
const TRICKY_TEXT = [
  '',
  ' ',
  '   \t\n ',
  '\u00a0\u2003',
  '😀',
  '👩‍👩‍👧‍👦 family',
  '🇨🇭🇫🇷',
  'e\u0301\u0301\u0301',
  'مرحبا بالعالم',
  '\u202Eevil\u202C',
  'שלום',
  '日本語のテキスト',
  "'); DROP TABLE tickets; --",
  '<script>alert(1)</script>',
  '${7*7}{{7*7}}',
  '%s%n%x',
  '\\',
  '"',
  'null',
  'undefined',
  'NaN',
  'Infinity',
  '-Infinity',
  '1e309',
  '-0',
  '0x1F',
  '9'.repeat(40),
  '1'.repeat(20) + '.' + '9'.repeat(20),
];

/** Values of every JSON type but the field's own, more or less. */
const wrongType: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.boolean(),
  anyText,
  fc.constant({}),
  fc.constant([]),
  fc.array(fc.oneof(fc.integer(), anyText), { maxLength: 4 }),
  fc.dictionary(anyText, fc.oneof(fc.integer(), anyText, fc.boolean()), { maxKeys: 3 }),
);

/** Nesting a few levels deep (never thousands: that is `HOSTILE.deepNesting`). */
const shallowNesting = fc.integer({ min: 1, max: 8 }).map(nested);

const num = (bound: Field['min']) => (bound === null ? null : Number(bound.value));

/** Boundary values of a field's type and constraints. */
function boundaries(field: Field): unknown[] {
  const out: unknown[] = [null, ...TRICKY_TEXT];
  const min = num(field.min);
  const max = num(field.max);
  const minLength = num(field.minLength);
  const maxLength = num(field.maxLength);
  for (const length of [minLength, maxLength]) {
    if (length === null) continue;
    for (const n of [length - 1, length, length + 1].filter((n) => n >= 0 && n <= 25_000)) {
      out.push('x'.repeat(n), '😀'.repeat(n), 'e\u0301'.repeat(n), ' '.repeat(n));
      if (field.many)
        out.push(Array.from({ length: n }, (_, i) => field.values?.[i % field.values.length] ?? 'x'));
    }
  }
  switch (field.type) {
    case 'integer':
    case 'decimal':
    case 'money':
      for (const bound of [min, max]) {
        if (bound === null) continue;
        out.push(
          bound,
          bound - 1,
          bound + 1,
          bound - 0.001,
          bound + 0.001,
          String(bound),
          `${String(bound)}.000`,
        );
      }
      out.push(
        0,
        -0,
        -1,
        0.5,
        1e308,
        -1e308,
        2 ** 53 + 1,
        2 ** 63,
        1e-7,
        '12.5',
        '12.345',
        '1.0000001',
        '-0.00',
      );
      out.push('12,50', ' 12 ', '+5', '.5', '5.', '1e3', Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER);
      break;
    case 'date':
      out.push(
        '2026-02-29',
        '2024-02-29',
        '2024-13-01',
        '2024-00-10',
        '0000-01-01',
        '9999-12-31',
        '2026-11-25T10:00:00Z',
      );
      if (field.min !== null) out.push(String(field.min.value));
      if (field.max !== null) out.push(String(field.max.value));
      break;
    case 'time':
      out.push('00:00', '23:59', '24:00', '23:59:60', '7:00', '07:00:00.5', '12:60', '-01:00');
      if (field.min !== null) out.push(String(field.min.value));
      if (field.max !== null) out.push(String(field.max.value));
      break;
    case 'datetime':
      out.push(
        '2026-11-25T10:00:00Z',
        '2026-11-25T10:00:00+14:00',
        '2026-11-25 10:00',
        '9999-12-31T23:59:59.999Z',
      );
      out.push(
        '+275760-09-13T00:00:00.000Z',
        '1970-01-01T00:00:00.000Z',
        '2026-02-30T00:00:00Z',
        1_700_000_000_000,
      );
      break;
    case 'boolean':
      out.push(true, false, 'true', 'false', 0, 1, 'yes');
      break;
    case 'enum':
      for (const value of field.values ?? [])
        out.push(value, value.toUpperCase(), ` ${value}`, [value, value]);
      break;
    case 'ref':
      out.push('00000000-0000-0000-0000-000000000000', '../users', '1', 1, 'x'.repeat(300), ["'; --"]);
      break;
    case 'email':
      out.push(
        'a@b',
        '@',
        'a@b.c',
        'A@EXAMPLE.COM',
        `${'a'.repeat(300)}@example.com`,
        'ü@exämple.com',
        'a b@c.d',
      );
      break;
    case 'url':
      out.push(
        'javascript:alert(1)',
        'http://',
        'https://exämple.com/ü',
        'ftp://x',
        '//x',
        'http://[::1]:99999',
      );
      break;
    case 'phone':
      out.push('+41 44 000 00 00', '+1-555-0100', 'abc', '+', '0'.repeat(60));
      break;
    case 'color':
      out.push('#fff', '#FFFFFF', '#GGGGGG', 'red', '#12345', 'rgb(0,0,0)');
      break;
    case 'json':
      out.push({ a: [1, { b: 'c' }] }, [1, 2, 3], 'text', 42, { '': null, '😀': ['\u202E'] });
      break;
    default:
      break;
  }
  return out;
}

/**
 * The values the fuzz sends for a field: valid ones (`valid`, may be empty) and every kind of
 * wrong one, the hostile inputs of `HOSTILE` among them.
 */
export function fieldValue(field: Field, valid: readonly Value[]): fc.Arbitrary<unknown> {
  const choices: fc.WeightedArbitrary<unknown>[] = [
    { weight: 3, arbitrary: fc.constantFrom(...boundaries(field)) },
    { weight: 2, arbitrary: wrongType },
    { weight: 1, arbitrary: anyText },
    { weight: 1, arbitrary: shallowNesting },
  ];
  if (valid.length > 0) choices.push({ weight: 4, arbitrary: fc.constantFrom(...valid) });
  choices.push({ weight: 1, arbitrary: fc.constantFrom(...HOSTILE_STRINGS) });
  return fc.oneof(...choices);
}

/** Names no entity has: unknown keys, system fields, and names made to look like code. */
export const unknownKey: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    'id',
    'version',
    'createdBy',
    'state',
    '__proto__',
    'constructor',
    'toString',
    '',
    ' ',
    '😀',
  ),
  fc.string({ maxLength: 12 }),
);

/** Bodies that are not an object: the shape itself is wrong. */
export const notAnObject: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.constant([]),
  fc.array(fc.integer(), { maxLength: 3 }),
  anyText,
  fc.integer(),
  fc.boolean(),
  shallowNesting,
);

/** Text that is not JSON, sent as application/json. */
export const notJson: fc.Arbitrary<string> = fc.constantFrom(
  '{',
  '{"a":}',
  '[1,]',
  'nul',
  "{'a':1}",
  '{"a":1}}',
  '\ufeff{}',
  ' ',
);

/**
 * Record ids in a path that no record has, percent-encoded as a client would send them: unicode,
 * a traversal, a long one, an encoded slash, NUL (`%00`) and an encoded lone surrogate.
 */
export const ODD_IDS: readonly string[] = [
  'no-such-record',
  '0',
  '-1',
  'x'.repeat(300),
  encodeURIComponent('😀'),
  encodeURIComponent('\u202Eevil'),
  encodeURIComponent("' or 1=1 --"),
  '..%2F..%2Fsession',
  '%2F',
  '%20',
  '00000000-0000-0000-0000-000000000000',
  // NUL and a lone surrogate's UTF-8 in an id (`HOSTILE`)
  '%00',
  'a%00b',
  '%ED%A0%80',
];

/**
 * Idempotency-Key: mostly none, else a fresh key, one key the fuzz sends again with other writes (a
 * key reused), or one the server must refuse (empty, blank, too long, not visible ASCII).
 */
export const idempotencyKey: fc.Arbitrary<string | null> = fc.oneof(
  { weight: 12, arbitrary: fc.constant(null) },
  { weight: 4, arbitrary: fc.uuid() },
  { weight: 1, arbitrary: fc.constant('the-same-key-every-time') },
  { weight: 1, arbitrary: fc.constantFrom('', ' ', 'k'.repeat(256), 'a b', 'clé', '\t', 'x'.repeat(255)) },
);
