import { afterEach, describe, expect, it } from 'vitest';
import { createI18n, LOCALE_STORAGE_KEY } from '../src/i18n/i18n';
import { pseudoMessage } from '../src/i18n/pseudo';

/**
 * The app's language store (decision 0067): which locale a reader gets, and its texts, through the
 * store's own surface and the shipped catalogues.
 */
afterEach(() => localStorage.clear());

describe('the language store', () => {
  it('gives the browser’s first language the spec offers, else the spec’s default', () => {
    expect(createI18n({ locales: ['en-GB', 'fr-FR'], wanted: ['de-DE', 'fr-CA'] }).locale).toBe('fr-FR');
    expect(createI18n({ locales: ['en-GB', 'fr-FR'], wanted: ['ja'] }).locale).toBe('en-GB');
    expect(createI18n({ locales: ['ar-EG'], wanted: [] }).dir).toBe('rtl');
  });

  it('renders a first text in French once loaded, and switches to Arabic, right to left', async () => {
    const i18n = createI18n({ locales: ['en-GB', 'fr-FR', 'ar'], wanted: ['fr-FR'] });
    await i18n.firstReady();
    expect(i18n.t('first.language')).toBe('Langue');
    let heard = 0;
    const stop = i18n.subscribe(() => (heard += 1));
    await i18n.setLocale('ar');
    stop();
    expect([i18n.locale, i18n.dir, i18n.t('first.language')]).toEqual(['ar', 'rtl', 'اللغة']);
    expect(heard).toBeGreaterThan(0);
    expect(localStorage.getItem(LOCALE_STORAGE_KEY)).toBe('ar');
  });

  it('suspends on a text past the first area until every area is here, then shows an unknown key as itself', async () => {
    const i18n = createI18n({ locales: ['en'], wanted: ['en'] });
    await i18n.firstReady();
    let thrown: unknown;
    try {
      i18n.t('list.nothing-here' as never);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(Promise);
    await thrown;
    expect(i18n.isReady()).toBe(true);
    expect(i18n.t('list.nothing-here' as never)).toBe('list.nothing-here');
  });

  it('pseudo-localises text outside the arguments, longer and bracketed', () => {
    expect(pseudoMessage('Save {name}')).toBe('[Šàvé {name} ··]');
    expect(pseudoMessage('{count, plural, one {# row} other {# rows}}')).toMatch(
      /^\[\{count, plural.*\}\s·*\]$/,
    );
  });
});
