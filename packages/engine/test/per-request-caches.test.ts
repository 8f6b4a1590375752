import { describe, expect, it } from 'vitest';
import { activation, holds, lazyActivation, utcDate } from '../src/index.js';
import { NOW, model } from './fixtures.js';

// What the engine keeps between requests must never carry one request's answer into another.

describe('utcDate', () => {
  it('answers each instant with its own UTC day, whatever day was asked for last', () => {
    expect(utcDate(new Date('2026-11-23T23:59:59.999Z'))).toBe('2026-11-23');
    expect(utcDate(new Date('2026-11-24T00:00:00.000Z'))).toBe('2026-11-24');
    expect(utcDate(new Date('2026-11-23T00:00:00.000Z'))).toBe('2026-11-23');
    expect(utcDate(new Date('2026-11-23T12:00:00+14:00'))).toBe('2026-11-22');
    expect(utcDate(new Date('1969-12-31T23:59:59.999Z'))).toBe('1969-12-31');
    expect(utcDate(new Date('1970-01-01T00:00:00.000Z'))).toBe('1970-01-01');
  });

  it('still refuses an invalid date', () => {
    utcDate(new Date('2026-11-23T10:00:00Z'));
    expect(() => utcDate(new Date(Number.NaN))).toThrow(RangeError);
  });

  it('is the today of an activation built without one', () => {
    const m = model(`
entities:
  Note:
    fields:
      title: { type: text }
`);
    const at = (iso: string) => activation(m, 'Note', {}, { user: null, now: new Date(iso) })['today'];
    expect(at('2026-11-23T10:00:00Z')).toBe('2026-11-23');
    expect(at('2026-11-24T10:00:00Z')).toBe('2026-11-24');
  });
});

describe('the user in CEL', () => {
  const withDepartments = model(`
entities:
  User:
    fields:
      department: { type: text }
  Note:
    fields:
      title: { type: text }
`);
  const noUserEntity = model(`
entities:
  Note:
    fields:
      title: { type: text }
`);

  it('converts each user context with its own values, the schema built once per model', () => {
    const ctx = (department: string) => ({
      user: { id: `u-${department}`, email: 'a@example.com', name: 'A', roles: ['r'], department },
      now: NOW,
    });
    const sales = lazyActivation(withDepartments, 'Note', {}, ctx('sales'));
    const audit = lazyActivation(withDepartments, 'Note', {}, ctx('audit'));
    expect(holds(withDepartments, 'Note', "user.department == 'sales'", sales)).toBe(true);
    expect(holds(withDepartments, 'Note', "user.department == 'sales'", audit)).toBe(false);
    expect(holds(withDepartments, 'Note', "user.id == 'u-audit'", audit)).toBe(true);
  });

  it('keeps each model’s user schema apart', () => {
    const user = { id: 'u-1', email: 'a@example.com', name: 'A', roles: ['r'], department: 'sales' };
    const withField = activation(withDepartments, 'Note', {}, { user, now: NOW })['user'];
    const without = activation(noUserEntity, 'Note', {}, { user: { ...user }, now: NOW })['user'];
    expect(withField).toHaveProperty('department', 'sales');
    expect(without).not.toHaveProperty('department');
  });
});
