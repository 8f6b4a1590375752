/**
 * The lazy activation must be indistinguishable from the eager one wherever an expression looks:
 * for random records (values of every type, of the wrong type, null, absent), every variable reads
 * the same, and every expression of the model evaluates to the same outcome.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Value } from '@ninefold/model';
import { recordSchema } from '@ninefold/model';
import { type UserContext, activation, evaluate, lazyActivation } from '../src/index.js';
import { CLAIMS, NOW, alice, bob, model } from './fixtures.js';

const m = model(CLAIMS);
const entity = m.entities['Claim']!;
const FIELDS = Object.keys(recordSchema(entity, m.states['Claim']));
const NAMES = [...FIELDS, 'self', 'own', 'old', 'user', 'now', 'today'];

/** The model's own expressions about claims, and a few that read every kind of value. */
const EXPRESSIONS = [
  ...Object.values(m.roles).flatMap((role) => {
    const access = role.entities['Claim'];
    return access === undefined
      ? []
      : [access.read, access.update, access.delete].flatMap((a) =>
          typeof a === 'boolean' ? [] : a.any.map((e) => e.source),
        );
  }),
  ...m.rules.flatMap((rule) => [rule.assert.source, ...(rule.when === null ? [] : [rule.when.source])]),
  ...Object.values(m.states['Claim']?.transitions ?? {}).flatMap((t) =>
    t.when === null ? [] : [t.when.source],
  ),
  'nights * 2 > version',
  'has(self.fee) && fee < amount',
  "decidedAt < now && createdAt < updatedAt && spentOn < today && 'a' in tags",
  "self.title + code == old.title + old.code && urgent == old.urgent && state == 'draft'",
  "id != createdBy && self.state == 'draft'",
];

const anyValue: fc.Arbitrary<Value | undefined> = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -100, max: 100 }),
  fc.double({ noNaN: false }),
  fc.constantFrom(
    '12.50',
    '-0.5',
    '1e3',
    'draft',
    '2026-11-01',
    '2026-11-23T09:00:00Z',
    '2026-02-30T00:00:00Z',
  ),
  fc.string({ maxLength: 6 }),
  fc.array(fc.constantFrom('a', 'b', 'c')),
  fc.array(fc.integer(), { maxLength: 2 }),
);
const record = fc.record(Object.fromEntries(FIELDS.map((f) => [f, anyValue])), { requiredKeys: [] });
const users: (UserContext | null)[] = [alice, bob, null];

describe('lazyActivation', () => {
  it('reads every variable as activation binds it', () => {
    fc.assert(
      fc.property(record, fc.option(record), fc.constantFrom(...users), (r, old, user) => {
        const ctx = { user, now: NOW, old: old ?? null };
        const eager = activation(m, 'Claim', r, ctx);
        const lazy = lazyActivation(m, 'Claim', r, ctx);
        for (const name of NAMES) expect(lazy[name]).toEqual(eager[name]);
      }),
      { numRuns: 300 },
    );
  });

  it('evaluates every expression to the same outcome', () => {
    fc.assert(
      fc.property(record, record, fc.constantFrom(...users), (r, old, user) => {
        const ctx = { user, now: NOW, old };
        const eager = activation(m, 'Claim', r, ctx);
        const lazy = lazyActivation(m, 'Claim', r, ctx);
        for (const source of EXPRESSIONS) {
          expect(evaluate(m, 'Claim', source, lazy)).toEqual(evaluate(m, 'Claim', source, eager));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('builds self once, and binds only the context for an unknown entity or none', () => {
    const lazy = lazyActivation(m, 'Claim', { title: 'Taxi' }, { user: alice, now: NOW });
    expect(lazy['self']).toBe(lazy['self']);
    expect(lazyActivation(m, null, null, { user: alice, now: NOW })).toEqual(
      activation(m, null, null, { user: alice, now: NOW }),
    );
    expect(lazyActivation(m, 'Nope', {}, { user: null, now: NOW })).toEqual(
      activation(m, 'Nope', {}, { user: null, now: NOW }),
    );
  });
});
