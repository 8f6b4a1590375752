import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compile } from '@ninefold/language';
import { localizeModel, specTexts, type Model } from '../src/index.js';

const source = `
product:
  name: Claims
  locales: [en-GB, fr-FR, ar]
entities:
  Claim:
    fields:
      amount: { type: integer, label: Amount, help: In whole euros. }
      status: { type: string }
      kind: { type: enum, values: [travel, meals, v1.0], valueLabels: { meals: Meals and drinks } }
roles:
  clerk: { label: Clerk, Claim: { read: true } }
states:
  Claim:
    initial: draft
    states: { draft: {}, paid: { label: Paid out } }
    transitions:
      pay: { from: draft, to: paid, confirm: Pay this claim? }
errors:
  E_TOO_MUCH: "{amount} is over the limit."
  E_NOT_FOUND: "No such claim."
`;

const french = `
product: { name: Notes de frais }
entities:
  Claim:
    label: Note de frais
    fields:
      amount: { label: Montant, help: En euros entiers. }
      kind: { values: { travel: Déplacements, meals: Repas } }
roles:
  clerk: { label: Commis }
states:
  Claim:
    states: { paid: { label: Payée } }
    transitions: { pay: { label: Payer, confirm: Payer cette note ? } }
errors:
  E_TOO_MUCH: { message: "{amount} dépasse la limite." }
  E_NOT_FOUND: { message: "Note introuvable." }
`;

function compiled(): Model {
  const result = compile(source, { file: 'claims.yaml', translations: { 'claims.fr-FR.yaml': french } });
  if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
  return result.model;
}

describe('the spec’s words in a locale', () => {
  it('names every translatable text by its key', () => {
    const texts = specTexts(compiled());
    expect(texts['entities.Claim.fields.amount.help']).toBe('In whole euros.');
    expect(texts['states.Claim.transitions.pay.confirm']).toBe('Pay this claim?');
    expect(texts['errors.E_NOT_FOUND.message']).toBe('No such claim.'); // reworded built-in
    expect(texts['errors.E_REQUIRED.message']).toBeUndefined(); // the app's, not the spec's
    expect(Object.keys(texts).some((key) => key.startsWith('entities.User.'))).toBe(false);
    // every value of an enum, whether the spec labels it or not; a value with a dot is no key's part
    expect(texts['entities.Claim.fields.kind.values.meals']).toBe('Meals and drinks');
    expect(texts['entities.Claim.fields.kind.values.travel']).toBe('Travel');
    expect(Object.keys(texts).filter((key) => key.includes('.values.'))).toHaveLength(2);
  });

  it('translates the labels of enum values, and a user’s roles with the roles', () => {
    const model = compiled();
    const shown = localizeModel(model, 'fr-FR');
    expect(shown.entities['Claim']!.fields['kind']!.valueLabels).toEqual({
      travel: 'Déplacements',
      meals: 'Repas',
      'v1.0': 'V1.0',
    });
    expect(model.entities['User']!.fields['roles']!.valueLabels).toEqual({ clerk: 'Clerk' });
    expect(shown.entities['User']!.fields['roles']!.valueLabels).toEqual({ clerk: 'Commis' });
    expect(shown.entities['Claim']!.fields['amount']!.valueLabels).toBeUndefined();
  });

  it('replaces each translated word and keeps the default locale’s for the rest', () => {
    const model = compiled();
    const shown = localizeModel(model, 'fr-FR', { E_REQUIRED: '{field} est obligatoire.' });
    expect(shown.product.name).toBe('Notes de frais');
    expect(shown.product.locale).toBe('fr-FR');
    const claim = shown.entities['Claim']!;
    expect([claim.label, claim.pluralLabel]).toEqual(['Note de frais', 'Claims']);
    expect(claim.fields['amount']).toMatchObject({ label: 'Montant', help: 'En euros entiers.' });
    expect(claim.fields['status']!.label).toBe(model.entities['Claim']!.fields['status']!.label);
    expect(shown.states['Claim']!.states['paid']!.label).toBe('Payée');
    expect(shown.states['Claim']!.transitions['pay']).toMatchObject({
      label: 'Payer',
      confirm: 'Payer cette note ?',
    });
    expect(shown.errors['E_TOO_MUCH']!.message).toBe('{amount} dépasse la limite.');
    // the spec reworded it: its own translation wins over the shipped one
    expect(shown.errors['E_NOT_FOUND']!.message).toBe('Note introuvable.');
    expect(shown.errors['E_REQUIRED']!.message).toBe('{field} est obligatoire.');
  });

  it('reads a same-language locale’s words, and none for the default or an untranslated locale', () => {
    const model = compiled();
    expect(localizeModel(model, 'fr-CA').entities['Claim']!.label).toBe('Note de frais');
    expect(localizeModel(model, 'ar').entities['Claim']!.label).toBe('Claim');
    expect(localizeModel(model, 'en-GB')).toBe(model);
    expect(localizeModel(model, 'en-US').entities['Claim']!.label).toBe('Claim');
  });
});

describe('the built-in User in a locale', () => {
  it('takes its label and its own fields’ labels from the shipped catalogue, a spec’s added field from the spec’s translation', () => {
    const result = compile(
      source.replace(
        'entities:\n',
        'entities:\n  User:\n    fields:\n      desk: { type: string, label: Desk }\n',
      ),
      {
        file: 'claims.yaml',
        translations: {
          'claims.fr-FR.yaml': french.replace(
            'entities:\n',
            'entities:\n  User:\n    fields:\n      desk: { label: Bureau }\n',
          ),
        },
      },
    );
    if (!result.ok) throw new Error(JSON.stringify(result.diagnostics));
    // the field the spec added is one of its texts, the built-in ones are not
    expect(Object.keys(specTexts(result.model)).filter((key) => key.startsWith('entities.User.'))).toEqual([
      'entities.User.fields.desk.label',
    ]);
    const builtins = JSON.parse(
      readFileSync(new URL('../src/catalogue/fr.json', import.meta.url), 'utf8'),
    ) as Record<string, string>;
    const user = localizeModel(result.model, 'fr-FR', builtins).entities['User']!;
    expect([user.label, user.pluralLabel]).toEqual(['Utilisateur', 'Utilisateurs']);
    expect(
      Object.fromEntries(Object.entries(user.fields).map(([name, field]) => [name, field.label])),
    ).toMatchObject({ email: 'E-mail', name: 'Nom', roles: 'Rôles', disabled: 'Désactivé', desk: 'Bureau' });
    // English, whose words are the model's own, is left as it is
    const english = localizeModel(result.model, 'en-GB').entities['User']!;
    expect([english.label, english.fields['name']!.label]).toEqual(['User', 'Name']);
  });
});
