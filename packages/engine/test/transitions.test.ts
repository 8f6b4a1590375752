import { describe, expect, it } from 'vitest';
import { applyTransition, availableTransitions, formatMessage } from '../src/index.js';
import { CLAIMS, NOW, alice, bob, carl, fran, model } from './fixtures.js';

const m = model(CLAIMS);
const clock = { now: NOW, today: '2026-11-23' };
const claim = {
  id: 'c1',
  title: 'Taxi',
  amount: '12.00',
  spentOn: '2026-11-01',
  submittedBy: alice.id,
  state: 'draft',
};
const names = (user: typeof alice, record: Record<string, unknown>) =>
  availableTransitions(m, user, 'Claim', record as never, clock).map((t) => t.name);

describe('availableTransitions', () => {
  it('offers only transitions from the state, for the role, whose guard holds', () => {
    expect(names(alice, claim)).toEqual(['submit']);
    expect(names(fran, claim)).toEqual([]);
    const submitted = { ...claim, state: 'submitted' };
    expect(names(bob, submitted)).toEqual(['approve', 'reject']);
    // the guard: a manager does not approve their own claim
    expect(names(bob, { ...submitted, submittedBy: bob.id })).toEqual(['reject']);
    // a guard over an absent value does not hold
    expect(names(bob, { ...submitted, submittedBy: null })).toEqual(['reject']);
  });

  it('a transition without roles is for whoever may update the record', () => {
    const rejected = { ...claim, state: 'rejected' };
    expect(names(carl, rejected)).toEqual(['reopen']);
    expect(names(alice, rejected)).toEqual([]); // employees update only drafts
  });
});

describe('applyTransition', () => {
  it('refuses the wrong state, the wrong role, and a guard that does not hold in the guard’s own words', () => {
    const wrongState = applyTransition(m, bob, 'Claim', claim, 'approve', {}, clock);
    expect(wrongState).toEqual({
      ok: false,
      errors: [
        {
          code: 'E_TRANSITION_NOT_ALLOWED',
          field: null,
          params: { transition: 'Approve', state: 'Draft', entity: 'Claim' },
        },
      ],
    });
    const wrongRole = applyTransition(m, fran, 'Claim', claim, 'submit', {}, clock);
    expect(!wrongRole.ok && wrongRole.errors[0]?.code).toBe('E_FORBIDDEN');
    const own = { ...claim, state: 'submitted', submittedBy: bob.id };
    const guard = applyTransition(m, bob, 'Claim', own, 'approve', {}, clock);
    expect(guard).toMatchObject({
      ok: false,
      errors: [
        {
          code: 'E_TRANSITION_GUARD',
          field: null,
          params: {
            transition: 'Approve',
            state: 'Submitted',
            entity: 'Claim',
            condition: 'submittedBy != user.id',
          },
        },
      ],
    });
    // the guard's own words, not the state's: the state is right
    expect(formatMessage(m, 'E_TRANSITION_GUARD', !guard.ok ? guard.errors[0]?.params : {})).toBe(
      'Approve is not possible now: it needs submittedBy != user.id.',
    );
    expect(
      formatMessage(m, 'E_TRANSITION_NOT_ALLOWED', !wrongState.ok ? wrongState.errors[0]?.params : {}),
    ).toBe('Approve is not possible while the record is Draft.');
    const unknown = applyTransition(m, bob, 'Claim', claim, 'teleport', {}, clock);
    expect(!unknown.ok && unknown.errors[0]?.code).toBe('E_TRANSITION_NOT_ALLOWED');
  });

  it('requires the fields it lists, and takes them from the input', () => {
    const submitted = { ...claim, state: 'submitted' };
    const missing = applyTransition(m, bob, 'Claim', submitted, 'reject', {}, clock);
    expect(missing).toEqual({
      ok: false,
      errors: [{ code: 'E_REQUIRED', field: 'rejectionReason', params: { field: 'Rejection reason' } }],
    });
    const done = applyTransition(
      m,
      bob,
      'Claim',
      submitted,
      'reject',
      { rejectionReason: 'No receipt' },
      clock,
    );
    expect(done.ok && done.record).toMatchObject({
      state: 'rejected',
      rejectionReason: 'No receipt',
      decidedAt: '2026-11-23T09:30:00.000Z',
    });
  });

  it('rejects input fields it neither requires nor the user may write', () => {
    const submitted = { ...claim, state: 'submitted' };
    const r = applyTransition(
      m,
      bob,
      'Claim',
      submitted,
      'reject',
      { rejectionReason: 'x', paidOn: '2026-01-01' },
      clock,
    );
    expect(!r.ok && r.errors.map((e) => `${e.code}:${e.field}`)).toEqual(['E_READONLY_FIELD:paidOn']);
  });

  it('sets fields from expressions and runs the rules of the transition', () => {
    const approved = { ...claim, state: 'approved' };
    const paid = applyTransition(m, fran, 'Claim', approved, 'pay', {}, clock);
    expect(paid.ok && paid.record).toMatchObject({ state: 'paid', paidOn: '2026-11-23' });
    const meals = { ...claim, category: 'meals', nights: 0 };
    const r = applyTransition(m, alice, 'Claim', meals, 'submit', {}, clock);
    expect(!r.ok && r.errors.map((e) => e.code)).toEqual(['E_VALIDATION']);
    expect(applyTransition(m, alice, 'Claim', { ...meals, nights: 2 }, 'submit', {}, clock).ok).toBe(true);
  });
});

describe('a guard with an error of its own', () => {
  const desk = model(`
product: { name: Desk }
constants: { MIN_PRIORITY: high }
entities:
  Ticket:
    fields:
      title: { type: string, required: true }
      priority: { type: enum, values: [low, high], default: low }
states:
  Ticket:
    initial: open
    states: { open: {}, escalated: {} }
    transitions:
      escalate: { from: open, to: escalated, when: "priority == MIN_PRIORITY", error: E_NOT_URGENT }
roles:
  agent: { Ticket: true }
errors:
  E_NOT_URGENT: { status: 409, message: "Only a {MIN_PRIORITY} ticket is escalated; {title} is {priority}." }
`);
  const agent = { id: 'u-agent', email: 'agent@example.com', name: 'Agent', roles: ['agent'] };
  const ticket = { id: 't1', title: 'Printer jam', priority: 'low', state: 'open', version: 1 };

  it('answers the spec’s code, with the record’s values for its message', () => {
    expect(desk.states['Ticket']?.transitions['escalate']?.error).toBe('E_NOT_URGENT');
    const r = applyTransition(desk, agent, 'Ticket', ticket, 'escalate', {}, clock);
    expect(!r.ok && r.errors.map((e) => [e.code, e.field])).toEqual([['E_NOT_URGENT', null]]);
    expect(formatMessage(desk, 'E_NOT_URGENT', !r.ok ? r.errors[0]?.params : {})).toBe(
      'Only a high ticket is escalated; Printer jam is low.',
    );
    expect(
      applyTransition(desk, agent, 'Ticket', { ...ticket, priority: 'high' }, 'escalate', {}, clock).ok,
    ).toBe(true);
  });
});
