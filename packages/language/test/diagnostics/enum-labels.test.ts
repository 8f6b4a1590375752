import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

const tickets = (labels: string, type = 'enum, values: [low, normal, high, urgent]') => spec`
  entities:
    Ticket:
      fields:
        title: string
        priority: { type: ${type}, valueLabels: ${labels} }
`;

describe('the labels of enum values', () => {
  it('labels every value: the spec’s label, else the value humanised', () => {
    const result = compile(tickets('{ urgent: Urgent!, low: Can wait }'), { file: 'spec.yaml' });
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    expect(result.diagnostics).toEqual([]);
    expect(result.model.entities['Ticket']!.fields['priority']!.valueLabels).toEqual({
      low: 'Can wait',
      normal: 'Normal',
      high: 'High',
      urgent: 'Urgent!',
    });
    // `values` keeps its order and its words
    expect(result.model.entities['Ticket']!.fields['priority']!.values).toEqual([
      'low',
      'normal',
      'high',
      'urgent',
    ]);
  });

  it('labels an enum without `valueLabels` by its values humanised, and no other field', () => {
    const result = compile(
      spec`
        entities:
          Ticket:
            fields:
              area: { type: enum, values: [billing, highRisk], many: true }
              title: string
      `,
      { file: 'spec.yaml' },
    );
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    const fields = result.model.entities['Ticket']!.fields;
    expect(fields['area']!.valueLabels).toEqual({ billing: 'Billing', highRisk: 'High risk' });
    expect(fields['title']!.valueLabels).toBeUndefined();
  });

  it('labels the roles of a user as the roles are labelled', () => {
    const result = compile(
      spec`
        entities:
          Ticket: { fields: { title: string } }
        roles:
          agent: { label: Support agent, Ticket: { read: true } }
          lead: { Ticket: { read: true } }
      `,
      { file: 'spec.yaml' },
    );
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    expect(result.model.entities['User']!.fields['roles']!.valueLabels).toEqual({
      agent: 'Support agent',
      lead: 'Lead',
    });
  });

  it('NF328: a label for a value the field does not list, with the near one', () => {
    const { result } = expectDiagnostic(tickets('{ urgnet: Urgent! }'), {
      code: 'NF328',
      line: 5,
      column: 83,
      message: /`urgnet` is not one of the values of field `Ticket\.priority`/,
      hint: /did you mean `urgent`\?/,
    });
    expect(result.ok).toBe(false);
  });

  it('NF206: `valueLabels` on a field that is not an enum', () => {
    expectDiagnostic(tickets('{ low: Low }', 'string'), {
      code: 'NF206',
      line: 5,
      column: 33,
      message: /`valueLabels` does not apply to a string field/,
      hint: /only enum fields label their values/,
    });
  });
});

describe('translating enum values', () => {
  const source = spec`
    product:
      name: Tickets
      locales: [en-GB, fr-FR]
    entities:
      Ticket:
        fields:
          title: string
          priority: { type: enum, values: [low, urgent], valueLabels: { urgent: Urgent! } }
  `;

  it('warns of a value label a locale leaves untranslated, written or humanised (NF335)', () => {
    const result = compile(source, { file: 'tickets.yaml', translations: { 'tickets.fr-FR.yaml': '' } });
    const missing = result.diagnostics.filter((d) => d.code === 'NF335').map((d) => d.message);
    expect(missing).toContain(
      '`entities.Ticket.fields.priority.values.urgent` is not translated into `fr-FR`: "Urgent!" is shown.',
    );
    expect(missing).toContain(
      '`entities.Ticket.fields.priority.values.low` is not translated into `fr-FR`: "Low" is shown.',
    );
  });

  it('reads a translation under `values` of the field, and reports a value it does not have', () => {
    const translation = spec`
      entities:
        Ticket:
          fields:
            priority:
              values: { low: Basse, urgnet: Urgente }
    `;
    expectDiagnostic(
      source,
      { code: 'NF201', line: 5, column: 31, file: 'tickets.fr-FR.yaml', hint: /did you mean `urgent`\?/ },
      'tickets.yaml',
      { translations: { 'tickets.fr-FR.yaml': translation } },
    );
    const result = compile(source, {
      file: 'tickets.yaml',
      translations: { 'tickets.fr-FR.yaml': translation.replace('urgnet', 'urgent') },
    });
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    expect(result.model.translations?.['fr-FR']?.['entities.Ticket.fields.priority.values.low']).toBe(
      'Basse',
    );
    expect(result.model.translations?.['fr-FR']?.['entities.Ticket.fields.priority.values.urgent']).toBe(
      'Urgente',
    );
    expect(result.diagnostics.some((d) => d.message.includes('.values.'))).toBe(false);
  });
});
