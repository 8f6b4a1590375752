/**
 * A notification's text as the server sends it: the names the compiler accepts (`{user.name}`, the
 * record's fields, system fields, constants) are the names the renderer fills in, dotted ones too.
 */
import { readFileSync } from 'node:fs';
import { compile } from '@ninefold/language';
import { icuTemplate } from '@ninefold/model';
import { describe, expect, it } from 'vitest';
import { renderNotificationText } from '../src/index.js';
import { model } from './fixtures.js';

const m = model(`
product: { name: Helpdesk, locale: en }
constants: { MAX_OPEN: 3 }
entities:
  Ticket:
    fields:
      subject: string
      lastReply: text
      requester: { type: ref, to: User }
      replies: integer
states:
  Ticket:
    initial: open
    transitions:
      answer: { from: open, to: answered }
notifications:
  ticket-answered:
    on: Ticket.answer
    to: [requester]
    subject: "Your ticket “{subject}” was answered"
    message: "{user.name} answered: {lastReply}"
`);

const ticket = {
  id: 't-1',
  subject: 'Printer on fire',
  lastReply: 'Try water.',
  requester: 'u-alice',
  replies: 2,
  state: 'answered',
};
const ann = { id: 'u-ann', name: 'Ann', email: 'ann@example.com' };

describe('renderNotificationText', () => {
  it("renders the spec's subject and message with the record's fields and the actor", () => {
    const n = m.notifications['ticket-answered']!;
    expect(renderNotificationText(m, n.subject, ticket, ann, 'en')).toBe(
      'Your ticket “Printer on fire” was answered',
    );
    expect(renderNotificationText(m, n.message, ticket, ann, 'en')).toBe('Ann answered: Try water.');
  });

  it('fills every actor name, system fields and constants, and plural and select over them', () => {
    const text =
      '{user.id} {user.email} {id} {state} {MAX_OPEN} {replies, plural, one {# reply} other {# replies}} {user.name, select, Ann {by Ann} other {by someone}}';
    expect(renderNotificationText(m, text, ticket, ann, 'en')).toBe(
      'u-ann ann@example.com t-1 answered 3 2 replies by Ann',
    );
  });

  it('renders a change by the system, and fields the recipient may not read, as nothing', () => {
    expect(renderNotificationText(m, '[{user.name}] {subject}: {lastReply}', { id: 't-1' }, null, 'en')).toBe(
      '[] : ',
    );
  });

  it('renders a field named like an object property, when absent, as nothing', () => {
    const own = model(`
entities:
  Thing: { fields: { constructor: string, toString: string } }
notifications:
  n: { on: Thing.created, to: [user], subject: "[{constructor}] [{toString}]" }
`);
    expect(renderNotificationText(own, '[{constructor}] [{toString}]', {}, ann, 'en')).toBe('[] []');
  });

  it('formats a date or datetime field with a date or time style, in UTC; an absent one as nothing', () => {
    const dated = model(`
entities:
  Loan: { fields: { title: string, dueAt: datetime, dueOn: date } }
`);
    const text = 'Due {dueOn, date, long} at {dueAt, time, short} ({dueAt, date, short})';
    const loan = { dueOn: '2026-11-24', dueAt: '2026-11-24T23:30:00.000Z' };
    expect(renderNotificationText(dated, text, loan, ann, 'en-GB')).toBe(
      'Due 24 November 2026 at 23:30 (24/11/26)',
    );
    expect(renderNotificationText(dated, text, { dueOn: '2026-11-24' }, ann, 'en-GB')).toBe(
      'Due 24 November 2026 at  ()',
    );
    expect(
      renderNotificationText(dated, '{n, plural, other {{dueOn, date, long}}}', { n: 2 }, ann, 'en'),
    ).toBe('');
  });

  it('keeps angle brackets as text and fills the arguments between them', () => {
    expect(renderNotificationText(m, '<b>{subject}</b> & a < b', ticket, ann, 'en')).toBe(
      '<b>Printer on fire</b> & a < b',
    );
  });

  it('formats numbers in the locale', () => {
    expect(renderNotificationText(m, '{replies, number}', { replies: 1234.5 }, ann, 'de-DE')).toBe('1.234,5');
  });

  it('leaves a quoted brace as text', () => {
    expect(renderNotificationText(m, "'{user.name}' is {user.name}", ticket, ann, 'en')).toBe(
      '{user.name} is Ann',
    );
  });

  it('returns a template that does not parse as written, without throwing', () => {
    expect(renderNotificationText(m, '{oops', ticket, ann, 'en')).toBe('{oops');
  });
});

describe("the expense example's texts", () => {
  const text = readFileSync(new URL('../../../examples/expense-claims.md', import.meta.url), 'utf8');
  const compiled = compile(text, { file: 'expense-claims.md' });
  if (!compiled.ok) throw new Error('examples/expense-claims.md does not compile');
  const claims = compiled.model;
  const decided = claims.notifications['claim-decided']!;
  const claim = { title: 'Train', state: 'rejected', rejectionReason: 'No receipt.', paidOn: null };

  it('says what was decided, by state', () => {
    expect(renderNotificationText(claims, decided.subject, claim, ann, 'en')).toBe(
      'Your claim “Train” was rejected',
    );
    expect(renderNotificationText(claims, decided.message, claim, ann, 'en')).toBe(
      'Ann rejected it: No receipt.',
    );
    const paid = { ...claim, state: 'paid', paidOn: '2026-11-24', paymentReference: 'PAY-20261124' };
    expect(renderNotificationText(claims, decided.message, paid, null, 'en')).toBe(
      'It was paid on 2026-11-24, reference PAY-20261124.',
    );
  });
});

describe('icuTemplate', () => {
  it('rewrites dotted argument names only where they are arguments', () => {
    expect(icuTemplate('{user.name} answered: {lastReply}')).toBe('{user__name} answered: {lastReply}');
    expect(icuTemplate('{ user.name , select, other {x}}')).toBe('{ user__name , select, other {x}}');
    expect(icuTemplate("it''s '{user.name}' {user.id}")).toBe("it''s '{user.name}' {user__id}");
    expect(icuTemplate('user.name {n} {a.b.c}')).toBe('user.name {n} {a__b__c}');
  });
});
