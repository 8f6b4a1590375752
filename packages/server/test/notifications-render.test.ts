/**
 * A notification's text: ICU over the record's fields, the spec's constants and `user.*`; an
 * argument without a value renders as empty text, and a template that cannot be rendered comes
 * back as written, never with a value in it. And what an outside address may be told: the fields
 * every role that reads the entity may read.
 */
import { describe, expect, it } from 'vitest';
import { specModel } from '@ninefold/testkit';
import { fieldsForEveryone, renderTemplate } from '../src/index.js';
import { HELP_DESK } from './notifications-world.js';

const model = specModel(`
product: { name: Shop, locale: en }
constants: { SHOP_PHONE: "555-0100" }
entities:
  Order:
    fields: { title: string, items: integer, note: string }
  Audit:
    fields: { entry: string }
roles:
  clerk: { Order: { read: true } }
`);

describe('notification texts', () => {
  it('fill in the record’s fields, user.* and constants, with plurals', () => {
    const text = renderTemplate(
      model,
      '{ user.name } shipped “{title}”: {items, plural, one {# item} other {# items}}. Call {SHOP_PHONE}.',
      { record: { title: 'Lamp', items: 3 }, user: { name: 'Ann' } },
    );
    expect(text).toBe('Ann shipped “Lamp”: 3 items. Call 555-0100.');
  });

  it('render an argument without a value — a hidden field, an empty one, the system as actor — as nothing', () => {
    const values = { record: { title: 'Lamp', note: null }, user: {} };
    expect(renderTemplate(model, '{user.name}|{title}|{note}|{secret}', values)).toBe('|Lamp||');
    expect(renderTemplate(model, '{note, select, other {note: {note}}}', values)).toBe('note: ');
  });

  it('come back as written, without values, when the template cannot be rendered', () => {
    const values = { record: { title: 'Lamp' }, user: { name: 'Ann' } };
    expect(renderTemplate(model, 'Broken {title', values)).toBe('Broken {title');
  });
});

describe('what an outside address may be told', () => {
  it('is every field when no reader hides one, and only those no reader hides otherwise', () => {
    expect(fieldsForEveryone(model, 'Order')).toBeNull();
    // the help desk's customers read tickets without their secret
    expect([...(fieldsForEveryone(HELP_DESK, 'Ticket') ?? [])].sort()).toEqual([
      'contact',
      'requester',
      'subject',
      'watchers',
    ]);
    // no role reads it: nothing
    expect([...(fieldsForEveryone(model, 'Audit') ?? ['all'])]).toEqual([]);
  });
});
