/**
 * A notification's text as the server sends it: the names the compiler accepts (`{user.name}`, the
 * record's fields, system fields, constants) are the names the renderer fills in, dotted ones too.
 */
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

describe('icuTemplate', () => {
  it('rewrites dotted argument names only where they are arguments', () => {
    expect(icuTemplate('{user.name} answered: {lastReply}')).toBe('{user__name} answered: {lastReply}');
    expect(icuTemplate('{ user.name , select, other {x}}')).toBe('{ user__name , select, other {x}}');
    expect(icuTemplate("it''s '{user.name}' {user.id}")).toBe("it''s '{user.name}' {user__id}");
    expect(icuTemplate('user.name {n} {a.b.c}')).toBe('user.name {n} {a__b__c}');
  });
});
