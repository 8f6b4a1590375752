/**
 * Blank text is no value (decision 0026): text of nothing but white space and invisible characters
 * answers `required` and a transition's `require`, reads as absent in rules and `set`, is stored as
 * null, and takes no default; a `json` field's string is data and stays as given.
 */
import { isBlank } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { applyDefaults, applyTransition, isEmptyValue, validateRecord } from '../src/index.js';
import { NOW, model } from './fixtures.js';

const m = model(`
product: { name: Desk }
entities:
  Ticket:
    fields:
      title: { type: string, required: true }
      note: { type: text }
      priority: { type: enum, values: [low, high], default: low }
      team: { type: string, default: Support }
      reason: { type: text }
      outcome: { type: string, readonly: true }
      data: { type: json }
states:
  Ticket:
    initial: open
    states: { open: {}, closed: {} }
    transitions:
      close:
        from: open
        to: closed
        require: [reason]
        set: { outcome: "has(note) ? 'noted' : 'silent'" }
rules:
  - id: high-needs-note
    entity: Ticket
    assert: "priority == 'low' || has(note)"
    error: E_NOTE_NEEDED
    fields: [note]
roles:
  agent: { Ticket: true }
errors:
  E_NOTE_NEEDED: "A ticket of high priority needs a note."
`);
const agent = { id: 'u-agent', email: 'agent@example.com', name: 'Agent', roles: ['agent'] };
const clock = { now: NOW };
const fields = m.entities['Ticket']!.fields;

/** Text that looks empty: spaces of every kind, line ends, and characters that are never drawn. */
const BLANKS = [
  '   ',
  '\t\n\r ',
  '\u00a0\u2003\u3000', // no-break, em and ideographic spaces
  '\u200b', // zero width space
  '\u200c\u200d', // zero width non-joiner and joiner
  '\u2060', // word joiner
  '\ufeff', // byte order mark
  ' \u200b \u00ad ', // with a soft hyphen
];

const create = (input: Record<string, unknown>) =>
  validateRecord(m, 'Ticket', applyDefaults(m, 'Ticket', input as never, { user: agent, ...clock }), {
    operation: 'create',
    user: agent,
    ...clock,
  });

describe('blank text', () => {
  it.each(BLANKS)('%j is blank', (text) => {
    expect(isBlank(text)).toBe(true);
    expect(isEmptyValue(fields['title']!, text)).toBe(true);
  });

  it.each(['a', ' a ', '\u200ba', '.', '0', '\u2800'])('%j is not blank', (text) => {
    expect(isBlank(text)).toBe(false);
    expect(isEmptyValue(fields['title']!, text)).toBe(false);
  });

  it.each(BLANKS)('answers E_REQUIRED for a required field given %j', (text) => {
    const r = create({ title: text });
    expect(r).toEqual({
      ok: false,
      errors: [{ code: 'E_REQUIRED', field: 'title', params: { field: 'Title' } }],
    });
  });

  it('is stored as no value (null), and other text as given', () => {
    const r = create({ title: ' Printer jam ', note: ' \u200b ' });
    expect(r.ok && r.record).toMatchObject({ title: ' Printer jam ', note: null });
  });

  it('is absent to the rules: has() does not see it', () => {
    const r = create({ title: 'Printer jam', priority: 'high', note: '\u200b\u200b' });
    expect(r.ok ? [] : r.errors.map((e) => `${e.code}:${e.field}`)).toEqual(['E_NOTE_NEEDED:note']);
    expect(create({ title: 'Printer jam', priority: 'high', note: 'Tray 2' }).ok).toBe(true);
  });

  it('takes no default, as null does not', () => {
    const r = create({ title: 'Printer jam', team: '  ' });
    expect(r.ok && r.record['team']).toBeNull();
  });

  it('is data in a json field', () => {
    const r = create({ title: 'Printer jam', data: '  ' });
    expect(r.ok && r.record['data']).toBe('  ');
  });

  it.each(BLANKS)('answers E_REQUIRED for a field a transition requires, given %j', (text) => {
    const open = { id: 't1', title: 'Printer jam', priority: 'low', state: 'open', version: 1 };
    const r = applyTransition(m, agent, 'Ticket', open, 'close', { reason: text }, clock);
    expect(r).toEqual({
      ok: false,
      errors: [{ code: 'E_REQUIRED', field: 'reason', params: { field: 'Reason' } }],
    });
  });

  it('is absent to a transition’s set, and is stored as null by it', () => {
    const open = { id: 't1', title: 'Printer jam', priority: 'low', state: 'open', version: 1 };
    const r = applyTransition(m, agent, 'Ticket', open, 'close', { reason: 'Fixed', note: '\u2060 ' }, clock);
    expect(r.ok && r.record).toMatchObject({ state: 'closed', note: null, outcome: 'silent' });
    const noted = applyTransition(
      m,
      agent,
      'Ticket',
      open,
      'close',
      { reason: 'Fixed', note: 'Tray' },
      clock,
    );
    expect(noted.ok && noted.record).toMatchObject({ note: 'Tray', outcome: 'noted' });
  });
});
