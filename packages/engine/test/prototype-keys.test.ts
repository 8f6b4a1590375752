import { expect, it } from 'vitest';
import { applyTransition, can, checkWrite, formatMessage, validateRecord } from '../src/index.js';
import { CLAIMS, NOW, alice, model } from './fixtures.js';

const m = model(CLAIMS);
const claim = {
  title: 'Taxi',
  amount: '12.00',
  spentOn: '2026-11-01',
  submittedBy: alice.id,
  state: 'draft',
};

it('names that exist on every object are not fields, roles, transitions or codes', () => {
  const input = JSON.parse('{"constructor": 1, "__proto__": 2, "toString": 3}') as Record<string, number>;
  const v = validateRecord(
    m,
    'Claim',
    { ...claim, ...input },
    { operation: 'create', user: alice, now: NOW },
  );
  expect(!v.ok && v.errors.map((e) => `${e.code}:${e.field}`)).toEqual([
    'E_UNKNOWN_FIELD:constructor',
    'E_UNKNOWN_FIELD:__proto__',
    'E_UNKNOWN_FIELD:toString',
  ]);
  expect(checkWrite(m, alice, 'Claim', input, { operation: 'create' }).map((e) => e.code)).toEqual([
    'E_UNKNOWN_FIELD',
    'E_UNKNOWN_FIELD',
    'E_UNKNOWN_FIELD',
  ]);
  const t = applyTransition(m, alice, 'Claim', claim, 'constructor', {}, { now: NOW });
  expect(!t.ok && t.errors[0]?.code).toBe('E_TRANSITION_NOT_ALLOWED');
  expect(can(m, { ...alice, roles: ['constructor', 'toString'] }, 'read', 'Claim', claim, { now: NOW })).toBe(
    false,
  );
  expect(formatMessage(m, 'toString', { correlationId: 'x' }, 'en')).toBe(
    'Something went wrong on our side. Reference: x.',
  );
  expect(() => can(m, alice, 'read', 'constructor')).toThrow(/no entity/);
});
