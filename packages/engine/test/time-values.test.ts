import { describe, expect, it } from 'vitest';
import { activation, checkFieldValue, evaluate } from '../src/index.js';
import { NOW, alice, model } from './fixtures.js';

// Times have one canonical form, so equal times are equal strings in storage and in expressions.
const shifts = model(`
entities:
  Shift:
    fields:
      starts: { type: time, min: "08:00", max: "18:30" }
`);
const starts = shifts.entities['Shift']!.fields['starts']!;

describe('time values', () => {
  it('are normalised to HH:MM:SS, milliseconds only when present', () => {
    expect(checkFieldValue(starts, '09:30')).toEqual({ ok: true, value: '09:30:00' });
    expect(checkFieldValue(starts, '09:30:15.250')).toEqual({ ok: true, value: '09:30:15.250' });
    expect(checkFieldValue(starts, '09:30:15.000')).toEqual({ ok: true, value: '09:30:15' });
  });

  it('compiles bounds into the same form, and checks them at the boundary', () => {
    expect(starts.min).toEqual({ value: '08:00:00', constant: null });
    expect(checkFieldValue(starts, '08:00').ok).toBe(true);
    expect(checkFieldValue(starts, '07:59:59').ok).toBe(false);
    expect(checkFieldValue(starts, '18:30:00').ok).toBe(true);
    expect(checkFieldValue(starts, '18:30:01').ok).toBe(false);
  });

  it('compare equal inside expressions once stored', () => {
    const stored = checkFieldValue(starts, '09:30');
    if (!stored.ok) throw new Error('valid time');
    const vars = activation(shifts, 'Shift', { starts: stored.value }, { user: alice, now: NOW });
    expect(evaluate(shifts, 'Shift', "starts == '09:30:00'", vars)).toEqual({ ok: true, value: true });
    expect(evaluate(shifts, 'Shift', "starts < '10:00:00'", vars)).toEqual({ ok: true, value: true });
  });
});
