import { describe, expect, it } from 'vitest';
import { applyDefaults, checkWrite, validateRecord } from '../src/index.js';
import { CLAIMS, NOW, alice, carl, model } from './fixtures.js';

const m = model(CLAIMS);
const base = { title: 'Taxi', amount: '12.00', spentOn: '2026-11-01' };
const create = (input: Record<string, unknown>) =>
  validateRecord(m, 'Claim', { ...base, ...input } as never, { operation: 'create', user: alice, now: NOW });
const codes = (input: Record<string, unknown>) => {
  const r = create(input);
  return r.ok ? [] : r.errors.map((e) => `${e.code}:${e.field}`);
};

describe('field constraints, at each boundary', () => {
  it.each([
    // [field, exactly at, one beyond, code]
    ['amount', '0.01', '0.00', 'E_TOO_SMALL'],
    ['amount', '5000.00', '5000.01', 'E_TOO_LARGE'],
    ['nights', 0, -1, 'E_TOO_SMALL'],
    ['nights', 30, 31, 'E_TOO_LARGE'],
    ['title', 'x'.repeat(120), 'x'.repeat(121), 'E_TOO_LONG'],
    ['code', 'ABC', 'AB', 'E_TOO_SHORT'],
    ['code', 'ABCDE', 'ABCDEF', 'E_TOO_LONG'],
    ['code', 'ABC', 'ABc', 'E_PATTERN'],
    ['fee', '12.34', '12.345', 'E_PRECISION'],
    ['fee', '99999.99', '100000.00', 'E_TOO_LARGE'],
    ['fee', '-99999.99', '-100000', 'E_TOO_SMALL'],
    ['category', 'other', 'others', 'E_NOT_ONE_OF'],
    ['tags', ['a', 'b'], ['a', 'b', 'c'], 'E_TOO_MANY'],
    ['tags', ['a'], ['d'], 'E_NOT_ONE_OF'],
  ])('%s: %j passes, %j is %s', (field, ok, bad, code) => {
    expect(codes({ [field]: ok }).filter((c) => c.endsWith(`:${field}`) && !c.startsWith('E_FEE'))).toEqual(
      [],
    );
    expect(codes({ [field]: bad })).toContain(`${code}:${field}`);
  });

  it('counts length in characters, not UTF-16 units', () => {
    expect(codes({ title: '😀'.repeat(120) })).toEqual([]);
  });

  it('requires required fields, and "" counts as no value', () => {
    expect(codes({ title: '' })).toEqual(['E_REQUIRED:title']);
    expect(codes({ title: null, amount: undefined })).toEqual(['E_REQUIRED:title', 'E_REQUIRED:amount']);
  });
});

describe('strict JSON types', () => {
  it.each([
    ['nights', '12', 'E_TYPE'],
    ['nights', 1.5, 'E_TYPE'],
    ['urgent', 1, 'E_TYPE'],
    ['urgent', 'true', 'E_TYPE'],
    ['title', 12, 'E_TYPE'],
    ['amount', true, 'E_TYPE'],
    ['amount', '12,50', 'E_FORMAT'],
    ['spentOn', '2026-02-30', 'E_FORMAT'],
    ['decidedAt', '2026-11-23T09:30:00', 'E_FORMAT'],
    ['receipt', 'ftp://x', 'E_FORMAT'],
    ['tags', 'a', 'E_TYPE'],
  ])('%s = %j is %s', (field, value, code) => {
    expect(codes({ [field]: value })).toEqual([`${code}:${field}`]);
  });

  it('rejects unknown fields', () => {
    expect(codes({ colour: 'red' })).toEqual(['E_UNKNOWN_FIELD:colour']);
  });
});

describe('normalisation', () => {
  it('writes decimals with the field scale and instants in UTC with milliseconds', () => {
    const r = create({ amount: '12.5', fee: 3, decidedAt: '2026-11-23T10:30:00+01:00', tags: ['a', 'a'] });
    expect(r.ok && r.record).toMatchObject({
      amount: '12.50',
      fee: '3.00',
      decidedAt: '2026-11-23T09:30:00.000Z',
      tags: ['a'],
      receipt: null,
    });
  });
});

