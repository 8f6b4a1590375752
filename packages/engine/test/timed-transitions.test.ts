import { describe, expect, it } from 'vitest';
import { applyTimedTransition, applyTransition, availableTransitions } from '../src/index.js';
import { NOW, model } from './fixtures.js';

const LOANS = `
entities:
  Loan:
    fields:
      title: string
      dueAt: datetime
      note: string
      closedBy: string
roles:
  librarian: { Loan: { read: true, create: true, update: true } }
states:
  Loan:
    initial: borrowed
    transitions:
      markOverdue: { from: borrowed, to: overdue, at: dueAt, set: { note: "'late'" } }
      archive: { from: overdue, to: archived, after: 30d, when: "note == 'late'" }
      forget: { from: overdue, to: forgotten, after: 1d, when: "user.id != ''" }
      giveBack: { from: [borrowed, overdue], to: returned }
`;

const m = model(LOANS);
const clock = { now: NOW, today: '2026-11-23' };
const librarian = { id: 'u-lib', email: 'lib@example.com', name: 'Lib', roles: ['librarian'] };
const loan = { id: 'l1', title: 'Dune', dueAt: '2026-11-20T00:00:00.000Z', state: 'borrowed' };

describe('timed transitions', () => {
  it('are offered to no one, not even a role that may update the record', () => {
    const names = (record: Record<string, unknown>) =>
      availableTransitions(m, librarian, 'Loan', record as never, clock).map((t) => t.name);
    expect(names(loan)).toEqual(['giveBack']);
    expect(names({ ...loan, state: 'overdue', note: 'late' })).toEqual(['giveBack']);
  });

  it('cannot be fired by a person', () => {
    expect(applyTransition(m, librarian, 'Loan', loan, 'markOverdue', {}, clock)).toEqual({
      ok: false,
      errors: [{ code: 'E_FORBIDDEN', field: null, params: { transition: 'Mark overdue' } }],
    });
  });

  it('are fired by the system: the state changes and `set` applies', () => {
    const fired = applyTimedTransition(m, 'Loan', loan, 'markOverdue', clock);
    expect(fired.ok && fired.record).toMatchObject({ state: 'overdue', note: 'late', title: 'Dune' });
  });

  it('check their guard when they fire; a guard that reads `user` does not hold for the system', () => {
    const overdue = { ...loan, state: 'overdue', note: 'late' };
    expect(applyTimedTransition(m, 'Loan', overdue, 'archive', clock).ok).toBe(true);
    const archive = applyTimedTransition(m, 'Loan', { ...overdue, note: 'renewed' }, 'archive', clock);
    expect(archive.ok ? null : archive.errors[0]!.code).toBe('E_TRANSITION_GUARD');
    const forget = applyTimedTransition(m, 'Loan', overdue, 'forget', clock);
    expect(forget.ok ? null : forget.errors[0]!.code).toBe('E_TRANSITION_GUARD');
  });

  it('refuse the wrong state, and the system fires no transition a person fires', () => {
    const wrongState = applyTimedTransition(m, 'Loan', { ...loan, state: 'returned' }, 'markOverdue', clock);
    expect(wrongState.ok ? null : wrongState.errors[0]!.code).toBe('E_TRANSITION_NOT_ALLOWED');
    const personal = applyTimedTransition(m, 'Loan', loan, 'giveBack', clock);
    expect(personal.ok ? null : personal.errors[0]!.code).toBe('E_FORBIDDEN');
  });
});
