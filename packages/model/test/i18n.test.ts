import { describe, expect, it } from 'vitest';
import { acceptedLanguages, directionOf, localizeModel, pickLocale, uiLanguageOf } from '../src/index.js';
import { type Model } from '../src/model.js';

describe('locales', () => {
  it('picks the offered locale that fits best, the default when none does', () => {
    expect(pickLocale(['pt-BR'], ['en-GB', 'pt-PT'])).toBe('pt-PT');
    expect(pickLocale(['FR-fr'], ['en', 'fr-FR'])).toBe('fr-FR');
    expect(pickLocale(['it', 'de'], ['en-GB', 'de-DE'])).toBe('de-DE');
    expect(pickLocale(['it'], ['en-GB', 'de-DE'])).toBe('en-GB');
    expect(pickLocale([], [])).toBe('en');
  });

  it('reads Accept-Language by weight, dropping what is refused', () => {
    expect(acceptedLanguages('en;q=0.5, fr-CH, de;q=0, fr;q=0.9, *')).toEqual(['fr-CH', 'fr', 'en']);
    expect(acceptedLanguages(undefined)).toEqual([]);
  });

  it('knows the shipped languages and which way each writes', () => {
    expect([uiLanguageOf('ja-JP'), uiLanguageOf('it-IT')]).toEqual(['ja', 'en']);
    expect([directionOf('ar'), directionOf('he-IL'), directionOf('fr')]).toEqual(['rtl', 'rtl', 'ltr']);
  });
});

describe('a localized model', () => {
  const model = {
    product: { locale: 'en-GB', locales: ['en-GB', 'fr-FR'] },
    entities: {},
    errors: {
      E_REQUIRED: { code: 'E_REQUIRED', message: '{field} is required.', builtin: true },
      E_NOT_FOUND: { code: 'E_NOT_FOUND', message: 'Gone.', builtin: true, reworded: true },
      E_MINE: { code: 'E_MINE', message: 'Mine.', builtin: false },
    },
  } as unknown as Model;

  it('takes the reader’s locale and the built-in messages the spec did not reword', () => {
    const shown = localizeModel(model, 'fr-FR', {
      E_REQUIRED: '{field} est obligatoire.',
      E_NOT_FOUND: 'Introuvable.',
      E_MINE: 'À moi.',
    });
    expect(shown.product.locale).toBe('fr-FR');
    expect(Object.values(shown.errors).map((e) => e.message)).toEqual([
      '{field} est obligatoire.',
      'Gone.',
      'Mine.',
    ]);
    expect(localizeModel(model, 'en-GB')).toBe(model);
  });
});
