import { describe, expect, it } from 'vitest';
import { type Entity, pluralLabel, recordName } from '@ninefold/model';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

/** The compiled entity `name` of a spec that must compile. */
function entityOf(src: string, name: string): Entity {
  const result = compile(src, { file: 'spec.yaml' });
  if (!result.ok) expect.fail(`the spec does not compile:\n${listed(result.diagnostics)}`);
  const entity = result.model.entities[name];
  if (entity === undefined) expect.fail(`no entity ${name}`);
  return entity;
}

const CREATED = '2026-03-01T14:02:33.000Z';

describe('how records are named without a display field (decision 0065)', () => {
  it('picks a human field by its name before the first text field', () => {
    const ticket = entityOf(
      spec`
        entities:
          Ticket: { fields: { reference: string, subject: { type: string, required: true } } }
      `,
      'Ticket',
    );
    expect(ticket.display).toBe('subject');
    expect(recordName(ticket, { id: 'x', reference: 'T-1', subject: 'Printer jammed' })).toBe(
      'Printer jammed',
    );
  });

  it('composes first and last name', () => {
    const person = entityOf(
      spec`
        entities:
          Person: { fields: { email: email, firstName: string, lastName: string } }
      `,
      'Person',
    );
    expect(person.display).toBe('firstName');
    expect(person.title).toEqual({ fields: ['firstName', 'lastName'], prefix: '' });
    expect(recordName(person, { id: 'x', firstName: 'Ada', lastName: 'Lovelace' })).toBe('Ada Lovelace');
    expect(recordName(person, { id: 'x', firstName: 'Ada', lastName: null })).toBe('Ada');
  });

  it('prefers a required text field to an optional one', () => {
    const note = entityOf(
      spec`
        entities:
          Note: { fields: { remark: string, body: { type: string, required: true } } }
      `,
      'Note',
    );
    expect(note.display).toBe('body');
  });

  it('names records by the entity label and a short key such as a number or a date, never the id', () => {
    const invoice = entityOf(
      spec`
        entities:
          Invoice: { fields: { paid: boolean, number: { type: integer, required: true }, issuedOn: date } }
      `,
      'Invoice',
    );
    expect(invoice.display).toBe('number');
    expect(recordName(invoice, { id: '01HXYZ', number: 42 })).toBe('Invoice 42');
    const visit = entityOf(
      spec`
        entities:
          SiteVisit: { fields: { done: boolean, on: date } }
      `,
      'SiteVisit',
    );
    expect(recordName(visit, { id: '01HXYZ', on: '2026-03-01' })).toBe('Site visit 2026-03-01');
  });

  it('names a record whose name is empty by its label and creation time, not its id', () => {
    const ticket = entityOf(
      spec`
      entities:
        Ticket: { fields: { subject: string } }
    `,
      'Ticket',
    );
    expect(recordName(ticket, { id: '01HXYZ', subject: '', createdAt: CREATED })).toBe(
      'Ticket 2026-03-01 14:02',
    );
  });

  it('keeps a declared display field', () => {
    const ticket = entityOf(
      spec`
        entities:
          Ticket: { display: code, fields: { code: string, title: string } }
      `,
      'Ticket',
    );
    expect(ticket.display).toBe('code');
    expect(ticket.title).toBeUndefined();
  });

  it('warns (NF323) at the entity when no field can name its records, and names them by label and time', () => {
    const { result } = expectDiagnostic(
      spec`
        entities:
          Ticket: { fields: { subject: string } }
          Tick: { fields: { done: boolean, weight: decimal } }
      `,
      {
        code: 'NF323',
        line: 3,
        column: 3,
        message: /No field of `Tick` can name its records/,
        hint: /`display:`/,
      },
    );
    expect(result.ok).toBe(true);
    expect(result.diagnostics.map((d) => d.code)).toEqual(['NF323']);
    const tick = result.ok ? result.model.entities['Tick']! : expect.fail('no model');
    expect(recordName(tick, { id: '01HXYZ', done: true, createdAt: CREATED })).toBe('Tick 2026-03-01 14:02');
  });

  it('warns (NF324) at `display: id`, and names records by label and time instead', () => {
    const { result } = expectDiagnostic(
      spec`
        entities:
          Ticket: { display: id, fields: { subject: string } }
      `,
      { code: 'NF324', line: 2, column: 22, message: /raw id/ },
    );
    const ticket = result.ok ? result.model.entities['Ticket']! : expect.fail('no model');
    expect(recordName(ticket, { id: '01HXYZ', subject: 'x', createdAt: CREATED })).toBe(
      'Ticket 2026-03-01 14:02',
    );
  });
});

describe('plural labels', () => {
  it('follow English rules on the last word', () => {
    expect(
      [
        'Claim',
        'Category',
        'Box',
        'Person',
        'Customer details',
        'Status',
        'Address',
        'Child',
        'Day',
        'Analysis',
        'Settings',
        'Purchase order',
        'Church',
        'Leaf',
        'News',
        'Data',
      ].map(pluralLabel),
    ).toEqual([
      'Claims',
      'Categories',
      'Boxes',
      'People',
      'Customer details',
      'Statuses',
      'Addresses',
      'Children',
      'Days',
      'Analyses',
      'Settings',
      'Purchase orders',
      'Churches',
      'Leaves',
      'News',
      'Data',
    ]);
  });

  it('are what the compiler gives an entity, unless the spec sets `plural`', () => {
    const result = compile(
      spec`
        entities:
          CustomerDetails: { fields: { name: string } }
          Person: { fields: { name: string } }
          Cactus: { plural: Cacti, fields: { name: string } }
      `,
      { file: 'spec.yaml' },
    );
    if (!result.ok) expect.fail(listed(result.diagnostics));
    const { CustomerDetails, Person, Cactus } = result.model.entities;
    expect([CustomerDetails?.label, CustomerDetails?.pluralLabel]).toEqual([
      'Customer details',
      'Customer details',
    ]);
    expect(Person?.pluralLabel).toBe('People');
    expect(Cactus?.pluralLabel).toBe('Cacti');
    // the API path keeps its rule, so that existing clients' addresses do not move
    expect(Person?.resource).toBe('persons');
  });
});