describe('rules', () => {
  it('reports a violated rule with its code, field and the constants and values', () => {
    const r = create({ amount: '25.01' });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({
      code: 'E_RECEIPT_REQUIRED',
      field: 'receipt',
      params: { RECEIPT_THRESHOLD: 25, amount: '25.01', field: 'Receipt', rule: 'receipt-over-threshold' },
    });
    expect(create({ amount: '25.00' }).ok).toBe(true);
    expect(create({ amount: '25.01', receipt: 'https://example.com/r.pdf' }).ok).toBe(true);
  });

  it('an assertion over an absent value is not violated', () => {
    expect(create({}).ok).toBe(true); // fee <= MAX_FEE with no fee
    expect(codes({ fee: '99.51' })).toEqual(['E_FEE_TOO_HIGH:fee']);
    expect(codes({ fee: '99.50' })).toEqual([]);
  });

  it('a rule whose field is invalid sees that field as absent', () => {
    expect(codes({ fee: 'lots' })).toEqual(['E_FORMAT:fee']);
  });

  it('applies only the rules of the operation', () => {
    const draft = { ...base, category: 'meals', nights: 0, state: 'draft' };
    expect(validateRecord(m, 'Claim', draft, { operation: 'create', user: alice, now: NOW }).ok).toBe(true);
    const r = validateRecord(
      m,
      'Claim',
      { state: 'submitted' },
      { operation: { transition: 'submit' }, old: draft, user: alice, now: NOW },
    );
    expect(r.ok ? [] : r.errors.map((e) => e.code)).toEqual(['E_VALIDATION']);
    // with no nights at all the assertion errors, and an erroring assertion is not violated
    const noNights = { ...draft, nights: null };
    expect(
      validateRecord(
        m,
        'Claim',
        { state: 'submitted' },
        { operation: { transition: 'submit' }, old: noNights, user: alice, now: NOW },
      ).ok,
    ).toBe(true);
  });

  it('validates an update as a patch over the old record', () => {
    const old = { ...base, id: 'c1', state: 'draft' };
    const r = validateRecord(
      m,
      'Claim',
      { title: 'Train' },
      { operation: 'update', old, user: alice, now: NOW },
    );
    expect(r.ok && r.record).toMatchObject({ id: 'c1', title: 'Train', amount: '12.00', state: 'draft' });
  });
});

describe('checkWrite', () => {
  it('rejects system, read-only, unknown and forbidden fields', () => {
    const errors = checkWrite(
      m,
      carl,
      'Claim',
      { id: 'x', state: 'paid', paidOn: '2026-01-01', colour: 1, title: 'ok', fee: '1' },
      { operation: 'update' },
    );
    expect(errors.map((e) => `${e.code}:${e.field}`)).toEqual([
      'E_READONLY_FIELD:id',
      'E_READONLY_FIELD:state',
      'E_READONLY_FIELD:paidOn',
      'E_UNKNOWN_FIELD:colour',
      'E_READONLY_FIELD:fee',
    ]);
    expect(checkWrite(m, alice, 'Claim', { fee: '1', title: 'x' }, { operation: 'create' })).toEqual([]);
  });

  it('lets a transition set the fields it requires', () => {
    expect(
      checkWrite(m, carl, 'Claim', { rejectionReason: 'no' }, { operation: { transition: 'reject' } }),
    ).toEqual([]);
    expect(checkWrite(m, carl, 'Claim', { rejectionReason: 'no' }, { operation: 'update' })).toHaveLength(1);
  });
});

describe('applyDefaults', () => {
  it('fills literal and expression defaults and the initial state, keeping what the input sets', () => {
    expect(applyDefaults(m, 'Claim', { title: 'Taxi' }, { user: alice, now: NOW })).toEqual({
      title: 'Taxi',
      submittedBy: alice.id,
      urgent: false,
      state: 'draft',
    });
    expect(applyDefaults(m, 'Claim', { urgent: null }, { user: null, now: NOW })).toEqual({
      urgent: null,
      state: 'draft',
    });
  });
});
