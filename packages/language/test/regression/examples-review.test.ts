import { describe, expect, it } from 'vitest';
import { type Model } from '@ninefold/model';
import { compile } from '../../src/index.js';

// Found while writing the examples: each of these compiled, but into the wrong model.
function model(yaml: string): Model {
  const result = compile(yaml, { file: 'spec.yaml' });
  if (!result.ok)
    throw new Error(result.diagnostics.map((d) => `${d.line}:${d.column} ${d.code} ${d.message}`).join('\n'));
  return result.model;
}

describe('regressions from the examples review', () => {
  it('a role inheriting from one that writes keeps the write list instead of widening it to all fields', () => {
    const m = model(`
entities:
  Claim: { fields: { a: string, b: string } }
roles:
  clerk: { Claim: { read: true, update: true, fields: { write: [a] } } }
  auditor: { inherits: clerk, Claim: { read: true } }
`);
    expect(m.roles['auditor']!.entities['Claim']!.writeFields).toEqual(['a']);
  });

  it('a json field defaults to an object, and `{ expr }` stays an expression', () => {
    const m = model(`
entities:
  Prefs:
    fields:
      settings: { type: json, default: { theme: dark, size: 3 } }
      owner: { type: ref, to: User, default: { expr: user.id } }
`);
    expect(m.entities['Prefs']!.fields['settings']!.default).toEqual({ value: { theme: 'dark', size: 3 } });
    expect(m.entities['Prefs']!.fields['owner']!.default).toEqual({
      expr: { source: 'user.id', names: ['user'] },
    });
  });

  it("`from: '*'` means every state that can be left, wherever the transition is declared", () => {
    const m = model(`
entities:
  Task: { fields: { title: string } }
states:
  Task:
    initial: open
    transitions:
      cancel: { from: '*', to: cancelled }
      start: { from: open, to: doing }
      finish: { from: doing, to: done }
`);
    expect([...m.states['Task']!.transitions['cancel']!.from].sort()).toEqual(['doing', 'done', 'open']);
  });

  it('`confirm: true` asks with the transition’s label', () => {
    const m = model(`
entities:
  Claim: { fields: { title: string } }
states:
  Claim:
    initial: approved
    transitions:
      pay: { from: approved, to: paid, label: Mark as paid, confirm: true }
`);
    expect(m.states['Claim']!.transitions['pay']!.confirm).toBe('Mark as paid?');
  });

  it('the summary taken from section 1 joins wrapped lines', () => {
    const result = compile('# Shop\n## 1. Product\nA shop that sells\nbooks to readers.\n\nMore.\n', {
      file: 'shop.md',
    });
    if (!result.ok) throw new Error('must compile');
    expect(result.model.product.summary).toBe('A shop that sells books to readers.');
  });
});
