import { describe, expect, it } from 'vitest';
import { activation, evaluate, holds, violated } from '../src/expressions.js';
import { CLAIMS, NOW, alice, model } from './fixtures.js';

const m = model(CLAIMS);
const vars = (record: Record<string, unknown>, user = alice) =>
  activation(m, 'Claim', record as never, { user, now: NOW });

describe('activation', () => {
  it('converts wire values to CEL values', () => {
    const v = vars({
      nights: 3,
      amount: '12.50',
      decidedAt: '2026-11-23T10:00:00+01:00',
      urgent: true,
      tags: ['a'],
      version: 4,
      createdAt: '2026-01-01T00:00:00.000Z',
    });
    expect(v['nights']).toBe(3n);
    expect(v['amount']).toBe(12.5);
    expect(v['decidedAt']).toEqual(new Date('2026-11-23T09:00:00.000Z'));
    expect(v['urgent']).toBe(true);
    expect(v['tags']).toEqual(['a']);
    expect(v['version']).toBe(4n);
    expect(v['today']).toBe('2026-11-23');
    expect((v['self'] as Record<string, unknown>)['nights']).toBe(3n);
  });

  it('binds neither absent nor null fields, nor values of the wrong type', () => {
    const v = vars({ nights: null, title: undefined, amount: 'twelve', urgent: 1 });
    for (const name of ['nights', 'title', 'amount', 'urgent']) expect(v).not.toHaveProperty(name);
  });

  it('computes own from the owner field and the user', () => {
    expect(vars({ submittedBy: alice.id })['own']).toBe(true);
    expect(vars({ submittedBy: 'someone' })['own']).toBe(false);
    expect(vars({})['own']).toBe(false);
    expect(activation(m, 'Claim', { submittedBy: alice.id }, { user: null, now: NOW })['own']).toBe(false);
  });
});

describe('evaluation', () => {
  it('evaluates with constants, user, now and today', () => {
    const v = vars({ amount: '30', spentOn: '2026-11-01', decidedAt: '2026-11-23T09:00:00Z' });
    expect(holds(m, 'Claim', 'amount > RECEIPT_THRESHOLD', v)).toBe(true);
    expect(holds(m, 'Claim', 'spentOn < today && decidedAt < now', v)).toBe(true);
    expect(holds(m, 'Claim', "'employee' in user.roles", v)).toBe(true);
  });

  it('reading an absent value is an error, which && and || absorb as CEL does', () => {
    const v = vars({});
    expect(evaluate(m, 'Claim', 'nights > 3', v).ok).toBe(false);
    expect(evaluate(m, 'Claim', 'self.nights > 3', v).ok).toBe(false);
    expect(evaluate(m, 'Claim', 'nights > 3 || true', v)).toEqual({ ok: true, value: true });
    expect(evaluate(m, 'Claim', 'nights > 3 && false', v)).toEqual({ ok: true, value: false });
    expect(evaluate(m, 'Claim', 'has(self.nights)', v)).toEqual({ ok: true, value: false });
  });

  it('an erroring condition does not hold, and an erroring assertion is not violated', () => {
    const v = vars({});
    expect(holds(m, 'Claim', 'fee <= MAX_FEE', v)).toBe(false);
    expect(holds(m, 'Claim', '!(fee <= MAX_FEE)', v)).toBe(false);
    expect(violated(m, 'Claim', 'fee <= MAX_FEE', v)).toBe(false);
    expect(violated(m, 'Claim', 'fee <= MAX_FEE', vars({ fee: '99.51' }))).toBe(true);
    expect(violated(m, 'Claim', 'fee <= MAX_FEE', vars({ fee: '99.50' }))).toBe(false);
  });

  it('never throws: parse errors, runtime errors and foreign exceptions are errors', () => {
    expect(evaluate(m, 'Claim', 'nights +', vars({})).ok).toBe(false);
    expect(evaluate(m, 'Claim', 'nights / 0 == 1', vars({ nights: 1 })).ok).toBe(false);
    const deep = `${'('.repeat(5000)}true${')'.repeat(5000)}`;
    expect(evaluate(m, 'Claim', deep, vars({})).ok).toBe(false);
    expect(holds(m, 'Claim', deep, vars({}))).toBe(false);
  });

  it('evaluates expressions about no record (defaults)', () => {
    expect(evaluate(m, null, 'user.id', activation(m, null, null, { user: alice, now: NOW }))).toEqual({
      ok: true,
      value: alice.id,
    });
    expect(evaluate(m, null, 'user.id', activation(m, null, null, { user: null, now: NOW })).ok).toBe(false);
  });
});
