import { describe, expect, it } from 'vitest';
import { compile } from '../../src/index.js';
import { expectDiagnostic, listed, spec } from './expect-diagnostic.js';

const claims = spec`
  product:
    name: Claims
    locales: [en-GB, fr-FR]
  entities:
    Claim:
      fields:
        amount: { type: integer, label: Amount }
  errors:
    E_TOO_MUCH: "{amount} is over the limit."
`;

/** Every text of `claims` in French, as its translation file would say it. */
const french = spec`
  product:
    name: Notes de frais
  entities:
    Claim:
      label: Note de frais
      pluralLabel: Notes de frais
      fields:
        amount: { label: Montant }
  roles:
    user:
      label: Utilisateur
      description: Toute personne connectée ; la spécification ne déclare aucun rôle.
  screens:
    claims: { title: Notes de frais }
    claims-detail: { title: Note de frais }
    claims-create: { title: Nouvelle note de frais }
    claims-edit: { title: Modifier la note de frais }
    users: { title: Utilisateurs }
    users-detail: { title: Utilisateur }
    users-create: { title: Nouvel utilisateur }
    users-edit: { title: Modifier l’utilisateur }
  nav:
    claims: { label: Notes de frais }
  errors:
    E_TOO_MUCH: { message: "{amount} dépasse la limite." }
`;

describe('the spec’s locales', () => {
  it('takes the first of `product.locales` as the default', () => {
    const result = compile(claims, { file: 'claims.yaml', translations: { 'claims.fr-FR.yaml': french } });
    expect(result.ok, listed(result.diagnostics)).toBe(true);
    if (!result.ok) return;
    expect(result.model.product.locale).toBe('en-GB');
    expect(result.model.product.locales).toEqual(['en-GB', 'fr-FR']);
    expect(result.diagnostics).toEqual([]);
    expect(result.model.translations?.['fr-FR']?.['entities.Claim.fields.amount.label']).toBe('Montant');
  });

  it('refuses a `product.locale` that is not the first of `product.locales`', () => {
    expectDiagnostic(
      spec`
        product:
          locale: fr-FR
          locales: [en-GB, fr-FR]
      `,
      { code: 'NF207', line: 2, column: 11, message: /starts with `en-GB`/ },
    );
  });

  it('checks each tag of `product.locales`', () => {
    expectDiagnostic(
      spec`
        product:
          locales: [en-GB, "fr FR"]
      `,
      { code: 'NF207', line: 2, column: 20, message: /not a BCP 47 locale tag/ },
    );
  });

  it('warns of a locale whose app texts do not ship (NF336)', () => {
    expectDiagnostic(
      spec`
        product:
          locales: [en-GB, it-IT]
      `,
      { code: 'NF336', line: 2, column: 20, message: /`it-IT`.*English/ },
    );
  });
});

describe('translation files', () => {
  it('reports an unknown key where the file writes it, with the nearest key', () => {
    expectDiagnostic(
      claims,
      {
        code: 'NF201',
        line: 5,
        column: 5,
        file: 'claims.fr-FR.yaml',
        hint: /did you mean `label`\?/,
      },
      'claims.yaml',
      {
        translations: { 'claims.fr-FR.yaml': french.replace('label: Note de frais', 'lable: Note de frais') },
      },
    );
  });

  it('refuses a translated message whose arguments are not the source’s', () => {
    expectDiagnostic(
      claims,
      { code: 'NF502', line: 25, column: 26, file: 'claims.fr-FR.yaml', message: /`\{montant\}`/ },
      'claims.yaml',
      { translations: { 'claims.fr-FR.yaml': french.replace('{amount} dépasse', '{montant} dépasse') } },
    );
  });

  it('warns of each text a locale leaves untranslated, with its key (NF335)', () => {
    const { result } = expectDiagnostic(
      claims,
      { code: 'NF335', line: 3, column: 20, message: /`entities\.Claim\.fields\.amount\.label`.*`fr-FR`/ },
      'claims.yaml',
      {
        translations: {
          'claims.fr-FR.yaml': french.replace('    fields:\n      amount: { label: Montant }\n', ''),
        },
      },
    );
    expect(result.diagnostics.filter((d) => d.code === 'NF335')).toHaveLength(1);
  });

  it('warns once of a locale with no translation file at all', () => {
    expectDiagnostic(
      claims,
      { code: 'NF335', line: 3, column: 20, message: /No text.*`fr-FR`/, hint: /claims\.fr-FR\.yaml/ },
      'claims.yaml',
    );
  });

  it('warns of a file for a locale the spec does not offer (NF337)', () => {
    expectDiagnostic(
      claims,
      { code: 'NF337', line: 1, column: 1, file: 'claims.de-DE.yaml', message: /`de-DE`/ },
      'claims.yaml',
      { translations: { 'claims.fr-FR.yaml': french, 'claims.de-DE.yaml': 'product:\n  name: Spesen\n' } },
    );
  });
});
