import { describe, expect, it } from 'vitest';
import { can, maskRecord, queryableFields, readableFields, writableFields } from '../src/index.js';
import { CLAIMS, NOW, alice, ann, bob, carl, fran, model } from './fixtures.js';

const m = model(CLAIMS);
const clock = { now: NOW };
const mine = { id: 'c1', title: 'Taxi', amount: '12.00', fee: '1.00', submittedBy: alice.id, state: 'draft' };
const theirs = { ...mine, id: 'c2', submittedBy: 'u-other' };

describe('can', () => {
  it('true and false grants', () => {
    expect(can(m, alice, 'create', 'Claim', mine, clock)).toBe(true);
    expect(can(m, alice, 'delete', 'Claim', mine, clock)).toBe(false);
    expect(can(m, fran, 'update', 'Claim', { ...mine, state: 'approved' }, clock)).toBe(false);
  });

  it('own', () => {
    expect(can(m, alice, 'read', 'Claim', mine, clock)).toBe(true);
    expect(can(m, alice, 'read', 'Claim', theirs, clock)).toBe(false);
    expect(can(m, alice, 'read', 'Claim', { ...mine, submittedBy: null }, clock)).toBe(false);
  });

  it('an expression, which does not hold when it errors', () => {
    expect(can(m, fran, 'read', 'Claim', { ...theirs, state: 'approved' }, clock)).toBe(true);
    expect(can(m, fran, 'read', 'Claim', { ...theirs, state: 'draft' }, clock)).toBe(false);
    expect(can(m, fran, 'read', 'Claim', { ...theirs, state: undefined }, clock)).toBe(false);
  });

  it('all, and inheritance: a manager may do what an employee may', () => {
    expect(can(m, bob, 'read', 'Claim', theirs, clock)).toBe(true);
    expect(can(m, bob, 'update', 'Claim', { ...mine, submittedBy: bob.id }, clock)).toBe(true);
    expect(can(m, bob, 'update', 'Claim', theirs, clock)).toBe(false);
  });

  it('unions several roles; unknown roles and no roles grant nothing', () => {
    expect(can(m, { ...fran, roles: ['finance', 'employee'] }, 'read', 'Claim', mine, clock)).toBe(false);
    expect(
      can(m, { ...fran, id: alice.id, roles: ['finance', 'employee'] }, 'read', 'Claim', mine, clock),
    ).toBe(true);
    expect(can(m, { ...alice, roles: ['ghost'] }, 'read', 'Claim', mine, clock)).toBe(false);
    expect(can(m, { ...alice, roles: [] }, 'create', 'Claim')).toBe(false);
    expect(can(m, null, 'read', 'Claim', mine, clock)).toBe(false);
  });

  it('without a record: whether some record may be acted on', () => {
    expect(can(m, alice, 'update', 'Claim')).toBe(true);
    expect(can(m, fran, 'update', 'Claim')).toBe(false);
  });

  it('checks an update against the old and the new record', () => {
    expect(can(m, alice, 'update', 'Claim', { ...mine, title: 'Bus' }, { ...clock, old: mine })).toBe(true);
    // moving a draft out of draft by an update is refused: the new record is not allowed
    expect(can(m, alice, 'update', 'Claim', { ...mine, state: 'paid' }, { ...clock, old: mine })).toBe(false);
    // nor may someone give their claim away
    expect(
      can(m, alice, 'update', 'Claim', { ...mine, submittedBy: 'u-other' }, { ...clock, old: mine }),
    ).toBe(false);
    // and a submitted claim cannot be edited back to draft
    expect(can(m, alice, 'update', 'Claim', mine, { ...clock, old: { ...mine, state: 'submitted' } })).toBe(
      false,
    );
  });
});

describe('field access', () => {
  it('readable and writable field lists, null for all', () => {
    expect(readableFields(m, ann, 'Claim')).toEqual(['title', 'amount']);
    expect(readableFields(m, alice, 'Claim')).toBeNull();
    expect(readableFields(m, alice, 'User')).toEqual(['name']);
    expect(writableFields(m, carl, 'Claim')).toEqual(['title', 'amount']);
    expect(writableFields(m, alice, 'Claim')).toBeNull();
    expect(writableFields(m, fran, 'Claim')).toEqual([]);
  });

  it('lets a user query only the fields every role of theirs may read on every record', () => {
    expect(queryableFields(m, alice, 'Claim')).toBeNull(); // no mask: every field
    expect([...(queryableFields(m, ann, 'Claim') ?? [])]).toEqual(['title', 'amount']);
    // a second role that reads more does not widen it: the mask of one role still hides the rest
    expect([...(queryableFields(m, { ...ann, roles: ['auditor', 'employee'] }, 'Claim') ?? [])]).toEqual([
      'title',
      'amount',
    ]);
    expect(queryableFields(m, null, 'Claim')?.size).toBe(0);
    expect(queryableFields(m, { ...alice, roles: ['nobody'] }, 'Claim')?.size).toBe(0);
  });

  it('masks the fields a user may not read, keeping system fields', () => {
    expect(maskRecord(m, ann, 'Claim', theirs, clock)).toEqual({
      id: 'c2',
      title: 'Taxi',
      amount: '12.00',
      state: 'draft',
    });
    expect(maskRecord(m, alice, 'Claim', theirs, clock)).toBeNull();
    expect(maskRecord(m, alice, 'Claim', mine, clock)).toEqual(mine);
  });

  it('counts only the roles that may read this record', () => {
    const both = { ...ann, id: alice.id, roles: ['auditor', 'employee'] };
    expect(readableFields(m, both, 'Claim', mine, clock)).toBeNull();
    expect(readableFields(m, both, 'Claim', theirs, clock)).toEqual(['title', 'amount']);
  });
});
